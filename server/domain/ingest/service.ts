import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Metrics } from '../../lib/metrics.ts'
import { SIMULATOR } from '../../../config/defaults.ts'
import { REGISTER_MEASURANDS, type IngestResult, type IngestVia, type Measurand } from '../../../shared/schemas/ingest.ts'
import { addToBuckets } from '../measurements/service.ts'
import { checkReading, columnOf, maxRisePerHour, storedUnit, type CheckedReading, type IngestMeter } from './check.ts'
import { encodeReason, reason, reasonIn, type Reason } from './reasons.ts'
import type { Lang } from '../../lib/messages.ts'

type Column = 'power_kw' | 'energy_in_kwh' | 'energy_out_kwh' | 'volume_m3' | 'soc'
interface RowChange { meter_id: number; ts: Date; power_kw: number; energy_in_kwh: number; energy_out_kwh: number; volume_m3: number; soc: number | null; power: boolean }
interface Stored { meter_id: number; ts: Date; measurand: string; value: number; delta_value: number | null; flag: string | null; via: string }

const POWER: readonly string[] = ['Power.Active.Import', 'Power.Active.Export']
const keyOf = (meterId: number, m: string, ts: Date) => `${meterId}|${m}|${ts.getTime()}`
const fmt = (x: number) => String(Math.round(x * 1e6) / 1e6)

/**
 * The ingestion service (docs/decisions.md "Ingest: registers become deltas"): readings of an
 * installation's real meters, from the HTTP API, MQTT, the facility gateway or the simulator, checked one
 * by one and stored into the raw measurements and their 15-minute buckets (whose triggers keep the hourly
 * and daily rollups and the statistics revisions up to date, migrations 0060/0166/0167). Each batch's
 * outcome and handling time go to `metrics` (server/lib/metrics.ts) when given.
 */
