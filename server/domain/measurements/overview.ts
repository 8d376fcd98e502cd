import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { StatisticsService } from '../statistics/service.ts'
import type { MetricsService } from './metrics.ts'
import { localDate, periodRange } from '../../../shared/rules/granularity.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { EnergyReturn } from '../../../shared/schemas/installation.ts'
import type { Clock } from '../../lib/clock.ts'

/**
 * GET /api/cockpit/installations/{id}/overview (SPEC §2 Overview): the Overview screen's
 * data in one answer. It is the live power flow of GET /api/metrics/ (same fields, same projection)
 * plus:
 * - `water`: today's water in m3, total (`today_m3`, as in metrics) and split into `cold_m3`, `hot_m3`;
 * - `heat`: today's heat in kWh (`today_kwh`);
 * - `energy_return`: PV fed into the grid today, this month and this year (kWh);
 * - `today`: the installation-local day's statistics totals (`units`, `series`) the caller may see,
 *   exactly those of GET /api/statistics/{id}/totals for today (kWh, m3, CHF only with the cost switch).
 * Without the overview switch (SPEC §6, shared/rules/visibility.ts) `water`, `heat` and `energy_return`
 * are null like grid, PV, battery and building, and `today` holds only the caller's readable stations.
 * Errors: 403 without access to the installation, 404 for an unknown one.
 */
export interface Overview extends Omit<Metrics, 'water'> {
  water: { today_m3: number; cold_m3: number; hot_m3: number } | null
  heat: { today_kwh: number } | null
  energy_return: EnergyReturn | null
  today: { start: string; end: string; units: Record<string, string>; series: Record<string, number> }
}

export function createOverviewService({ clock, installations, metrics, statistics }: { clock: Clock; installations: InstallationService; metrics: MetricsService; statistics: StatisticsService }) {
  return {
    async get(actor: Actor, installationId: number): Promise<Overview> {
      const access = await installations.access(actor, installationId)
      const { timezone } = await installations.describe(installationId)
      const day = periodRange('day', localDate(clock.now(), timezone), timezone)
      const [live, totals, energyReturn] = await Promise.all([
        metrics.live(actor, installationId),
        statistics.totals(actor, installationId, { start: day.start, end: day.end, granularity: day.granularity }),
        access.overview ? metrics.energyReturn(actor, installationId) : Promise.resolve(null),
      ])
      const s = totals.series
      return {
        ...live,
        water: live.water && access.overview ? { today_m3: live.water.today_m3, cold_m3: s.cold_water ?? 0, hot_m3: s.hot_water ?? 0 } : null,
        heat: access.overview ? { today_kwh: s.heat ?? 0 } : null,
        energy_return: energyReturn,
        today: { start: totals.start, end: totals.end, units: totals.units, series: totals.series },
      }
    },
  }
}
export type OverviewService = ReturnType<typeof createOverviewService>
