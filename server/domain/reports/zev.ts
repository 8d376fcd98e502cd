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
 * Allocate every interval's locally used PV, battery discharge and grid import to the units in
 * proportion to their consumption in that interval, and price each part with `price(start, source)`
 * (Rappen/kWh of the rate in force then). Locally used PV = PV − export − battery charge (≥ 0). Each
 * unit receives exactly its consumption, split by the sources' proportions of the interval's supply;
 * with no measured supply it is counted as grid.
 */
export function allocateZev(intervals: readonly ZevInterval[], price: (start: Date, source: ZevSource) => number): Record<string, ZevShare> {
  const out: Record<string, ZevShare> = {}
  for (const iv of intervals) {
    const pvLocal = Math.max(0, iv.pv - iv.gridExport - iv.batteryCharge)
    const supply = pvLocal + iv.batteryDischarge + iv.gridImport
    const parts: Record<ZevSource, number> = supply > 0
      ? { pv: pvLocal / supply, battery: iv.batteryDischarge / supply, grid: iv.gridImport / supply }
      : { pv: 0, battery: 0, grid: 1 }
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
