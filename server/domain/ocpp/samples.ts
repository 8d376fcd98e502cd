/** One sampled value of a MeterValues or StopTransaction transactionData entry (OCPP 1.6 §7.43 SampledValue). */
export interface SampledValue {
  value: string
  measurand?: string
  unit?: string
  context?: string
  phase?: string
  location?: string
  format?: string
}

/** Nominal line-to-neutral voltage used when a charger sends currents without voltages, V. */
export const NOMINAL_VOLTS = 230

/** Line-to-neutral phases (OCPP 1.6 Phase): L1, L2, L3 and their -N forms. N (the neutral conductor) and line-to-line values are no phase's share. */
function phaseOf(phase: string | undefined): 'L1' | 'L2' | 'L3' | null {
  const m = /^(L[123])(-N)?$/.exec(phase ?? '')
  return m ? (m[1] as 'L1' | 'L2' | 'L3') : null
}

/** A total (no phase) or the sum of per-phase values; null when neither was sent. */
class Figure {
  total: number | null = null
  phases = new Map<string, number>()
  add(phase: string | undefined, n: number): void {
    if (phase === undefined) this.total = n
    else {
      const p = phaseOf(phase)
      if (p) this.phases.set(p, n)
    }
  }
  value(): number | null {
    if (this.total !== null) return this.total
    return this.phases.size ? [...this.phases.values()].reduce((a, b) => a + b, 0) : null
  }
}

/** What a MeterValue's sampled values say: energy register Wh, active power kW, the car's state of charge %. */
export interface ReadSamples {
  energyWh: number | null
  powerKw: number | null
  soc: number | null
}

/**
 * Read a MeterValue's sampled values (OCPP 1.6 SampledValue with its Measurand, Phase and
 * UnitOfMeasure; a value without measurand is Energy.Active.Import.Register, without unit Wh):
 * - Energy.Active.Import.Register (Wh, kWh) and Power.Active.Import (W, kW): the total when one is sent,
 *   else the sum of the per-phase values (L1, L2, L3 or L1-N…; N and line-to-line values are skipped).
 * - Current.Import per phase (A): used for the power when no Power.Active.Import came, as Σ Uᵢ × Iᵢ with
 *   the phase's Voltage (V) when sent, else {@link NOMINAL_VOLTS} (a power factor of 1).
 * - SoC (Percent, usually location EV): the car's state of charge, kept within 0–100.
 * Values that are no finite number (signed data, garbage) are skipped.
 */
export function readSamples(values: SampledValue[]): ReadSamples {
  const energy = new Figure()
  const power = new Figure()
  const current = new Map<string, number>()
  const volts = new Map<string, number>()
  let soc: number | null = null
  for (const v of values) {
    if (v.format === 'SignedData') continue
    const n = Number(v.value)
    if (v.value === '' || !Number.isFinite(n)) continue
    const measurand = v.measurand ?? 'Energy.Active.Import.Register'
    const p = phaseOf(v.phase)
    if (measurand === 'Energy.Active.Import.Register') energy.add(v.phase, v.unit === 'kWh' ? n * 1000 : n)
    else if (measurand === 'Power.Active.Import') power.add(v.phase, v.unit === 'kW' ? n : n / 1000)
    else if (measurand === 'Current.Import' && p) current.set(p, n)
    else if (measurand === 'Voltage' && p) volts.set(p, v.unit === 'kV' ? n * 1000 : n)
    else if (measurand === 'SoC' && n >= 0 && n <= 100) soc = n
  }
  let powerKw = power.value()
  if (powerKw === null && current.size) {
    powerKw = 0
    for (const [p, amps] of current) powerKw += (amps * (volts.get(p) ?? NOMINAL_VOLTS)) / 1000
  }
  return { energyWh: energy.value(), powerKw, soc }
}
