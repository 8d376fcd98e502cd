/**
 * ZEV billing under the Energy Ordinance (EnV, SR 730.01) Art. 16 (method and the price
 * table in docs/zev-method.md). Pure: the caller supplies the 15-minute intervals, each interval's prices
 * and the model. Energies kWh, prices Rappen per kWh, money Rappen (rounded to the Rappen per row line).
 */
import { allocateZev, type ZevInterval } from '../reports/zev.ts'
import { ZEV_FLAT_MAX_PERCENT, type ZevModel } from '../../../shared/schemas/zev.ts'

/**
 * The prices of one interval (Rappen/kWh), all from the power rate in force (docs/zev-method.md, price
 * table): `purchase` what the ZEV pays for grid energy (main_power_purchase), `standard` the external
 * standard electricity product a participant would pay outside the ZEV (flat, or peak/low by time span),
 * `internal` the internal costs per kWh of own energy (general), `feedIn` the feed-in remuneration
 * (solar_recovery_compensation).
 */
export interface ZevPrices {
  purchase: number
  standard: number
  internal: number
  feedIn: number
}

/** What a unit is: a flat's meter, the building's remainder, or a charging station (billed per session). */
export type ZevUnitKind = 'apartment' | 'building' | 'station'

/** A participant's bill in Rappen, and its energy (kWh). */
export interface ZevBillRow {
  unit: string
  consumption_kwh: number
  pv_kwh: number
  battery_kwh: number
  grid_kwh: number
  /** Grid kWh × purchase price (EnV Art. 16a: external costs by consumption, at cost). */
  grid_rappen: number
  /** Internal kWh (PV + battery) by the model, at most `standard_rappen` × cap. */
  internal_rappen: number
  /** Internal kWh × the external standard product price: the base of the cap. */
  standard_rappen: number
  /** The model's own price exceeded the cap and the cap applied. */
  capped: boolean
  /** grid_rappen + internal_rappen. */
  cost_rappen: number
}

export interface ZevBill {
  rows: Record<string, ZevBillRow>
  /** Feed-in revenue of the period (Rappen): export × feed-in remuneration. */
  feedInRappen: number
  /** % of the standard product internal energy may cost at most: the flat rate's %, or 100 for actual costs. */
  capPercent: number
  /** Σ internal kWh × standard price and Σ internal kWh over all units (for the average cap price). */
  standardRappen: number
  internalKwh: number
}

/**
 * Bill every unit for `intervals` (allocation as {@link allocateZev}) under `model`:
 * - grid energy at the purchase price, both models (Art. 16a para. 2);
 * - `flat_rate`: internal energy at `flatPercent` % (clamped to 0–80, Art. 16 para. 1 let. b) of the
 *   external standard product for the same kWh;
 * - `actual_costs`: internal kWh × internal price, less the period's feed-in revenue shared by internal
 *   kWh (para. 2), at least 0 and at most the standard product for the same kWh (para. 3).
 * A unit's money is rounded to the Rappen per line (grid, internal) and its cost is their sum.
 */
export function billZev(intervals: readonly ZevInterval[], prices: (start: Date) => ZevPrices, model: ZevModel, flatPercent: number): ZevBill {
  const pct = Math.min(ZEV_FLAT_MAX_PERCENT, Math.max(0, flatPercent))
  const byStart = new Map<number, ZevPrices>()
  const priceAt = (d: Date) => {
    let p = byStart.get(d.getTime())
    if (!p) byStart.set(d.getTime(), (p = prices(d)))
    return p
  }
  // One allocation per money stream: each prices the unit's kWh of a source at that interval's price.
  const grid = allocateZev(intervals, (d, s) => (s === 'grid' ? priceAt(d).purchase : 0))
  const standard = allocateZev(intervals, (d, s) => (s === 'grid' ? 0 : priceAt(d).standard))
  const internal = allocateZev(intervals, (d, s) => (s === 'grid' ? 0 : priceAt(d).internal))
  const feedInRappen = intervals.reduce((a, iv) => a + iv.gridExport * priceAt(iv.start).feedIn, 0)
  const internalKwh = Object.values(grid).reduce((a, x) => a + x.pv_kwh + x.battery_kwh, 0)
  const rows: Record<string, ZevBillRow> = {}
  let standardRappen = 0
  for (const [unit, g] of Object.entries(grid)) {
    const own = g.pv_kwh + g.battery_kwh
    const std = standard[unit].cost_rappen
    standardRappen += std
    let internalRappen: number
    let capped = false
    if (model === 'flat_rate') internalRappen = (std * pct) / 100
    else {
      const share = internalKwh > 0 ? (feedInRappen * own) / internalKwh : 0
      const actual = Math.max(0, internal[unit].cost_rappen - share)
      capped = actual > std + 1e-9
      internalRappen = Math.min(actual, std)
    }
    const gridR = Math.round(g.cost_rappen)
    const internalR = Math.round(internalRappen)
    rows[unit] = {
      unit, consumption_kwh: g.consumption_kwh, pv_kwh: g.pv_kwh, battery_kwh: g.battery_kwh, grid_kwh: g.grid_kwh,
      grid_rappen: gridR, internal_rappen: internalR, standard_rappen: Math.round(std), capped, cost_rappen: gridR + internalR,
    }
  }
  return { rows, feedInRappen: Math.round(feedInRappen), capPercent: model === 'flat_rate' ? pct : 100, standardRappen, internalKwh }
}
