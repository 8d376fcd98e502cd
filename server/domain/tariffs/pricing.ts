import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { TariffService } from './service.ts'
import { AppError, Forbidden, Invalid } from '../../lib/errors.ts'
import type { MessageKey } from '../../lib/messages.ts'
import { localDate } from '../../../shared/rules/granularity.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import { minutesOf } from '../../../shared/rules/tariff.ts'
import type { Pricing, PricingUpdate } from '../../../shared/schemas/pricing.ts'
import type { Clock } from '../../lib/clock.ts'

export type { Pricing }

/** Highest energy price accepted, CHF per kWh (ten times today's Swiss household prices). */
const MAX_CHF_PER_KWH = 10
/** Highest monthly basic tariff accepted, CHF. */
const MAX_BASIC_CHF = 1000

const chf = (rappen: number) => Math.round(rappen * 100) / 10_000
const rappen = (value: number) => Math.round(value * 1_000_000) / 10_000

/** "YYYY-MM-DD" of the day before `day`. */
function dayBefore(day: string): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10)
}

/** Whether "YYYY-MM-DD" names a real calendar day (no 2026-02-30, no year 0000). */
function isDay(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number)
  const date = new Date(Date.UTC(y, m - 1, d))
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

type TariffRow = { id: number; name: string; basic_rappen: number; high_rappen_per_kwh: number; low_rappen_per_kwh: number; flat_rappen_per_kwh: number | null; flat: boolean; valid_from: string; valid_to: string | null; schedule: Pricing['schedule'] }

function toPricing(t: TariffRow, today: string): Pricing {
  return {
    id: t.id, name: t.name, basic_tariff: chf(t.basic_rappen), high_tariff: chf(t.high_rappen_per_kwh), low_tariff: chf(t.low_rappen_per_kwh),
    flat_tariff: t.flat_rappen_per_kwh == null ? null : chf(t.flat_rappen_per_kwh), flat: t.flat, valid_from: t.valid_from, valid_to: t.valid_to, schedule: t.schedule,
    editable: t.valid_from > today,
  }
}

/**
 * Check a tariff version (SPEC §4–5 rate rules): energy prices 0 ≤ CHF/kWh < 10 and the basic
 * tariff 0 ≤ CHF/month < 1000 ("Please enter a valid rate"), a flat tariff needs its price, every span of
 * the grid has valid "HH:mm" times ("Please enter valid rate times"), and the version starts after today
 * (installation-local): a version that has started prices sessions already charged and never changes.
 * Throws Invalid with every problem by field.
 */
export function checkTariffVersion(input: PricingUpdate, today: string): void {
  const fields: Record<string, MessageKey[]> = {}
  const add = (field: string, key: MessageKey) => void ((fields[field] ??= []).includes(key) || fields[field].push(key))
  for (const k of ['high_tariff', 'low_tariff', 'flat_tariff'] as const) {
    const v = input[k]
    if ((v == null && k !== 'flat_tariff') || (v != null && !(v >= 0 && v < MAX_CHF_PER_KWH))) add(k, 'rateInvalid')
  }
  const basic = input.basic_tariff
  if (basic == null || !(basic >= 0 && basic < MAX_BASIC_CHF)) add('basic_tariff', 'rateInvalid')
  if (input.flat && input.flat_tariff == null) add('flat_tariff', 'required')
  for (const e of input.schedule) {
    try {
      minutesOf(e.start)
      minutesOf(e.end)
    } catch {
      add('schedule', 'rateTimesInvalid')
    }
  }
  if (!isDay(input.valid_from)) add('valid_from', 'invalidValue')
  else if (input.valid_from <= today) add('valid_from', 'tariffStartsAfterToday')
  if (Object.keys(fields).length) throw new Invalid(fields)
}

