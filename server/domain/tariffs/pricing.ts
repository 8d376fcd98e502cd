import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { AppError } from '../../lib/errors.ts'
import { localDate } from '../../../shared/rules/granularity.ts'
import type { Pricing } from '../../../shared/schemas/pricing.ts'

export type { Pricing }


const chf = (rappen: number) => Math.round(rappen * 100) / 10_000

/** Pricing for any role in the installation; 404 "Pricing is not found" when no tariff is in force. */
export function createPricingService({ db, installations }: { db: Db; installations: InstallationService }) {
  return {
    async current(actor: Actor, installationId: number): Promise<Pricing> {
      await installations.requireRole(actor, installationId)
      const inst = await installations.describe(installationId)
      const day = localDate(new Date(), inst.timezone)
      const t = await db.selectFrom('tariffs').selectAll().where('installation_id', '=', installationId).where('valid_from', '<=', day)
        .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>=', day)])).orderBy('valid_from', 'desc').executeTakeFirst()
      if (!t) throw new AppError(404, 'pricingNotFound')
      return {
        id: t.id, name: t.name, basic_tariff: chf(t.basic_rappen), high_tariff: chf(t.high_rappen_per_kwh), low_tariff: chf(t.low_rappen_per_kwh),
        flat_tariff: t.flat_rappen_per_kwh == null ? null : chf(t.flat_rappen_per_kwh), flat: t.flat, valid_from: t.valid_from, valid_to: t.valid_to, schedule: t.schedule,
      }
    },
  }
}
