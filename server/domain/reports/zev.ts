/**
 * ZEV allocation (method in docs/zev-method.md). Pure: the caller supplies the 15-minute
 * intervals and the prices. All energies kWh, prices Rappen per kWh, costs Rappen.
 */

/** One 15-minute interval of the facility. */
export interface ZevInterval {
  start: Date
  /** PV production, battery charge and discharge, grid import and export (kWh, all ≥ 0). */
  pv: number
  batteryCharge: number
  batteryDischarge: number
  gridImport: number
  gridExport: number
  /** Consumption per unit (kWh ≥ 0), keyed by unit id. */
  units: Record<string, number>
}

/** Source of locally used energy. */
export type ZevSource = 'pv' | 'battery' | 'grid'

/** A unit's share over all intervals. */
export interface ZevShare {
  consumption_kwh: number
  pv_kwh: number
  battery_kwh: number
  grid_kwh: number
  cost_rappen: number
}

/**
 * What an interval's sources delivered to the participants (kWh): the export and the battery's charge are
 * fed first by PV, then by the battery's discharge, then by the grid (only the rest reaches consumers), so
 * grid import reaches the participants whole unless the grid itself fed the battery or the export. `total`
 * is their sum: the facility's consumption by its main meters' balance (Gi + PV + Bd − Ge − Bc, ≥ 0).
 */
export function zevSupply(iv: ZevInterval): Record<ZevSource, number> & { total: number } {
  const sinks = iv.gridExport + iv.batteryCharge
  const pv = Math.max(0, iv.pv - sinks)
  const afterPv = Math.max(0, sinks - iv.pv)
  const battery = Math.max(0, iv.batteryDischarge - afterPv)
  const grid = Math.max(0, iv.gridImport - Math.max(0, afterPv - iv.batteryDischarge))
  return { pv, battery, grid, total: pv + battery + grid }
}

/**
 * Allocate every interval's supply ({@link zevSupply}: locally used PV, battery discharge, grid import) to
 * the units in proportion to their consumption in that interval, and price each part with
 * `price(start, source)` (Rappen/kWh of the rate in force then). Each source is shared out whole when
 * the units consumed at least the supply (the caller's building remainder makes them equal), so the
 * allocated grid energy of an interval is the main meter's import (EnV Art. 16a: external energy by
 * consumption). When the units' meters measured more than the supply (data that disagree), each unit
 * receives its share of the supply only, and the rest of its consumption no source (see
 * {@link zevUnbalancedKwh}); energy nothing supplied is never billed as grid.
 */
export function allocateZev(intervals: readonly ZevInterval[], price: (start: Date, source: ZevSource) => number): Record<string, ZevShare> {
  const out: Record<string, ZevShare> = {}
  for (const iv of intervals) {
    const supply = zevSupply(iv)
    const demand = Object.values(iv.units).reduce((a, c) => a + (c > 0 ? c : 0), 0)
    const base = Math.max(demand, supply.total)
    const parts: Record<ZevSource, number> = base > 0
      ? { pv: supply.pv / base, battery: supply.battery / base, grid: supply.grid / base }
      : { pv: 0, battery: 0, grid: 0 }
    const prices: Record<ZevSource, number> = { pv: price(iv.start, 'pv'), battery: price(iv.start, 'battery'), grid: price(iv.start, 'grid') }
    for (const [unit, c] of Object.entries(iv.units)) {
      if (!(c > 0)) continue
      const s = (out[unit] ??= { consumption_kwh: 0, pv_kwh: 0, battery_kwh: 0, grid_kwh: 0, cost_rappen: 0 })
      s.consumption_kwh += c
      s.pv_kwh += c * parts.pv
      s.battery_kwh += c * parts.battery
      s.grid_kwh += c * parts.grid
      s.cost_rappen += c * (parts.pv * prices.pv + parts.battery * prices.battery + parts.grid * prices.grid)
    }
  }
  return out
}

/**
 * kWh of an interval the units' meters measured beyond what its sources supplied ({@link zevSupply}): 0
 * when the data agree; more means a participant's meter (a real charger behind a main meter that does not
 * see it, say) measured energy the main meters never accounted for.
 */
export function zevUnbalancedKwh(iv: ZevInterval): number {
  const demand = Object.values(iv.units).reduce((a, c) => a + (c > 0 ? c : 0), 0)
  return Math.max(0, demand - zevSupply(iv).total)
}
