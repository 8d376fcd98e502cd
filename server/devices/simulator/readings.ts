import type { Domain } from '../../domain/index.ts'
import type { Equipment } from '../../domain/devices/service.ts'
import type { IngestReading, Measurand } from '../../../shared/schemas/ingest.ts'
import type { StepResult } from './physics.ts'

type Reading = StepResult['readings'][number]

/**
 * The simulated devices as real ones report: each step's meter readings become what a meter sends to the
 * ingestion API (shared/schemas/ingest.ts), registers that count up and the power of the moment, so the
 * simulator's figures take the path and checks of real meters (docs/decisions.md "Ingest: registers
 * become deltas"). The registers continue from the last one stored (meter_registers) after a restart; a
 * meter without one starts at 0 with a baseline reading at the step's start, so its first step counts.
 */
export function createSimulatedMeters(domain: Domain) {
  const registers = new Map<number, Map<string, number>>()

  return {
    /** The readings to send for one step at `t` of `dtSeconds` (per meter type, SPEC §3 meter kinds). */
    async readingsOf(eq: Pick<Equipment, 'meters' | 'stations'>, readings: Reading[], t: Date, dtSeconds: number): Promise<IngestReading[]> {
      const typeOf = new Map<number, string>([...eq.meters.map((m) => [m.id, m.meter_type] as const), ...eq.stations.map((s) => [s.meter_id, 'charging_station'] as const)])
      const unknown = readings.map((r) => r.meter_id).filter((id) => !registers.has(id))
      if (unknown.length) {
        const stored = await domain.ingest.registers(unknown)
        for (const id of unknown) registers.set(id, stored.get(id) ?? new Map())
      }
      const timestamp = t.toISOString()
      const start = new Date(t.getTime() - dtSeconds * 1000).toISOString()
      const out: IngestReading[] = []
      for (const r of readings) {
        const type = typeOf.get(r.meter_id)
        if (!type) continue
        const regs = registers.get(r.meter_id)!
        const count = (measurand: Measurand, unit: 'kWh' | 'm3', delta: number) => {
          const before = regs.get(measurand)
          if (before === undefined) out.push({ meter_id: r.meter_id, timestamp: start, measurand, unit, value: 0 })
          const value = (before ?? 0) + delta
          regs.set(measurand, value)
          out.push({ meter_id: r.meter_id, timestamp, measurand, unit, value })
        }
        const power = (measurand: Measurand, kw: number) => out.push({ meter_id: r.meter_id, timestamp, measurand, unit: 'kW', value: kw })
        if (type === 'cold_water' || type === 'hot_water') {
          count('Volume', 'm3', r.volume_m3)
        } else if (type === 'heat') {
          count('Energy.Heat.Register', 'kWh', r.energy_in_kwh)
          power('Power.Active.Import', r.power_kw)
        } else if (type === 'pv') {
          // An inverter exports what it produces.
          count('Energy.Active.Export.Register', 'kWh', r.energy_in_kwh)
          power('Power.Active.Export', r.power_kw)
        } else {
          count('Energy.Active.Import.Register', 'kWh', r.energy_in_kwh)
          if (type === 'main_power' || type === 'battery') count('Energy.Active.Export.Register', 'kWh', r.energy_out_kwh)
          // Signed: a negative import is export (main meter) or discharge (battery).
          power('Power.Active.Import', r.power_kw)
          if (type === 'battery' && r.soc !== null) out.push({ meter_id: r.meter_id, timestamp, measurand: 'SoC', unit: '%', value: r.soc })
        }
      }
      return out
    },
  }
}
