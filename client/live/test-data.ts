/**
 * Live-topic payloads for the live store's unit tests (store.test.ts, use-live.test.ts): one metrics
 * reading and one charging station as the relay sends them (shared/schemas), with the fields a test
 * varies given and the rest fixed. Not part of the app bundle.
 */
import type { Metrics } from '../../shared/schemas/metrics.ts'
import type { Station } from '../../shared/schemas/station.ts'

/** The instant the tests' readings are taken around: 2026-03-02 10:00 UTC (ms since the epoch). */
export const T0 = Date.parse('2026-03-02T10:00:00Z')

/** A metrics reading at `at` (ms) with grid power `gridKw` (kW, import positive); `overrides` replace whole fields. */
export function testMetrics(at: number, gridKw: number, overrides: Partial<Metrics> = {}): Metrics {
  return {
    installation_id: 1,
    timestamp: new Date(at).toISOString(),
    grid: { power_kw: gridKw, import_kw: Math.max(gridKw, 0), export_kw: Math.max(-gridKw, 0) },
    pv: { power_kw: 3, peak_kw: 10 },
    battery: { power_kw: 1.5, soc: 64, capacity_kwh: 10 },
    building: { power_kw: 2.2 },
    charging_stations: { power_kw: 7.4, stations: { '1': 7.4, '2': 0 } },
    e_sourced_today: 12.5,
    consumption_today: 20.25,
    water: { today_m3: 1.2 },
    ...overrides,
  }
}

/** Charging station `id`, no car plugged in unless `overrides` say otherwise, last updated at {@link T0}. */
export function testStation(id: number, overrides: Partial<Station> = {}): Station {
  return {
    id,
    device_id: `dev-${id}`,
    name: `Station ${id}`,
    description: '',
    object_id: null,
    object_type: 'charging_station',
    capacity_kw: 11,
    charging_mode: 'instant',
    status: 'noCar',
    status_code: 0,
    alerts: [],
    rfid_lernmodus: 0,
    power_kw: 0,
    energy_kwh: 0,
    session_start: null,
    rfid: null,
    updated_at: new Date(T0).toISOString(),
    ...overrides,
  }
}