export function createIngestService({ db, clock, metrics }: { db: Db; clock: Clock; metrics?: Pick<Metrics, 'observeIngest'> }) {
  /** The installation's live meters the readings name, by id and by serial. */
  async function metersOf(installationId: number, readings: unknown[]) {
    const ids = new Set<number>()
    const serials = new Set<string>()
    for (const r of readings) {
      const x = r as { meter_id?: unknown; meter_serial?: unknown } | null
      if (typeof x?.meter_id === 'number' && Number.isInteger(x.meter_id) && x.meter_id > 0 && x.meter_id < 2 ** 31) ids.add(x.meter_id)
      if (typeof x?.meter_serial === 'string' && x.meter_serial.length <= 200) serials.add(x.meter_serial.trim())
    }
    const byId = new Map<number, IngestMeter>()
    const bySerial = new Map<string, IngestMeter>()
    if (!ids.size && !serials.size) return { byId, bySerial }
    const rows = await db.selectFrom('meters').select(['id', 'serial', 'meter_type', 'max_power_kw', 'source'])
      .where('installation_id', '=', installationId).where('archived_at', 'is', null)
      .where((eb) => eb.or([...(ids.size ? [eb('id', 'in', [...ids])] : []), ...(serials.size ? [eb('serial', 'in', [...serials])] : [])]))
      .execute()
    for (const m of rows) {
      byId.set(m.id, m)
      if (m.serial) bySerial.set(m.serial, m)
    }
    return { byId, bySerial }
  }

  return {
    /**
     * Store `readings` of installation `installationId`'s meters (SPEC §3 meter kinds), arrived `via`
     * the HTTP API, MQTT, Modbus or the simulator. Each reading (IngestReading, shared/schemas/ingest.ts)
     * is judged on its own: a meter not of this installation (or archived), a measurand its meter does not
     * measure, a unit not the measurand's, a timestamp more than 5 minutes ahead of the clock or older
     * than the raw retention (48 h), an absurd value, a power beyond the meter's `max_power_kw` is refused
     * with its index and reason. Units are converted (Wh/kWh/MWh, W/kW/MW, l/m3). A reading already
     * stored (same meter, timestamp, measurand; also twice in the batch) is a duplicate and changes
     * nothing. Registers (Energy.*.Register, Volume) become deltas: the rise since the meter's previous
     * register; its first reading sets the baseline; a register that went down (counter reset, swapped
     * meter) or rose faster than the meter's maximum power books nothing, becomes the new baseline and is
     * answered in `rejected`; a late reading between two stored ones splits their rise. Refusals also set
     * the meter's data-quality state (GET …/meters/). One transaction; meters of the batch are locked so
     * concurrent batches of one meter are judged one after the other. Reasons are answered in `lang`
     * (the request's language) and kept keyed, so readers see them in theirs (./reasons.ts).
     */
    async ingest(installationId: number, readings: unknown[], via: IngestVia, lang: Lang = 'en'): Promise<IngestResult> {
      // The batch's handling time for the metrics: a duration, not a time of day (not the clock's).
      const started = performance.now()
      const rejected: IngestResult['rejected'] = []
      let accepted = 0
      let duplicates = 0
      const now = clock.ms()
      const oldest = now - SIMULATOR.rawRetentionHours * 3600_000
      const meters = await metersOf(installationId, readings)
      const findings = new Map<number, string>()
      const checked: CheckedReading[] = []
      readings.forEach((raw, index) => {
        const c = checkReading(raw, index, meters, now, oldest, via === 'simulator')
        if ('ok' in c) return checked.push(c.ok)
        rejected.push({ index, reason: reasonIn(c.reason, lang) })
        if (c.meterId !== undefined) findings.set(c.meterId, encodeReason(c.reason))
      })

      await inTransaction(db, async (tx) => {
        const meterIds = [...new Set(checked.map((c) => c.meter.id))].sort((a, b) => a - b)
        if (meterIds.length) {
          await tx.selectFrom('meters').select('id').where('id', 'in', meterIds).orderBy('id').forNoKeyUpdate().execute()
        }
        // Readings stored before: duplicates.
        const seen = new Set<string>()
        for (let i = 0; i < checked.length; i += 5000) {
          const part = checked.slice(i, i + 5000)
          const r = await sql<{ meter_id: number; measurand: string; ts: Date }>`SELECT r.meter_id, r.measurand, r.ts FROM meter_readings r
            JOIN (VALUES ${sql.join(part.map((c) => sql`(${c.meter.id}::int, ${c.measurand}::text, ${c.ts}::timestamptz)`))}) AS v(m, q, t)
            ON r.meter_id = v.m AND r.measurand = v.q AND r.ts = v.t`.execute(tx)
          for (const x of r.rows) seen.add(keyOf(x.meter_id, x.measurand, new Date(x.ts)))
        }
        const fresh: CheckedReading[] = []
        for (const c of checked) {
          const k = keyOf(c.meter.id, c.measurand, c.ts)
          if (seen.has(k)) duplicates++
          else {
            seen.add(k)
            fresh.push(c)
          }
        }

        // Instants that had a power reading before (the other direction): the bucket has their sample already.
        const hadPower = new Set<string>()
        const freshPower = fresh.filter((c) => POWER.includes(c.measurand))
        for (let i = 0; i < freshPower.length; i += 5000) {
          const r = await sql<{ meter_id: number; ts: Date }>`SELECT DISTINCT r.meter_id, r.ts FROM meter_readings r
            JOIN (VALUES ${sql.join(freshPower.slice(i, i + 5000).map((c) => sql`(${c.meter.id}::int, ${c.ts}::timestamptz)`))}) AS v(m, t) ON r.meter_id = v.m AND r.ts = v.t
            WHERE r.measurand IN (${sql.join(POWER)})`.execute(tx)
          for (const x of r.rows) hadPower.add(`${x.meter_id}|${new Date(x.ts).getTime()}`)
        }

        const stored: Stored[] = []
        const rows = new Map<string, RowChange>()
        const add = (meter: IngestMeter, ts: Date, column: Column, amount: number, power = false) => {
          const k = `${meter.id}|${ts.getTime()}`
          const row = rows.get(k) ?? { meter_id: meter.id, ts, power_kw: 0, energy_in_kwh: 0, energy_out_kwh: 0, volume_m3: 0, soc: null, power: false }
          if (column === 'soc') row.soc = amount
          else row[column] += amount
          row.power ||= power
          rows.set(k, row)
        }
        const flag = (c: CheckedReading, why: Reason) => {
          rejected.push({ index: c.index, reason: reasonIn(why, lang) })
          findings.set(c.meter.id, encodeReason(why))
        }

        // Registers: per meter and measurand in time order against the newest register kept.
        const series = new Map<string, CheckedReading[]>()
        for (const c of fresh) {
          if (!REGISTER_MEASURANDS.has(c.measurand)) continue
          const k = `${c.meter.id}|${c.measurand}`
          series.set(k, [...(series.get(k) ?? []), c])
        }
        const lastOf = new Map<string, { ts: Date; value: number }>()
        if (series.size) {
          const kept = await tx.selectFrom('meter_registers').select(['meter_id', 'measurand', 'ts', 'value']).where('meter_id', 'in', meterIds).execute()
          for (const r of kept) lastOf.set(`${r.meter_id}|${r.measurand}`, { ts: new Date(r.ts), value: r.value })
        }
        const moved = new Map<string, { meter_id: number; measurand: string; ts: Date; value: number }>()
        const late: CheckedReading[] = []
        for (const [k, list] of series) {
          list.sort((a, b) => a.ts.getTime() - b.ts.getTime())
          let last = lastOf.get(k)
          for (const c of list) {
            const col = columnOf(c.measurand, c.meter.meter_type)!
            if (last && c.ts.getTime() < last.ts.getTime()) {
              late.push(c)
              continue
            }
            if (last && c.ts.getTime() === last.ts.getTime()) {
              duplicates++
              continue
            }
            let delta = 0
            let why: Reason | null = null
            if (last) {
              const rise = c.value - last.value
              const hours = (c.ts.getTime() - last.ts.getTime()) / 3600_000
              const unit = storedUnit(c.measurand)
              if (rise < 0) why = reason('ingestRegisterDown', { from: fmt(last.value), to: fmt(c.value), unit })
              else if (rise / hours > maxRisePerHour(c.meter, c.measurand)) why = reason('ingestRegisterTooFast', { rise: fmt(rise), unit, seconds: fmt(hours * 3600), to: fmt(c.value) })
              else delta = rise
            }
            stored.push({ meter_id: c.meter.id, ts: c.ts, measurand: c.measurand, value: c.value, delta_value: delta, flag: why && encodeReason(why), via })
            if (why) flag(c, why)
            else accepted++
            // Also a rise of 0 (or a flagged reading) leaves a row: its quarter hour had a reading, it is no gap
            // (server/domain/measurements/coverage.ts).
            add(c.meter, c.ts, col.column, delta)
            last = { ts: c.ts, value: c.value }
            moved.set(k, { meter_id: c.meter.id, measurand: c.measurand, ...last })
          }
        }
        // Power, state of charge, voltage, current: stored as they are.
        for (const c of fresh) {
          if (REGISTER_MEASURANDS.has(c.measurand)) continue
          stored.push({ meter_id: c.meter.id, ts: c.ts, measurand: c.measurand, value: c.value, delta_value: null, flag: null, via })
          accepted++
          const col = columnOf(c.measurand, c.meter.meter_type)
          if (col) add(c.meter, c.ts, col.column, col.sign * c.value, col.column === 'power_kw')
        }
        for (let i = 0; i < stored.length; i += 5000) await tx.insertInto('meter_readings').values(stored.slice(i, i + 5000)).execute()

        // Late registers, oldest first: each between the stored readings around it.
        late.sort((a, b) => a.ts.getTime() - b.ts.getTime())
        for (const c of late) {
          const around = (op: '<' | '>') => tx.selectFrom('meter_readings').select(['ts', 'value', 'delta_value', 'flag'])
            .where('meter_id', '=', c.meter.id).where('measurand', '=', c.measurand).where('ts', op, c.ts)
            .orderBy('ts', op === '<' ? 'desc' : 'asc').limit(1).executeTakeFirst()
          const before = await around('<')
          const after = await around('>')
          const unit = storedUnit(c.measurand)
          if (before && c.value < before.value) {
            flag(c, reason('ingestLowerThanBefore', { value: fmt(c.value), unit, before: fmt(before.value), at: new Date(before.ts).toISOString() }))
            continue
          }
          if (after && c.value > after.value) {
            flag(c, reason('ingestHigherThanAfter', { value: fmt(c.value), unit, after: fmt(after.value), at: new Date(after.ts).toISOString() }))
            continue
          }
          const col = columnOf(c.measurand, c.meter.meter_type)!
          const delta = before ? c.value - before.value : 0
          await tx.insertInto('meter_readings').values({ meter_id: c.meter.id, ts: c.ts, measurand: c.measurand, value: c.value, delta_value: delta, flag: null, via }).execute()
          add(c.meter, c.ts, col.column, delta)
          // The reading after it now books only its rise since this one (a flagged one keeps booking nothing).
          if (after && !after.flag) {
            const next = after.value - c.value
            await tx.updateTable('meter_readings').set({ delta_value: next })
              .where('meter_id', '=', c.meter.id).where('measurand', '=', c.measurand).where('ts', '=', new Date(after.ts)).execute()
            const change = next - (after.delta_value ?? 0)
            if (change !== 0) add(c.meter, new Date(after.ts), col.column, change)
          }
          accepted++
        }

        await writeMeasurements(tx, [...rows.values()], hadPower)
        if (moved.size) {
          await tx.insertInto('meter_registers').values([...moved.values()])
            .onConflict((oc) => oc.columns(['meter_id', 'measurand']).doUpdateSet({ ts: sql`excluded.ts`, value: sql`excluded.value` })).execute()
        }
        await writeStatus(tx, stored, findings, clock.now())
      })
      rejected.sort((a, b) => a.index - b.index)
      metrics?.observeIngest(via, { accepted, duplicates, rejected: rejected.length }, (performance.now() - started) / 1000)
      return { accepted, duplicates, rejected }
    },

    /** The newest register per measurand of each of `meterIds` (stored units), where one is kept. */
    async registers(meterIds: number[]): Promise<Map<number, Map<string, number>>> {
      const out = new Map<number, Map<string, number>>()
      if (!meterIds.length) return out
      for (const r of await db.selectFrom('meter_registers').select(['meter_id', 'measurand', 'value']).where('meter_id', 'in', meterIds).execute()) {
        out.set(r.meter_id, (out.get(r.meter_id) ?? new Map()).set(r.measurand, r.value))
      }
      return out
    },

    /** Delete stored readings older than `before` (with the raw measurements, SPEC §3 retention). Returns rows deleted. */
    async thin(before: Date): Promise<number> {
      const r = await db.deleteFrom('meter_readings').where('ts', '<', before).executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }

  /**
   * Add `changes` to the raw measurements rows and their 15-minute buckets (additive: a row another
   * measurand of the same instant wrote is completed, not replaced). A bucket counts one power sample per
   * instant that gets its first power reading now.
   */
  async function writeMeasurements(tx: Db, changes: RowChange[], hadPower: Set<string>): Promise<void> {
    if (!changes.length) return
    const rows = changes.map(({ power: _p, ...c }) => c)
    for (let i = 0; i < rows.length; i += 5000) {
      await tx.insertInto('measurements').values(rows.slice(i, i + 5000))
        .onConflict((oc) => oc.columns(['meter_id', 'ts']).doUpdateSet({
          power_kw: sql`measurements.power_kw + excluded.power_kw`,
          energy_in_kwh: sql`measurements.energy_in_kwh + excluded.energy_in_kwh`,
          energy_out_kwh: sql`measurements.energy_out_kwh + excluded.energy_out_kwh`,
          volume_m3: sql`measurements.volume_m3 + excluded.volume_m3`,
          soc: sql`coalesce(excluded.soc, measurements.soc)`,
        })).execute()
    }
    await addToBuckets(tx, changes.map((c) => ({ ...c, sample: c.power && !hadPower.has(`${c.meter_id}|${c.ts.getTime()}`) })))
  }

  /** Each meter's newest reading time and newest data-quality finding (meter_status). */
  async function writeStatus(tx: Db, stored: Stored[], findings: Map<number, string>, at: Date): Promise<void> {
    const newest = new Map<number, Date>()
    for (const s of stored) if (!newest.has(s.meter_id) || newest.get(s.meter_id)! < s.ts) newest.set(s.meter_id, s.ts)
    const ids = new Set([...newest.keys(), ...findings.keys()])
    if (!ids.size) return
    const values = [...ids].sort((a, b) => a - b).map((id) => ({ meter_id: id, last_reading_at: newest.get(id) ?? null, quality_reason: findings.get(id) ?? null, quality_at: findings.has(id) ? at : null }))
    await tx.insertInto('meter_status').values(values).onConflict((oc) => oc.column('meter_id').doUpdateSet({
      last_reading_at: sql`greatest(meter_status.last_reading_at, excluded.last_reading_at)`,
      quality_reason: sql`coalesce(excluded.quality_reason, meter_status.quality_reason)`,
      quality_at: sql`coalesce(excluded.quality_at, meter_status.quality_at)`,
    })).execute()
  }
}
export type IngestService = ReturnType<typeof createIngestService>
export type { Measurand }
