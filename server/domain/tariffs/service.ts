import type { Db } from '../../db/connection.ts'
import { isHighTariff, type ScheduleEntry } from '../../../shared/rules/tariff.ts'
import { localParts } from '../../../shared/rules/formats.ts'
import { splitByTariff } from './split.ts'

/** The tariff in force: prices in Rappen per kWh and the high-tariff schedule (SPEC §3). */
export interface TariffInForce {
  high: number
  low: number
  flat: number | null
  schedule: ScheduleEntry[]
}

/**
 * Electricity tariffs of installations, cached for a minute of real time (they change rarely and are read
 * on every simulator step; this process's own changes invalidate at once). The cache's age is a measured
 * duration (`performance.now()`, ARCHITECTURE §1 "Time"), not the clock's: how stale a copy may be does
 * not depend on CLOCK_SPEED.
 */
export function createTariffService({ db }: { db: Db }) {
  const cache = new Map<number, { at: number; rows: { valid_from: string; valid_to: string | null; t: TariffInForce }[] }>()

  async function load(installationId: number) {
    const hit = cache.get(installationId)
    if (hit && performance.now() - hit.at < 60_000) return hit.rows
    const rows = (await db.selectFrom('tariffs').selectAll().where('installation_id', '=', installationId).orderBy('valid_from', 'desc').execute()).map((r) => ({
      valid_from: r.valid_from,
      valid_to: r.valid_to,
      t: { high: r.high_rappen_per_kwh, low: r.low_rappen_per_kwh, flat: r.flat ? r.flat_rappen_per_kwh : null, schedule: r.schedule },
    }))
    cache.set(installationId, { at: performance.now(), rows })
    return rows
  }

  return {
    /** The tariff valid on the installation-local date of `at`, or null when none is. */
    async inForce(installationId: number, at: Date, tz: string): Promise<TariffInForce | null> {
      const day = localParts(at, tz).date
      const rows = await load(installationId)
      return rows.find((r) => r.valid_from <= day && (!r.valid_to || r.valid_to >= day))?.t ?? null
    },
    /** Whether `at` is high tariff for the installation (false without a tariff or with a flat one). */
    async isHigh(installationId: number, at: Date, tz: string): Promise<boolean> {
      const t = await this.inForce(installationId, at, tz)
      if (!t || t.flat != null) return false
      const p = localParts(at, tz)
      return isHighTariff(t.schedule, p.weekday, p.minute)
    },
    /**
     * Split `kwh` delivered between register readings at `from` and `to` into high- and low-tariff kWh,
     * interpolated linearly over time across tariff changes (split.ts splitByTariff, docs/decisions.md
     * "Charging: energy split at tariff changes"); the tariff in force each local day decides.
     */
    async splitKwh(installationId: number, kwh: number, from: Date, to: Date, tz: string): Promise<{ highKwh: number; lowKwh: number }> {
      return splitByTariff(kwh, from, to, tz, async (at) => {
        const t = await this.inForce(installationId, at, tz)
        return !t || t.flat != null ? null : t.schedule
      })
    },
    invalidate(installationId: number) {
      cache.delete(installationId)
    },
  }
}
export type TariffService = ReturnType<typeof createTariffService>
