import type { z } from 'zod'
import type { MeterType } from '../../db/schema.ts'
import { IngestReading, MEASURAND_UNITS, REGISTER_MEASURANDS, type Measurand } from '../../../shared/schemas/ingest.ts'
import { reason, type Reason } from './reasons.ts'

/** A meter readings may be sent for: live (not archived), of the key's installation. */
export interface IngestMeter {
  id: number
  serial: string | null
  meter_type: MeterType
  max_power_kw: number | null
  /** Where its readings come from (migration 0170): a simulated meter takes only the simulator's. */
  source: string
}

/** A reading that passed the checks of one reading: `value` in the measurand's stored unit (kWh, kW, m3, %, V, A). */
export interface CheckedReading {
  index: number
  meter: IngestMeter
  ts: Date
  measurand: Measurand
  value: number
}

/** How far ahead of the server's clock a timestamp may be (a device clock running a little fast). */
export const MAX_AHEAD_MS = 5 * 60_000
/** Bounds beyond which a figure is absurd whatever the meter (stored units): 10^12 kWh or m3, 1 GW, 1 MV, 100 kA. */
const MAX_REGISTER = 1e12
const MAX_POWER_KW = 1e6
const MAX_VOLTAGE = 1e6
const MAX_CURRENT = 1e5
/** The fastest a water register may rise: 1000 m3/h, far beyond a building's main water meter. */
export const MAX_FLOW_M3_PER_H = 1000

const ELECTRIC: ReadonlySet<string> = new Set(['main_power', 'pv', 'battery', 'power', 'charging_station'])
const WATER: ReadonlySet<string> = new Set(['cold_water', 'hot_water'])

/** Whether a meter of `type` measures `m`: water Volume, heat its heat register (and power), SoC a battery, electricity the rest. */
export function fits(m: Measurand, type: string): boolean {
  if (m === 'Volume') return WATER.has(type)
  if (m === 'Energy.Heat.Register') return type === 'heat'
  if (m === 'SoC') return type === 'battery'
  if (m === 'Power.Active.Import') return ELECTRIC.has(type) || type === 'heat'
  return ELECTRIC.has(type)
}

/** The stored unit of a measurand (what `value` is in after conversion). */
export function storedUnit(m: Measurand): string {
  if (m === 'Volume') return 'm3'
  if (m === 'SoC') return '%'
  if (m === 'Voltage') return 'V'
  if (m === 'Current.Import') return 'A'
  return m.startsWith('Power.') ? 'kW' : 'kWh'
}

/** The first problem of a reading refused by the schema, as "field: what is wrong" ({@link Reason}). */
export function schemaReason(error: z.ZodError): Reason {
  const issue = error.issues[0]
  const field = issue?.path.length ? issue.path.join('.') : 'reading'
  if (issue?.code === 'invalid_type' && issue.input === undefined) return reason('ingestFieldRequired', { field })
  if (field === 'timestamp') return reason('ingestTimestampFormat')
  if (field === 'measurand') return reason('ingestMeasurandUnknown', { list: Object.keys(MEASURAND_UNITS).join(', ') })
  return reason('ingestFieldInvalid', { field })
}

/**
 * Check one reading (what can be judged without the readings stored before it): its shape, its meter
 * (of this installation, live, not a simulated one unless `simulator`), the measurand fitting the meter's type, the unit (converted to the stored
 * one), the value's bounds and the meter's maximum power, and the time window: not more than
 * {@link MAX_AHEAD_MS} ahead of `nowMs`, not before `oldestMs` (the raw retention). Returns the reading
 * in stored units, or the reason it is refused and the meter it concerns (for its data-quality state).
 */
