import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Clock, ClockTimer } from '../../lib/clock.ts'
import type { SessionService } from '../sessions/service.ts'
import type { SessionReviewService } from '../sessions/review.ts'
import type { MeasurementService } from '../measurements/service.ts'
import type { TariffService } from '../tariffs/service.ts'
import { judgeRegister, powerPlausible, type SessionHoldReason } from './plausibility.ts'

export { readSamples, type SampledValue } from './samples.ts'

/** Where a charge point is bound: its station, the station's installation and the connector it charges on. */
export interface ChargePointRef {
  id: string
  installationId: number
  stationId: number
  connectorId: number
}

/** One MeterValues sample waiting for the next meter batch. */
export interface MeterSample {
  /** The transaction the energy register belongs to (null: power only, no transaction open). */
  transactionId: number | null
  energyWh: number | null
  powerKw: number | null
  /** The time stored for it: the charger's, or the server's receive time when its clock was off (`corrected`). */
  at: Date
  /** A current sample (not a late one): its power becomes the station's live power. */
  live: boolean
  /** The charger's timestamp was replaced by the server's (plausibility.ts chargerTime): the session is flagged. */
  corrected?: boolean
  /** The car's state of charge, % (OCPP 1.6 Measurand SoC), stored with the station meter's reading. */
  soc?: number | null
}

/**
 * Meter values of OCPP transactions (OCPP 1.6 §4.7 "Meter Values"): registers become session energy (split
 * into high and low tariff by interpolating between readings), station meter readings and the station's live power — each checked first
 * (plausibility.ts, docs/decisions.md "Charging: plausible charger figures and debit ceilings"): a register
 * that goes down, energy or power beyond the station's capacity is not taken, and holds the session for an
 * admin's review instead. Samples of all charge points are written in batches (docs/decisions.md "OCPP:
 * meter values in batches").
 */
