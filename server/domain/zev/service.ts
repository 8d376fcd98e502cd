import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Forbidden, Invalid } from '../../lib/errors.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import { localParts } from '../../../shared/rules/formats.ts'
import { minutesOf, WEEKDAYS } from '../../../shared/rules/tariff.ts'
import { ZEV_FLAT_MAX_PERCENT, ZEV_MODELS, type ZevModel, type ZevRow, type ZevSettings, type ZevSummary } from '../../../shared/schemas/zev.ts'
import { zevUnbalancedKwh, type ZevInterval } from '../reports/zev.ts'
import { billZev, type ZevPrices, type ZevUnitKind } from './billing.ts'

const Q = 15 * 60_000

/** A power rate as stored: prices in Rappen per kWh by RATE_PRICES field. */
interface PowerRate {
  start_date: string | null
  end_date: string | null
  prices: Record<string, number>
  time_spans: { start: string; end: string; repetition: string[] }[]
  flat_enabled: boolean
}

/**
 * The price table of docs/zev-method.md as a function: the prices (Rappen/kWh) of the power rate in force
 * on `start`'s installation-local date (latest start_date ≤ date, end_date empty or ≥ date); all 0 when
 * no rate is in force. The external standard product is the rate's flat price when its flat rate is
 * enabled, else peak inside its time spans (start ≤ local time < end on a listed weekday) and low outside.
 */
