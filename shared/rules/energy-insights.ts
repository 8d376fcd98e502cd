/**
 * The figures evcc and Home Assistant users expect beside Cockpit's own (docs/decisions.md "Screens:
 * solar share, ratios, comparisons"): a charging session's solar share and price per kWh, an energy
 * period's self-sufficiency and self-consumption, and the change against the previous period. Pure
 * functions, shared by the API (which computes them) and the client (which formats them).
 */

/**
 * The energy of one 15-minute bucket (kWh), as the installation's meters measured it: `station` the
 * session's own station, `stations` all charging stations of the installation (≥ station), `pv` PV
 * production, `gridIn` / `gridOut` grid import and export, `batteryIn` / `batteryOut` battery charge and
 * discharge.
 */
export interface SessionBucket {
  station: number
  stations: number
  pv: number
  gridIn: number
  gridOut: number
  batteryIn: number
  batteryOut: number
}

const pos = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0)

/**
 * The kWh of `b.station` that came from the installation's PV in one bucket. The rule (docs/decisions.md
 * "Screens: solar share, ratios, comparisons"): PV serves the building first; what is left, the PV surplus
 * = PV − the building's own load (consumption without the charging stations and the battery's charge, at
 * least 0), goes to the charging stations: min(PV surplus, all stations' energy), shared among the
 * stations in proportion to their energy. Grid import and battery discharge are never solar. Without PV
 * or without charging it is 0; never more than the station's energy.
 */
export function bucketSolarKwh(b: SessionBucket): number {
  const station = pos(b.station)
  if (station === 0) return 0
  const stations = Math.max(pos(b.stations), station)
  const pv = pos(b.pv)
  // Consumption = import + PV + discharge − export − charge (statistics' `consumption`); the building's own part leaves the stations out.
  const building = pos(pos(b.gridIn) + pv + pos(b.batteryOut) - pos(b.gridOut) - pos(b.batteryIn) - stations)
  const surplus = pos(pv - building)
  const toStations = Math.min(surplus, stations)
  return toStations * (station / stations)
}

/**
 * A session's solar share (0–1) over the buckets it charged in: the solar kWh of each bucket
 * (bucketSolarKwh) over the station's measured kWh. The share applies to the session's kWh, so a
 * bucket the session covers only in part (its first and last quarter hour) counts with what the station
 * drew in it. Null when the buckets hold no measured station energy (nothing to share).
 */
export function solarShare(buckets: SessionBucket[]): number | null {
  let measured = 0
  let solar = 0
  for (const b of buckets) {
    measured += pos(b.station)
    solar += bucketSolarKwh(b)
  }
  if (measured <= 0) return null
  return Math.min(1, solar / measured)
}

/** Average price per kWh (CHF/kWh, 4 decimals) of `priceChf` for `kwh`; null when hidden (null price) or below `minKwh`. */
export function pricePerKwh(priceChf: number | null, kwh: number, minKwh: number): number | null {
  if (priceChf === null || !(kwh >= minKwh) || kwh <= 0) return null
  return Math.round((priceChf / kwh) * 10_000) / 10_000
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x))

/**
 * Self-sufficiency (0–1) as Home Assistant defines it: 1 − grid import / consumption, the part of the
 * consumption not bought from the grid. Null without consumption; 0 when the import exceeds it (a battery
 * charged from the grid).
 */
export function selfSufficiency(gridImportKwh: number, consumptionKwh: number): number | null {
  if (!(consumptionKwh > 0)) return null
  return clamp01(1 - pos(gridImportKwh) / consumptionKwh)
}

/**
 * Self-consumption (0–1) as Home Assistant defines it: 1 − export / PV production, the part of the PV
 * energy used on site. Null without PV production.
 */
export function selfConsumption(gridExportKwh: number, pvKwh: number): number | null {
  if (!(pvKwh > 0)) return null
  return clamp01(1 - pos(gridExportKwh) / pvKwh)
}

/** A ratio (0–1) as percent with 1 decimal, null stays null. */
export const asPercent = (r: number | null) => (r === null ? null : Math.round(r * 1000) / 10)

/** The change of a percentage in points (`now` − `before`, 1 decimal); null when either is null. */
export function pointsChange(now: number | null, before: number | null): number | null {
  if (now === null || before === null) return null
  return Math.round((now - before) * 10) / 10
}

/** The relative change of an energy total in percent (1 decimal); null when the previous figure is 0 (no base). */
export function percentChange(now: number, before: number): number | null {
  if (!(before > 0)) return null
  return Math.round(((now - before) / before) * 1000) / 10
}

/**
 * Remaining charging time (s) of a session with a known target: the kWh still wanted at the current
 * power. Null without a target (nothing known: the screen hides it), when the target is reached (0 kWh
 * left gives 0) or when the car draws no power (no estimate).
 */
export function remainingSeconds(wantedKwh: number | null, chargedKwh: number, powerKw: number): number | null {
  if (wantedKwh === null) return null
  const left = wantedKwh - chargedKwh
  if (left <= 0) return 0
  if (!(powerKw > 0)) return null
  return Math.round((left / powerKw) * 3600)
}