export function createMeterValues({ db, clock, sessions, measurements, tariffs, review, tzOf, meterBatchMs }: {
  db: Db
  clock: Clock
  sessions: SessionService
  measurements: MeasurementService
  tariffs: TariffService
  review: Pick<SessionReviewService, 'hold' | 'flag'>
  tzOf: (installationId: number) => Promise<string>
  meterBatchMs: number
}) {
  // A station's meter never changes: looked up once per station.
  const meterOf = new Map<number, number>()
  async function meterIdOf(stationId: number): Promise<number | undefined> {
    let meterId = meterOf.get(stationId)
    if (meterId === undefined) {
      meterId = (await db.selectFrom('charging_stations').select('meter_id').where('id', '=', stationId).executeTakeFirst())?.meter_id ?? undefined
      if (meterId !== undefined) meterOf.set(stationId, meterId)
    }
    return meterId
  }

  /** The rules' view of a transaction, with its station's capacity. */
  const txQuery = () => db.selectFrom('ocpp_transactions as t').innerJoin('charging_stations as s', 's.id', 't.station_id')
    .select(['t.id', 't.charge_point_id', 't.session_id', 't.last_meter_wh', 't.last_meter_at', 't.meter_start_wh', 't.started_at', 't.stopped_at', 's.capacity_kw'])

  /** Hold or flag sessions for what a batch found (after its writes). */
  async function report(found: { sessionId: number; hold?: SessionHoldReason; corrected?: boolean }[]): Promise<void> {
    for (const f of found) {
      if (f.hold) await review.hold(f.sessionId, f.hold)
      if (f.corrected) await review.flag(f.sessionId, 'clockCorrected')
    }
  }

  type Pending = { cp: ChargePointRef; sample: MeterSample; done: (kwh: number) => void; fail: (err: unknown) => void }
  let pending: Pending[] = []
  let batchTimer: ClockTimer | undefined
  let flushing: Promise<void> | null = null
  const writtenListeners = new Set<(installationIds: Set<number>) => void>()

  async function writeBatch(items: Pending[]): Promise<void> {
    const stationIds = [...new Set(items.map((i) => i.cp.stationId))]
    const capacity = new Map((await db.selectFrom('charging_stations').select(['id', 'capacity_kw']).where('id', 'in', stationIds).execute()).map((r) => [r.id, r.capacity_kw]))
    const txIds = [...new Set(items.flatMap((i) => (i.sample.transactionId !== null ? [i.sample.transactionId] : [])))]
    const rows = txIds.length ? await txQuery().where('t.id', 'in', txIds).execute() : []
    const txs = new Map(rows.map((t) => [t.id, { ...t, wh: t.last_meter_wh, lastAt: t.last_meter_at, at: null as Date | null }]))
    const applied: { item: Pending; tx: { id: number; session_id: number | null }; kwh: number; powerKw: number | null; from: Date }[] = []
    const power = new Map<number, number>()
    const found: { sessionId: number; hold?: SessionHoldReason; corrected?: boolean }[] = []
    for (const item of items) {
      const { transactionId, energyWh, at, live, corrected } = item.sample
      const cap = capacity.get(item.cp.stationId)
      if (cap === undefined) continue
      const t = transactionId === null ? undefined : txs.get(transactionId)
      const mine = t && t.charge_point_id === item.cp.id && !t.stopped_at ? t : undefined
      if (corrected && mine?.session_id) found.push({ sessionId: mine.session_id, corrected })
      // An absurd power is neither the live figure nor a reading: the session is held instead.
      let powerKw = item.sample.powerKw
      if (powerKw !== null && !powerPlausible(cap, powerKw)) {
        powerKw = null
        if (mine?.session_id) found.push({ sessionId: mine.session_id, hold: 'powerImplausible' })
      }
      if (live && powerKw !== null) power.set(item.cp.stationId, Math.max(0, powerKw))
      if (!mine || energyWh === null) continue
      const j = judgeRegister({ startedAt: mine.started_at, meterStartWh: mine.meter_start_wh, lastWh: mine.wh, lastAt: mine.lastAt }, cap, energyWh, at)
      if (j.kind === 'hold' && mine.session_id) found.push({ sessionId: mine.session_id, hold: j.reason })
      if (j.kind !== 'add') continue
      applied.push({ item, tx: mine, kwh: j.kwh, powerKw, from: mine.lastAt })
      mine.wh = energyWh
      mine.at = at
      mine.lastAt = at
    }
    const moved = [...txs.values()].filter((t) => t.at)
    const ok = new Set<number>()
    if (moved.length) {
      // Guarded by the register read above: a transaction another writer moved meanwhile is not touched here.
      const r = await sql<{ id: number }>`UPDATE ocpp_transactions AS t SET last_meter_wh = v.wh, last_meter_at = v.at
        FROM (VALUES ${sql.join(moved.map((t) => sql`(${t.id}::int, ${t.last_meter_wh}::float8, ${t.wh}::float8, ${t.at}::timestamptz)`))}) AS v(id, prev, wh, at)
        WHERE t.id = v.id AND t.last_meter_wh = v.prev AND t.stopped_at IS NULL RETURNING t.id`.execute(db)
      for (const x of r.rows) ok.add(Number(x.id))
    }
    const done = applied.filter((a) => ok.has(a.tx.id))
    const energy: { sessionId: number; highKwh: number; lowKwh: number; at: Date }[] = []
    for (const a of done) {
      if (!a.tx.session_id) continue
      // The energy since the last register, spread over the time since it (docs/decisions.md "Charging: energy split at tariff changes").
      const split = await tariffs.splitKwh(a.item.cp.installationId, a.kwh, a.from, a.item.sample.at, await tzOf(a.item.cp.installationId))
      energy.push({ sessionId: a.tx.session_id, ...split, at: a.item.sample.at })
    }
    await sessions.addEnergyMany(energy, tzOf)
    const unknownMeters = [...new Set(done.map((a) => a.item.cp.stationId))].filter((id) => !meterOf.has(id))
    if (unknownMeters.length) {
      for (const r of await db.selectFrom('charging_stations').select(['id', 'meter_id']).where('id', 'in', unknownMeters).execute()) if (r.meter_id != null) meterOf.set(r.id, r.meter_id)
    }
    await measurements.record(done.flatMap((a) => {
      const meterId = meterOf.get(a.item.cp.stationId)
      return meterId === undefined ? [] : [{ meter_id: meterId, ts: a.item.sample.at, power_kw: a.powerKw ?? 0, energy_in_kwh: a.kwh, soc: a.item.sample.soc ?? null }]
    }))
    if (power.size) {
      const at = clock.now()
      await sql`UPDATE charging_stations AS s SET power_kw = v.p, updated_at = ${at}::timestamptz
        FROM (VALUES ${sql.join([...power].map(([id, kw]) => sql`(${id}::int, ${kw}::float8)`))}) AS v(id, p) WHERE s.id = v.id`.execute(db)
    }
    await report(found)
    const kwhOf = new Map<Pending, number>()
    for (const a of done) kwhOf.set(a.item, (kwhOf.get(a.item) ?? 0) + a.kwh)
    // The few that lost a race go the one-by-one way, which reads the register again.
    for (const a of applied) {
      if (!ok.has(a.tx.id)) kwhOf.set(a.item, (kwhOf.get(a.item) ?? 0) + (await meters.meterReading(a.item.cp, a.tx.id, a.item.sample.energyWh!, a.item.sample.at, a.powerKw)))
    }
    for (const item of items) item.done(kwhOf.get(item) ?? 0)
    const changed = new Set(items.map((i) => i.cp.installationId))
    for (const l of writtenListeners) l(changed)
  }

  function scheduleBatch(): void {
    if (batchTimer || flushing || !pending.length) return
    batchTimer = clock.setTimeout(() => void runBatch(), meterBatchMs)
    batchTimer.unref()
  }

  function runBatch(): Promise<void> {
    clock.clearTimeout(batchTimer)
    batchTimer = undefined
    const items = pending
    pending = []
    flushing = writeBatch(items)
      .catch((err) => { for (const i of items) i.fail(err) })
      .finally(() => {
        flushing = null
        scheduleBatch()
      })
    return flushing
  }

  const meters = {
    /**
     * Energy register `energyWh` at `at` for a transaction, one by one (StopTransaction's meterStop, a batch
     * write that lost a race): judged by the rules (plausibility.ts judgeRegister); the part above the last
     * register goes to its session (high or low tariff by `at`) and to the station's meter. A repeated or
     * older value adds nothing; a register that went down or energy beyond the station's capacity adds
     * nothing and holds the session. The kWh are split into high and low tariff over the time since the last
     * register (TariffService.splitKwh). Returns the kWh added.
     */
    async meterReading(cp: ChargePointRef, transactionId: number, energyWh: number, at: Date, powerKw: number | null): Promise<number> {
      const tx = await txQuery().where('t.id', '=', transactionId).where('t.charge_point_id', '=', cp.id).executeTakeFirst()
      if (!tx || tx.stopped_at) return 0
      const j = judgeRegister({ startedAt: tx.started_at, meterStartWh: tx.meter_start_wh, lastWh: tx.last_meter_wh, lastAt: tx.last_meter_at }, tx.capacity_kw, energyWh, at)
      if (j.kind === 'hold' && tx.session_id) await review.hold(tx.session_id, j.reason)
      if (j.kind !== 'add') return 0
      const moved = await db.updateTable('ocpp_transactions').set({ last_meter_wh: energyWh, last_meter_at: at }).where('id', '=', tx.id).where('last_meter_wh', '=', tx.last_meter_wh).where('stopped_at', 'is', null).executeTakeFirst()
      if (!Number(moved.numUpdatedRows)) return 0
      if (tx.session_id) {
        // The energy since the last register (or the start), spread over the time since it: a session over a
        // tariff change with no meter values is split by time (docs/decisions.md "Charging: energy split at tariff changes").
        const split = await tariffs.splitKwh(cp.installationId, j.kwh, tx.last_meter_at, at, await tzOf(cp.installationId))
        await sessions.addEnergyMany([{ sessionId: tx.session_id, ...split, at }], tzOf)
      }
      const meterId = await meterIdOf(cp.stationId)
      const kw = powerKw !== null && powerPlausible(tx.capacity_kw, powerKw) ? powerKw : 0
      if (meterId !== undefined) await measurements.record([{ meter_id: meterId, ts: at, power_kw: kw, energy_in_kwh: j.kwh }])
      return j.kwh
    },

    /**
     * A MeterValues sample, written with the samples of all charge points that arrive within `meterBatchMs`
     * (docs/decisions.md "OCPP: meter values in batches"): the same effects and rules as {@link meterReading}
     * plus the live power, in a fixed number of statements per batch. Resolves with the kWh added once
     * written, so an answer sent after it still means "stored"; rejects when the batch failed.
     */
    queueSample(cp: ChargePointRef, sample: MeterSample): Promise<number> {
      return new Promise<number>((done, fail) => {
        pending.push({ cp, sample, done, fail })
        scheduleBatch()
      })
    },

    /** Listen for meter batches written (the relay polls the installations' stations then); returns the unsubscribe. */
    onSamplesWritten(listener: (installationIds: Set<number>) => void): () => void {
      writtenListeners.add(listener)
      return () => writtenListeners.delete(listener)
    },

    /** Write the samples waiting and wait for the batch being written (before a stop, and at shutdown). */
    async settleSamples(): Promise<void> {
      while (flushing || pending.length) {
        if (flushing) await flushing
        else await runBatch()
      }
    },
  }
  return meters
}
export type MeterValues = ReturnType<typeof createMeterValues>
