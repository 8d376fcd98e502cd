import { describe, expect, it, vi } from 'vitest'
import { QueryObserver } from '@tanstack/react-query'

vi.mock('../session/session.ts', () => ({ onLogout: () => () => undefined, forceLogout: () => undefined }))

const { createQueryClient } = await import('./query.ts')
const { chartKeys } = await import('../features/charts/api.ts')
const { overviewKeys } = await import('../features/overview/api.ts')
const { stationKeys } = await import('../features/power/station-api.ts')
const { rfidKeys } = await import('../features/rfids/api.ts')
const { ratesChanged } = await import('../features/rates/api.ts')
const { tariffSaved, zevSaved } = await import('../features/pricing/api.ts')

const INST = 1
const range = { start: '2026-11-01T00:00:00+01:00', end: '2026-12-01T00:00:00+01:00', granularity: 'day' as const }

/**
 * A screen as the app mounts it: the Charts page, the Overview and a station's charts read the
 * installation's costs (from a fake server whose price the test changes), and the RFID list does not.
 * Each observer is what a mounted `useQuery` holds; `shown()` is what the screens display now.
 */
function screens() {
  const client = createQueryClient()
  const server = { chf: 10, rfidReads: 0 }
  const watch = (queryKey: readonly unknown[], read: () => unknown) => {
    const observer = new QueryObserver(client, { queryKey, queryFn: async () => read() })
    observer.subscribe(() => undefined)
    return observer
  }
  const chart = watch(chartKeys.facility(INST, 'main_power', range), () => ({ cost: server.chf }))
  const overview = watch(overviewKeys.overview(INST), () => ({ today_cost: server.chf }))
  const station = watch(stationKeys.statistics(INST, 3, range), () => ({ cost: server.chf }))
  const otherInstallation = watch(chartKeys.facility(2, 'main_power', range), () => ({ cost: server.chf }))
  watch(rfidKeys.list(INST), () => ++server.rfidReads)
  const shown = () => ({
    chart: (chart.getCurrentResult().data as { cost: number } | undefined)?.cost,
    overview: (overview.getCurrentResult().data as { today_cost: number } | undefined)?.today_cost,
    station: (station.getCurrentResult().data as { cost: number } | undefined)?.cost,
    otherInstallation: (otherInstallation.getCurrentResult().data as { cost: number } | undefined)?.cost,
  })
  return { client, server, shown }
}

const loaded = async (s: ReturnType<typeof screens>) => {
  await vi.waitFor(() => expect(s.shown()).toEqual({ chart: 10, overview: 10, station: 10, otherInstallation: 10 }))
  expect(s.server.rfidReads).toBe(1)
}

describe('saves that change prices refresh the charts at once', () => {
  it('a saved power rate shows the new costs in the charts, the Overview and the station charts without a reload', async () => {
    const s = screens()
    await loaded(s)
    s.server.chf = 12
    await ratesChanged(s.client, INST, 'power')
    // Within the 30 s the answers count as fresh, only the invalidation brings the new CHF.
    expect(s.shown()).toEqual({ chart: 12, overview: 12, station: 12, otherInstallation: 10 })
    expect(s.server.rfidReads).toBe(1)
  })

  it('a saved tariff version and a saved ZEV model do the same', async () => {
    const s = screens()
    await loaded(s)
    s.server.chf = 7
    await tariffSaved(s.client, INST)
    expect(s.shown()).toEqual({ chart: 7, overview: 7, station: 7, otherInstallation: 10 })
    s.server.chf = 5
    await zevSaved(s.client, INST, { model: 'actual_costs', flat_percent: 80 })
    expect(s.shown()).toEqual({ chart: 5, overview: 5, station: 5, otherInstallation: 10 })
    expect(s.server.rfidReads).toBe(1)
  })
})
