import { describe, expect, it } from 'vitest'
import { availableKinds, barRows, buildingFlow, CHART_KINDS, isLineSeries, upTo } from './kinds.ts'

describe('flow meter and battery kinds', () => {
  const admin = { consumption: 'kWh', grid_import: 'kWh', grid_export: 'kWh', pv_production: 'kWh', own_consumption: 'kWh', battery_charge: 'kWh', battery_discharge: 'kWh', charging_stations: 'kWh', heat: 'kWh', cold_water: 'm3', hot_water: 'm3', cost: 'CHF' }

  it('offers the flow meter and the battery chart only with the overview switch', () => {
    expect(availableKinds(admin)).toEqual(expect.arrayContaining(['flowMeter', 'battery']))
    expect(availableKinds({ charging_stations: 'kWh' })).not.toContain('flowMeter')
    expect(availableKinds({ charging_stations: 'kWh' })).not.toContain('battery')
  })

  it('reads the flow meter from /flow and the battery chart from /battery/states', () => {
    expect(CHART_KINDS.find((k) => k.key === 'flowMeter')?.source).toBe('flow')
    const battery = CHART_KINDS.find((k) => k.key === 'battery')
    expect(battery?.source).toBe('battery')
    expect(battery?.series).toContain('battery_soc')
  })

  it('derives the building power from the other flows, never below 0', () => {
    const at = (v: number) => [{ start: '2026-01-01T00:00:00+01:00', value: v }]
    expect(buildingFlow({ grid_flow: at(2), pv_flow: at(3), battery_discharge_flow: at(1), battery_charge_flow: at(0.5), charging_stations_flow: at(4) })).toEqual(at(1.5))
    // Exporting more than PV brings in: the balance would be negative.
    expect(buildingFlow({ grid_flow: at(-5), pv_flow: at(3) })).toEqual(at(0))
    expect(buildingFlow({})).toEqual([])
  })

  it('draws kW and % as lines and energies, volumes and money as bars', () => {
    expect(isLineSeries('grid_flow', 'kW')).toBe(true)
    expect(isLineSeries('battery_soc', '%')).toBe(true)
    expect(isLineSeries('consumption', 'kWh')).toBe(false)
    expect(isLineSeries('cold_water', 'm3')).toBe(false)
    expect(isLineSeries('cost', 'CHF')).toBe(false)
  })

  it('builds one Tremor row per bucket keyed by the series labels', () => {
    const rows = barRows(
      { cold_water: [{ start: 'a', value: 1 }, { start: 'b', value: 2 }], hot_water: [{ start: 'a', value: 3 }] },
      { cold_water: 'Cold', hot_water: 'Hot' },
      (s) => s.toUpperCase(),
    )
    expect(rows).toEqual([{ bucket: 'A', Cold: 1, Hot: 3 }, { bucket: 'B', Cold: 2, Hot: 0 }])
  })

  it('cuts the state of charge at now, so buckets still to come do not read as an empty battery', () => {
    const b = [{ start: '2026-01-01T00:00:00+01:00', value: 40 }, { start: '2026-01-01T01:00:00+01:00', value: 0 }]
    expect(upTo(b, Date.parse('2026-01-01T00:30:00+01:00'))).toEqual([b[0]])
    expect(upTo(b, Date.parse('2026-01-02T00:00:00+01:00'))).toEqual(b)
  })
})