export function ratePrices(rates: readonly PowerRate[], tz: string): (start: Date) => ZevPrices {
  const sorted = [...rates].filter((r) => r.start_date != null).sort((a, b) => (a.start_date! < b.start_date! ? 1 : -1))
  return (start) => {
    const at = localParts(start, tz)
    const rate = sorted.find((r) => r.start_date! <= at.date && (!r.end_date || r.end_date >= at.date))
    if (!rate) return { purchase: 0, standard: 0, internal: 0, feedIn: 0 }
    const p = (k: string) => Number(rate.prices[k] ?? 0)
    const day = WEEKDAYS[at.weekday]
    const peak = rate.time_spans.some((s) => s.repetition.includes(day) && at.minute >= minutesOf(s.start) && at.minute < minutesOf(s.end))
    const standard = rate.flat_enabled ? p('flat') : peak ? p('peak') : p('low')
    return { purchase: p('main_power_purchase'), standard, internal: p('general'), feedIn: p('solar_recovery_compensation') }
  }
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000
const chf = (rappen: number) => Math.round(rappen) / 100

/** The ZEV report of a period: participant rows in a stable order and the summary with the total row. */
export interface ZevReport {
  rows: ZevRow[]
  summary: ZevSummary
}

/**
 * The ZEV report of [start, end) for an installation (docs/zev-method.md), from the
 * 15-minute aggregates. Participants: each flat with an electricity meter (`power` meters in an
 * apartment), the building (consumption no participant meter measured: common areas), and the charging
 * stations, whose energy is billed per charging session and so carries no ZEV money. Order: flats by
 * meter id, the building, stations by id. The summary states the model, the cap, the feed-in revenue,
 * the intervals missing data (a 15-minute interval up to `now` without a row of every ZEV meter that has ever
 * reported, charging stations' meters aside: they report while charging), the intervals whose
 * participants' meters measured more than the main meters' balance supplied (`unbalanced_*`) and the
 * total row (kWh and CHF summed over the rows, each row already rounded to the Rappen). `now` is the
 * caller's clock's instant (ARCHITECTURE §1 "Time").
 */
export async function computeZevReport(db: Db, installationId: number, tz: string, start: Date, end: Date, now: Date): Promise<ZevReport> {
  const inst = await db.selectFrom('installations').select(['zev_model', 'zev_flat_percent']).where('id', '=', installationId).executeTakeFirstOrThrow()
  const settings: ZevSettings = { model: inst.zev_model, flat_percent: Number(inst.zev_flat_percent) }
  const meters = await db.selectFrom('meters').leftJoin('objects', 'objects.id', 'meters.object_id')
    .select(['meters.id', 'meters.meter_type', 'meters.name', 'objects.description', 'objects.object_type'])
    .where('meters.installation_id', '=', installationId).where('meters.meter_type', 'in', ['main_power', 'pv', 'battery', 'charging_station', 'power'])
    .orderBy('meters.id').execute()
  const stations = await db.selectFrom('charging_stations').select(['id', 'meter_id', 'name']).where('installation_id', '=', installationId).orderBy('id').execute()
  const unitOf = new Map<number, string>()
  const units: { unit: string; name: string; kind: ZevUnitKind }[] = []
  for (const m of meters) {
    if (m.meter_type !== 'power') continue
    unitOf.set(m.id, `meter_${m.id}`)
    units.push({ unit: `meter_${m.id}`, name: m.description ?? m.name, kind: 'apartment' })
  }
  units.push({ unit: 'building', name: 'building', kind: 'building' })
  for (const s of stations) {
    unitOf.set(s.meter_id, `station_${s.id}`)
    units.push({ unit: `station_${s.id}`, name: s.name, kind: 'station' })
  }
  const from = new Date(Math.floor(start.getTime() / Q) * Q)
  const { rows } = await sql<{ bucket: Date; meter_id: number; meter_type: string; e_in: number; e_out: number }>`
    select a.bucket, a.meter_id, mt.meter_type, a.energy_in_kwh as e_in, a.energy_out_kwh as e_out
    from measurements_15m a join meters mt on mt.id = a.meter_id
    where mt.installation_id = ${installationId} and mt.meter_type in ('main_power', 'pv', 'battery', 'charging_station', 'power')
      and a.bucket >= ${from} and a.bucket < ${end}
    order by a.bucket`.execute(db)
  const intervals = new Map<number, ZevInterval & { meters: Set<number> }>()
  for (const r of rows) {
    const t = new Date(r.bucket).getTime()
    let iv = intervals.get(t)
    if (!iv) intervals.set(t, (iv = { start: new Date(t), pv: 0, batteryCharge: 0, batteryDischarge: 0, gridImport: 0, gridExport: 0, units: {}, meters: new Set() }))
    iv.meters.add(r.meter_id)
    const e_in = Number(r.e_in)
    const e_out = Number(r.e_out)
    if (r.meter_type === 'main_power') (iv.gridImport += e_in), (iv.gridExport += e_out)
    else if (r.meter_type === 'pv') iv.pv += e_in
    else if (r.meter_type === 'battery') (iv.batteryCharge += e_in), (iv.batteryDischarge += e_out)
    else {
      const unit = unitOf.get(r.meter_id)
      if (unit) iv.units[unit] = (iv.units[unit] ?? 0) + e_in
    }
  }
  for (const iv of intervals.values()) {
    const total = Math.max(0, iv.gridImport + iv.pv + iv.batteryDischarge - iv.gridExport - iv.batteryCharge)
    const metered = Object.values(iv.units).reduce((a, x) => a + x, 0)
    iv.units.building = Math.max(0, total - metered)
  }
  const rates = await db.selectFrom('rates').select(['start_date', 'end_date', 'prices', 'time_spans', 'flat_enabled'])
    .where('installation_id', '=', installationId).where('kind', '=', 'power').execute()
  const bill = billZev([...intervals.values()], ratePrices(rates as PowerRate[], tz), settings.model, settings.flat_percent)

  // Missing data: intervals up to now of which some ZEV meter has no row (or none at all). A meter that
  // never reported before the period's end is not installed yet (a station waiting for its OCPP charge
  // point): it is not counted, or every report of such an installation would warn. A charging station's
  // meter reports while it charges (OCPP MeterValues): its silence is no gap, as for the meters' data
  // quality (server/domain/measurements/coverage.ts); an interval without its row counts 0 kWh.
  const until = Math.min(end.getTime(), Math.floor(now.getTime() / Q) * Q)
  const expected = Math.max(0, Math.ceil((until - from.getTime()) / Q))
  const continuous = meters.filter((m) => m.meter_type !== 'charging_station')
  const reporting = continuous.length
    ? (await sql<{ id: number }>`select m.id from meters m where m.id in (${sql.join(continuous.map((m) => m.id))})
        and exists (select 1 from measurements_15m a where a.meter_id = m.id and a.bucket < ${end})`.execute(db)).rows.map((r) => r.id)
    : []
  let complete = 0
  for (const iv of intervals.values()) if (iv.start.getTime() < until && reporting.every((id) => iv.meters.has(id))) complete++
  // Intervals whose participants' meters measured more than the main meters' balance supplied: that
  // energy gets no source (reports/zev.ts allocateZev), so the report says where the data disagree.
  let unbalancedIntervals = 0
  let unbalancedKwh = 0
  for (const iv of intervals.values()) {
    const kwh = zevUnbalancedKwh(iv)
    // Below a watt-hour is the rounding of the stored registers, not a disagreement.
    if (kwh < 0.001) continue
    unbalancedIntervals++
    unbalancedKwh += kwh
  }

  const zero = { consumption_kwh: 0, pv_kwh: 0, battery_kwh: 0, grid_kwh: 0, grid_rappen: 0, internal_rappen: 0, standard_rappen: 0, capped: false, cost_rappen: 0 }
  // Every participant is listed, idle ones with 0, so reports of different periods have the same rows.
  const out: ZevRow[] = units
    .map((u) => {
      const b = { ...zero, ...bill.rows[u.unit] }
      const sessions = u.kind === 'station'
      return {
        unit: u.unit, name: u.name, kind: u.kind, billed_by_sessions: sessions,
        consumption_kwh: round4(b.consumption_kwh), pv_kwh: round4(b.pv_kwh), battery_kwh: round4(b.battery_kwh), grid_kwh: round4(b.grid_kwh),
        grid_chf: sessions ? 0 : chf(b.grid_rappen), internal_chf: sessions ? 0 : chf(b.internal_rappen), standard_chf: chf(b.standard_rappen),
        capped: b.capped, cost_chf: sessions ? 0 : chf(b.cost_rappen),
      }
    })
  const sum = (k: 'consumption_kwh' | 'pv_kwh' | 'battery_kwh' | 'grid_kwh') => round4(out.reduce((a, r) => a + r[k], 0))
  const sumChf = (k: 'grid_chf' | 'internal_chf' | 'standard_chf' | 'cost_chf') => Math.round(out.reduce((a, r) => a + (r[k] ?? 0) * 100, 0)) / 100
  const total: ZevRow = {
    unit: 'total', name: 'total', kind: 'building', billed_by_sessions: false,
    consumption_kwh: sum('consumption_kwh'), pv_kwh: sum('pv_kwh'), battery_kwh: sum('battery_kwh'), grid_kwh: sum('grid_kwh'),
    grid_chf: sumChf('grid_chf'), internal_chf: sumChf('internal_chf'), standard_chf: sumChf('standard_chf'), capped: out.some((r) => r.capped), cost_chf: sumChf('cost_chf'),
  }
  const standardAvg = bill.internalKwh > 0 ? bill.standardRappen / bill.internalKwh / 100 : 0
  return {
    rows: out,
    summary: {
      model: settings.model, flat_percent: settings.flat_percent, cap_percent: bill.capPercent,
      standard_chf_per_kwh: round4(standardAvg), cap_chf_per_kwh: round4((standardAvg * bill.capPercent) / 100),
      feed_in_revenue_chf: chf(bill.feedInRappen), feed_in_deducted: settings.model === 'actual_costs',
      expected_intervals: expected, missing_intervals: Math.max(0, expected - complete),
      unbalanced_intervals: unbalancedIntervals, unbalanced_kwh: round4(unbalancedKwh), total,
    },
  }
}

/**
 * The ZEV model of an installation: every member reads it (reports state it); admins and
 * superusers set it. 400 "zevFlatPercentInvalid" for a flat rate outside 0–80 %.
 */
export function createZevService({ db, installations }: { db: Db; installations: InstallationService }) {
  const read = async (installationId: number): Promise<ZevSettings> => {
    const r = await db.selectFrom('installations').select(['zev_model', 'zev_flat_percent']).where('id', '=', installationId).executeTakeFirstOrThrow()
    return { model: r.zev_model, flat_percent: Number(r.zev_flat_percent) }
  }
  return {
    /** GET /api/zev/settings/?installation={id}. */
    async settings(actor: Actor, installationId: number): Promise<ZevSettings> {
      await installations.requireRole(actor, installationId)
      return read(installationId)
    },
    /** PUT /api/zev/settings/?installation={id} (admins): the model and the flat rate's %. */
    async save(actor: Actor, installationId: number, input: { model: string; flat_percent: number }): Promise<ZevSettings> {
      const role = await installations.requireRole(actor, installationId)
      if (!isAdmin(role)) throw Forbidden()
      const fields: Record<string, ('zevModelInvalid' | 'zevFlatPercentInvalid')[]> = {}
      if (!(ZEV_MODELS as readonly string[]).includes(input.model)) fields.model = ['zevModelInvalid']
      if (!(input.flat_percent >= 0 && input.flat_percent <= ZEV_FLAT_MAX_PERCENT)) fields.flat_percent = ['zevFlatPercentInvalid']
      if (Object.keys(fields).length) throw new Invalid(fields, { max: ZEV_FLAT_MAX_PERCENT })
      await db.updateTable('installations').set({ zev_model: input.model as ZevModel, zev_flat_percent: Math.round(input.flat_percent * 100) / 100 }).where('id', '=', installationId).execute()
      return read(installationId)
    },
  }
}
export type ZevService = ReturnType<typeof createZevService>