/**
 * The charging tariff of an installation as the Pricing screen shows and admins set it (SPEC §2, §7;
 * docs/decisions.md "Pricing: a tariff version never changes once it has started"). Tariffs are versions
 * by validity date: each session is priced with the version valid on its start day (server/domain/tariffs/service.ts `inForce`), so a change never reprices past sessions.
 * "Today" is the installation-local date of `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createPricingService({ db, clock, installations, tariffs }: { db: Db; clock: Clock; installations: InstallationService; tariffs: TariffService }) {
  const todayOf = async (installationId: number) => localDate(clock.now(), (await installations.describe(installationId)).timezone)
  const versionsOf = (installationId: number) =>
    db.selectFrom('tariffs').select(['id', 'name', 'basic_rappen', 'high_rappen_per_kwh', 'low_rappen_per_kwh', 'flat_rappen_per_kwh', 'flat', 'valid_from', 'valid_to', 'schedule'])
      .where('installation_id', '=', installationId).orderBy('valid_from', 'desc').execute()

  return {
    /** The version in force today, for any role in the installation; 404 "Pricing is not found" without one. */
    async current(actor: Actor, installationId: number): Promise<Pricing> {
      await installations.requireRole(actor, installationId)
      const day = await todayOf(installationId)
      const t = (await versionsOf(installationId)).find((r) => r.valid_from <= day && (!r.valid_to || r.valid_to >= day))
      if (!t) throw new AppError(404, 'pricingNotFound')
      return toPricing(t, day)
    },

    /** Every version, newest first (past ones kept: old invoices are priced by them), for any role. */
    async versions(actor: Actor, installationId: number): Promise<Pricing[]> {
      await installations.requireRole(actor, installationId)
      const day = await todayOf(installationId)
      return (await versionsOf(installationId)).map((t) => toPricing(t, day))
    },

    /**
     * Admins and superusers set the tariff from `input.valid_from` (after today) on: a version starting that
     * day is replaced, otherwise one is added; the version before it ends the day before, and the new one
     * ends the day before a later version, if any. Returns the saved version. 403 for other roles; 400 as
     * {@link checkTariffVersion}.
     */
    async save(actor: Actor, installationId: number, input: PricingUpdate): Promise<Pricing> {
      const role = await installations.requireRole(actor, installationId)
      if (!isAdmin(role)) throw Forbidden()
      const today = await todayOf(installationId)
      checkTariffVersion(input, today)
      const from = input.valid_from
      const id = await db.transaction().execute(async (tx) => {
        const rows = await tx.selectFrom('tariffs').select(['id', 'valid_from', 'valid_to']).where('installation_id', '=', installationId).orderBy('valid_from').forUpdate().execute()
        const same = rows.find((r) => r.valid_from === from)
        const next = rows.find((r) => r.valid_from > from)
        const prev = rows.filter((r) => r.valid_from < from).at(-1)
        const values = {
          name: input.name, basic_rappen: Math.round(input.basic_tariff! * 100), high_rappen_per_kwh: rappen(input.high_tariff!), low_rappen_per_kwh: rappen(input.low_tariff!),
          flat_rappen_per_kwh: input.flat_tariff == null ? null : rappen(input.flat_tariff), flat: input.flat, valid_from: from,
          valid_to: next ? dayBefore(next.valid_from) : null, schedule: JSON.stringify(input.schedule) as never,
        }
        if (prev && (prev.valid_to == null || prev.valid_to >= from)) {
          await tx.updateTable('tariffs').set({ valid_to: dayBefore(from) }).where('id', '=', prev.id).execute()
        }
        if (same) {
          await tx.updateTable('tariffs').set(values).where('id', '=', same.id).execute()
          return same.id
        }
        return (await tx.insertInto('tariffs').values({ installation_id: installationId, ...values }).returning('id').executeTakeFirstOrThrow()).id
      })
      tariffs.invalidate(installationId)
      return (await this.versions(actor, installationId)).find((v) => v.id === id)!
    },
  }
}
