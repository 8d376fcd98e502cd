/**
 * What a save that changes the installation's figures must refresh (docs/decisions.md "Client: data
 * loading with TanStack Query"). Costs in the statistics are priced when read: grid energy at the power
 * rate in force (rates), station energy at the charging tariff (tariff versions), and the ZEV report
 * bills by the ZEV model, so after such a save every cached chart, total and the Overview would show old
 * CHF until a reload. The client edits no meters (they come from the devices), so no meter save is listed
 * here.
 */
import type { QueryClient } from '@tanstack/react-query'
import { chartKeys } from '../features/charts/api.ts'
import { overviewKeys } from '../features/overview/api.ts'
import { stationKeys } from '../features/power/station-api.ts'

/**
 * Mark every statistics read of installation `installationId` stale: the facility and scoped charts
 * (chartKeys.all), the Overview's totals of today, and each station's charts (stationKeys.statistics
 * of any station). Mounted ones refetch now, the others when next shown. Resolves when the refetches
 * are done.
 */
export async function figuresChanged(queryClient: QueryClient, installationId: number): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: chartKeys.all(installationId) }),
    queryClient.invalidateQueries({ queryKey: overviewKeys.overview(installationId) }),
    // ['installations', id, 'stations', stationId, 'statistics', …] for every station.
    queryClient.invalidateQueries({
      queryKey: stationKeys.stations(installationId),
      predicate: (q) => q.queryKey[4] === stationKeys.statisticsSegment,
    }),
  ])
}