export function checkReading(raw: unknown, index: number, meters: { byId: Map<number, IngestMeter>; bySerial: Map<string, IngestMeter> }, nowMs: number, oldestMs: number, simulator: boolean):
  { ok: CheckedReading } | { reason: Reason; meterId?: number } {
  const parsed = IngestReading.safeParse(raw)
  if (!parsed.success) return { reason: schemaReason(parsed.error) }
  const r = parsed.data
  const meter = r.meter_id !== undefined ? meters.byId.get(r.meter_id) : meters.bySerial.get(r.meter_serial!)
  if (!meter) return { reason: r.meter_id !== undefined ? reason('ingestNoMeterId', { id: r.meter_id }) : reason('ingestNoMeterSerial', { serial: JSON.stringify(r.meter_serial) }) }
  const bad = (key: Reason['key'], params: Reason['params'] = {}) => ({ reason: reason(key, params), meterId: meter.id })
  // A simulated meter fed by a device too would count twice (the simulator picks its own meters).
  if (meter.source === 'simulator' && !simulator) return bad('ingestMeterSimulated', { id: meter.id })
  if (!fits(r.measurand, meter.meter_type)) return bad('ingestMeasurandNotMeasured', { type: meter.meter_type, measurand: r.measurand })
  const factor = MEASURAND_UNITS[r.measurand][r.unit]
  if (factor === undefined) return bad('ingestUnitWrong', { unit: JSON.stringify(r.unit), measurand: r.measurand, units: Object.keys(MEASURAND_UNITS[r.measurand]).join(', ') })
  const ts = new Date(r.timestamp)
  const tsMs = ts.getTime()
  if (!Number.isFinite(tsMs)) return bad('ingestTimestampInvalid')
  if (tsMs > nowMs + MAX_AHEAD_MS) return bad('ingestAhead', { timestamp: r.timestamp, now: new Date(nowMs).toISOString() })
  if (tsMs < oldestMs) return bad('ingestTooOld', { timestamp: r.timestamp, oldest: new Date(oldestMs).toISOString() })
  const value = r.value * factor
  const unit = storedUnit(r.measurand)
  if (!Number.isFinite(value)) return bad('ingestValueNotFinite')
  if (REGISTER_MEASURANDS.has(r.measurand)) {
    if (value < 0 || value > MAX_REGISTER) return bad('ingestRegisterRange', { value, unit, max: MAX_REGISTER })
  } else if (r.measurand.startsWith('Power.')) {
    const max = meter.max_power_kw ?? MAX_POWER_KW
    if (Math.abs(value) > max) return bad('ingestPowerBeyondMax', { value, max })
  } else if (r.measurand === 'SoC') {
    if (value < 0 || value > 100) return bad('ingestSocRange', { value })
  } else if (r.measurand === 'Voltage') {
    if (value < 0 || value > MAX_VOLTAGE) return bad('ingestVoltageRange', { value, max: MAX_VOLTAGE })
  } else if (Math.abs(value) > MAX_CURRENT) {
    return bad('ingestCurrentRange', { value, max: MAX_CURRENT })
  }
  return { ok: { index, meter, ts, measurand: r.measurand, value } }
}

/**
 * The fastest a register may rise (per hour, in its stored unit): the meter's maximum power (kW = kWh/h),
 * else 1 GW; water {@link MAX_FLOW_M3_PER_H}.
 */
export function maxRisePerHour(meter: IngestMeter, m: Measurand): number {
  if (m === 'Volume') return MAX_FLOW_M3_PER_H
  return meter.max_power_kw ?? MAX_POWER_KW
}

/**
 * Where a reading goes in a measurements row (SPEC §3 meter kinds; server/domain/measurements/service.ts
 * Sample): power_kw is signed (+ import / − export, a battery + charge / − discharge), and a PV meter's
 * production is what it exports, so for `pv` Export is energy_in / + power and Import energy_out / − power.
 */
export function columnOf(m: Measurand, meterType: string): { column: 'energy_in_kwh' | 'energy_out_kwh' | 'volume_m3' | 'power_kw' | 'soc'; sign: 1 | -1 } | null {
  const pv = meterType === 'pv'
  switch (m) {
    case 'Energy.Active.Import.Register': return { column: pv ? 'energy_out_kwh' : 'energy_in_kwh', sign: 1 }
    case 'Energy.Active.Export.Register': return { column: pv ? 'energy_in_kwh' : 'energy_out_kwh', sign: 1 }
    case 'Energy.Heat.Register': return { column: 'energy_in_kwh', sign: 1 }
    case 'Volume': return { column: 'volume_m3', sign: 1 }
    case 'Power.Active.Import': return { column: 'power_kw', sign: pv ? -1 : 1 }
    case 'Power.Active.Export': return { column: 'power_kw', sign: pv ? 1 : -1 }
    case 'SoC': return { column: 'soc', sign: 1 }
    default: return null
  }
}
