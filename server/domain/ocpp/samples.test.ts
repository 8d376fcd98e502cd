import { describe, expect, it } from 'vitest'
import { readSamples } from './samples.ts'

// OCPP 1.6 §7.43 SampledValue: totals, per-phase values, currents and SoC as chargers send them.
describe('readSamples', () => {
  it('takes a total when sent, else sums the phases; N and line-to-line values are no phase', () => {
    expect(readSamples([{ value: '7400', measurand: 'Power.Active.Import', unit: 'W' }, { value: '1', measurand: 'Power.Active.Import', unit: 'W', phase: 'L1' }]).powerKw).toBe(7.4)
    expect(readSamples(['L1', 'L2', 'L3', 'N'].map((phase) => ({ value: '2', measurand: 'Power.Active.Import', unit: 'kW', phase }))).powerKw).toBe(6)
    expect(readSamples(['L1-N', 'L2-N', 'L1-L2'].map((phase) => ({ value: '1000', measurand: 'Energy.Active.Import.Register', phase }))).energyWh).toBe(2000)
    expect(readSamples([{ value: '1.5', unit: 'kWh' }]).energyWh).toBe(1500)
  })

  it('makes power from per-phase currents (with their voltages, else 230 V) only when no power is sent, and reads the SoC', () => {
    const currents = ['L1', 'L2', 'L3'].map((phase) => ({ value: '10', measurand: 'Current.Import', unit: 'A', phase }))
    expect(readSamples(currents).powerKw).toBeCloseTo(6.9, 12)
    expect(readSamples([...currents, { value: '240', measurand: 'Voltage', unit: 'V', phase: 'L1-N' }]).powerKw).toBeCloseTo(7.0, 12)
    expect(readSamples([...currents, { value: '5000', measurand: 'Power.Active.Import', unit: 'W' }]).powerKw).toBe(5)
    expect(readSamples([{ value: '10', measurand: 'Current.Import', unit: 'A' }]).powerKw).toBeNull()
    expect(readSamples([{ value: '81', measurand: 'SoC', unit: 'Percent', location: 'EV' }]).soc).toBe(81)
    expect(readSamples([{ value: '181', measurand: 'SoC', unit: 'Percent' }]).soc).toBeNull()
    expect(readSamples([{ value: 'abc' }, { value: '' }, { value: '12', format: 'SignedData' }])).toEqual({ energyWh: null, powerKw: null, soc: null })
  })
})
