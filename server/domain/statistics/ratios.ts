import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { StatisticsService } from './service.ts'
import type { Clock } from '../../lib/clock.ts'
import { Forbidden } from '../../lib/errors.ts'
import { periodRange, type Period } from '../../../shared/rules/granularity.ts'
import { asPercent, percentChange, pointsChange, selfConsumption, selfSufficiency } from '../../../shared/rules/energy-insights.ts'
import type { RatiosAnswer } from '../../../shared/schemas/statistics.ts'
import { localIso } from './service.ts'

const QUARTER_MS = 15 * 60_000
const TOTALS = ['consumption', 'grid_import', 'grid_export', 'pv_production'] as const

/**
 * Self-sufficiency, self-consumption and the comparison with the previous period (docs/decisions.md
 * "Screens: solar share, ratios, comparisons"), from the statistics totals of the installation
 * (the same sums as the charts: measurements_type_15m and its rollups).
 */
export function createRatioService({ installations, statistics, clock }: { installations: InstallationService; statistics: StatisticsService; clock: Clock }) {
  /** The energy totals and ratios of [start, end) (instants), as the caller's statistics totals give them. */
  async function periodEnergy(actor: Actor, installationId: number, start: Date, end: Date, tz: string) {
    // Whole local days read the daily rollups; a period cut at now reads the 15-minute rows.
    const wholeDays = localIso(start, tz).slice(11, 19) === '00:00:00' && localIso(end, tz).slice(11, 19) === '00:00:00'
    const t = await statistics.totals(actor, installationId, { start: start.toISOString(), end: end.toISOString(), granularity: wholeDays ? 'day' : 'fifteen_minutes' })
    const v = Object.fromEntries(TOTALS.map((k) => [k, t.series[k] ?? 0])) as Record<(typeof TOTALS)[number], number>
    return {
      start: localIso(start, tz),
      end: localIso(end, tz),
      ...v,
      self_sufficiency: asPercent(selfSufficiency(v.grid_import, v.consumption)),
      self_consumption: asPercent(selfConsumption(v.grid_export, v.pv_production)),
    }
  }

  return {
    /**
     * GET /api/statistics/{installation_id}/ratios?period&date: the chart period of kind `period`
     * containing local date `date`, and the one before it (RatiosAnswer). A running period (its end after
     * the clock's now) is cut at now's quarter hour (at least one quarter hour), and the previous period
     * at the same elapsed time, so a morning is not compared with a whole day. 403 without the overview
     * switch (the ratios read the main meter, SPEC §6); 403/404 for an installation the caller has no role in.
     */
    async ratios(actor: Actor, installationId: number, q: { period: Period; date: string }): Promise<RatiosAnswer> {
      const access = await installations.access(actor, installationId)
      if (!access.overview) throw Forbidden()
      const tz = (await installations.describe(installationId)).timezone
      const cur = periodRange(q.period, q.date, tz)
      const prev = periodRange(q.period, q.date, tz, { offset: -1 })
      const [start, end, prevStart, prevEnd] = [cur.start, cur.end, prev.start, prev.end].map((x) => new Date(x))
      const now = clock.ms()
      const partial = end.getTime() > now
      const cut = partial ? Math.max(Math.floor(now / QUARTER_MS) * QUARTER_MS, start.getTime() + QUARTER_MS) : end.getTime()
      const elapsed = cut - start.getTime()
      const [current, previous] = await Promise.all([
        periodEnergy(actor, installationId, start, new Date(cut), tz),
        periodEnergy(actor, installationId, prevStart, partial ? new Date(Math.min(prevStart.getTime() + elapsed, prevEnd.getTime())) : prevEnd, tz),
      ])
      return {
        installation_id: installationId,
        timezone: tz,
        period: q.period,
        current,
        previous,
        partial,
        change: {
          consumption: percentChange(current.consumption, previous.consumption),
          grid_import: percentChange(current.grid_import, previous.grid_import),
          grid_export: percentChange(current.grid_export, previous.grid_export),
          pv_production: percentChange(current.pv_production, previous.pv_production),
          self_sufficiency: pointsChange(current.self_sufficiency, previous.self_sufficiency),
          self_consumption: pointsChange(current.self_consumption, previous.self_consumption),
        },
      }
    },
  }
}
export type RatioService = ReturnType<typeof createRatioService>
