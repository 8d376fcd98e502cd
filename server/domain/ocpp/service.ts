import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { SessionService } from '../sessions/service.ts'
import type { StationService } from '../stations/service.ts'
import type { MeasurementService } from '../measurements/service.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { isAdmin, mayReadStation } from '../../../shared/rules/permissions.ts'
import type { OcppBinding } from '../../../shared/schemas/ocpp.ts'
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.ts'
import type { TariffService } from '../tariffs/service.ts'
import { chargingProfile } from './profiles.ts'
import { recordAudit } from '../audit/service.ts'
import { OCPP } from '../../../config/defaults.ts'
import type { Clock, ClockTimer } from '../../lib/clock.ts'

/** Commands an admin sends from the station page. */
export const STATION_COMMANDS = ['RemoteStartTransaction', 'RemoteStopTransaction', 'UnlockConnector'] as const
export type StationCommand = (typeof STATION_COMMANDS)[number]

/**
 * ChangeConfiguration keys that make a charge point ask the central system first (OCPP 1.6 §9.1 core
 * configuration): LocalPreAuthorize false, so even a card in its local list waits for Authorize.conf
 * before charging, and AuthorizeRemoteTxRequests true, so a RemoteStartTransaction is authorized too.
 * Sent when a station enters RFID mode (SPEC §4: RFID mode charges only for an allowed card) and after
 * each boot in RFID mode (a replaced charger starts with its factory settings).
 */
export const AUTHORIZE_FIRST = [{ key: 'LocalPreAuthorize', value: 'false' }, { key: 'AuthorizeRemoteTxRequests', value: 'true' }] as const
/** Leaving RFID mode: a remote start from the station page charges without a card check (OCPP 1.6 §9.1.1). */
export const AUTHORIZE_REMOTE_OFF = [{ key: 'AuthorizeRemoteTxRequests', value: 'false' }] as const

/** A queued or sent command to a charge point (ocpp_commands). */
export interface OcppCommand {
  id: number
  chargePointId: string
  action: string
  payload: Record<string, unknown>
}

/** SPEC §4 status codes the central system sets (shared/rules/status-codes.ts). */
export const OCPP_STATUS_CODE = { ok: 0, evseError: 17, noHeartbeat: 18 } as const

/** Where a charge point is bound: its station, the station's installation and the connector it charges on. */
export interface ChargePointRef {
  id: string
  installationId: number
  stationId: number
  connectorId: number
}

/** OCPP 1.6 AuthorizationStatus of an idTag (OCPP 1.6 §7.2 IdTagInfo). */
export type AuthorizationStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx'

/** One sampled value of a MeterValues or StopTransaction transactionData entry (OCPP 1.6 §7.43). */
export interface SampledValue {
  value: string
  measurand?: string
  unit?: string
  context?: string
  phase?: string
}

/** One MeterValues sample waiting for the next meter batch. */
export interface MeterSample {
  /** The transaction the energy register belongs to (null: power only). */
  transactionId: number | null
  energyWh: number | null
  powerKw: number | null
  at: Date
  /** A current sample (not a late one): its power becomes the station's live power. */
  live: boolean
}

/**
 * OCPP 1.6 ChargePointStatus → the station's SPEC §4 status: Available → noCar, Preparing
 * → carPluggedIn, Charging → charging, SuspendedEV/SuspendedEVSE/Finishing → carPluggedIn (the reason
 * stays in the binding's last_status), Reserved → noCar with the `reserved` alert, Unavailable → off,
 * Faulted → failure with status code 17 and the OCPP error code as an alert.
 */
export function stationStatusOf(status: string, errorCode = 'NoError'): { status: string; status_code: number; alerts: string[] } {
  switch (status) {
    case 'Available':
      return { status: 'noCar', status_code: 0, alerts: [] }
    case 'Preparing':
    case 'SuspendedEV':
    case 'SuspendedEVSE':
    case 'Finishing':
      return { status: 'carPluggedIn', status_code: 0, alerts: [] }
    case 'Charging':
      return { status: 'charging', status_code: 0, alerts: [] }
    case 'Reserved':
      return { status: 'noCar', status_code: 0, alerts: ['reserved'] }
    case 'Unavailable':
      return { status: 'off', status_code: 0, alerts: [] }
    case 'Faulted':
      return { status: 'failure', status_code: OCPP_STATUS_CODE.evseError, alerts: [errorCode] }
    default:
      return { status: 'unknown', status_code: 1, alerts: [] }
  }
}

/** Energy register in Wh and power in kW from sampled values (units Wh/kWh, W/kW; OCPP 1.6 §7.43). */
export function readSamples(values: SampledValue[]): { energyWh: number | null; powerKw: number | null; soc: number | null } {
  let energyWh: number | null = null
  let powerKw: number | null = null
  let soc: number | null = null
  for (const v of values) {
    const n = Number(v.value)
    if (!Number.isFinite(n)) continue
    // Per phase values add up to the total only when no total is sent; a total wins.
    if (v.phase && v.phase !== 'N') continue
    const measurand = v.measurand ?? 'Energy.Active.Import.Register'
    if (measurand === 'Energy.Active.Import.Register') energyWh = v.unit === 'kWh' ? n * 1000 : n
    else if (measurand === 'Power.Active.Import') powerKw = v.unit === 'kW' ? n : n / 1000
    else if (measurand === 'SoC') soc = n
  }
  return { energyWh, powerKw, soc }
}

/**
 * The OCPP 1.6J central system's domain side: admins bind a station (and connector) to a
 * charge point id with a password shown once; the device side (server/devices/ocpp) checks charge point
 * credentials and turns their messages into station states, RFID decisions, sessions with energy and
 * prices, and meter readings, through the same tables the simulator writes.
 */
export function createOcppService({ db, clock, installations, sessions, stations, measurements, tariffs, meterBatchMs = OCPP.meterBatchMs }: {
  db: Db
  /** The process clock (ARCHITECTURE §1 "Time"): "now" of journal entries, profiles and commands, and the batch timer. */
  clock: Clock
  /** Window in which meter samples of all charge points are gathered into one batch of writes, ms. */
  meterBatchMs?: number
  installations: InstallationService
  sessions: SessionService
  stations: StationService
  measurements: MeasurementService
  tariffs: TariffService
}) {
  // The device side listens, so a command reaches a charge point connected to this process at once.
  const listeners = new Set<(chargePointId: string) => void>()

  async function journal(stationId: number, detail: string, at = clock.now()): Promise<void> {
    const s = await db.selectFrom('charging_stations').select(['installation_id', 'charging_mode']).where('id', '=', stationId).executeTakeFirst()
    if (!s) return
    await db.insertInto('journal_events').values({ installation_id: s.installation_id, station_id: stationId, rfid_id: null, kind: 'journal_entry', charging_mode: s.charging_mode, at, detail }).execute()
  }

  /** Queue `action` for charge point `cp` (sent in order when it is connected) and journal it. */
  async function enqueue(cp: { id: string; stationId: number }, action: string, payload: Record<string, unknown>): Promise<number> {
    const row = await db.insertInto('ocpp_commands').values({ charge_point_id: cp.id, action, payload: JSON.stringify(payload), sent_at: null, answered_at: null, created_at: clock.now() }).returning('id').executeTakeFirstOrThrow()
    await journal(cp.stationId, `ocpp:${action}:queued`)
    for (const l of listeners) l(cp.id)
    return row.id
  }

  /** The PV surplus the station could use now, kW: what the grid takes back plus what the station draws. */
  async function surplusKw(installationId: number, stationPowerKw: number): Promise<number> {
    const main = await db.selectFrom('meters').select('id').where('installation_id', '=', installationId).where('meter_type', '=', 'main_power').executeTakeFirst()
    if (!main) return 0
    const last = await db.selectFrom('measurements').select('power_kw').where('meter_id', '=', main.id).orderBy('ts', 'desc').limit(1).executeTakeFirst()
    return Math.max(0, stationPowerKw - (last?.power_kw ?? 0))
  }

  /** The SetChargingProfile (and ChangeAvailability) commands for a bound station's mode now. */
  async function profileCommands(stationId: number, now = clock.now()) {
    const r = await db.selectFrom('ocpp_charge_points as c').innerJoin('charging_stations as s', 's.id', 'c.station_id')
      .select(['c.id', 'c.connector_id', 's.installation_id', 's.capacity_kw', 's.charging_mode', 's.power_kw']).where('c.station_id', '=', stationId).executeTakeFirst()
    if (!r) return null
    const tz = await tzOf(r.installation_id)
    const tariff = await tariffs.inForce(r.installation_id, now, tz)
    const timers = r.charging_mode === 'timer'
      ? (await db.selectFrom('timers').selectAll().where('object_type', '=', 'charging_station').where('object_id', '=', stationId).execute()).map((t) => ({
        days: [t.repeat_monday, t.repeat_tuesday, t.repeat_wednesday, t.repeat_thursday, t.repeat_friday, t.repeat_saturday, t.repeat_sunday], start_time: t.start_time, charging_mode: t.charging_mode,
      }))
      : []
    const profile = chargingProfile({
      connectorId: r.connector_id, capacityKw: r.capacity_kw, mode: r.charging_mode, tz, now, timers,
      highSchedule: tariff && tariff.flat == null ? tariff.schedule : null,
      surplusKw: r.charging_mode === 'solar' ? await surplusKw(r.installation_id, r.power_kw) : 0,
    })
    return { cp: { id: r.id, stationId }, mode: r.charging_mode, profile }
  }

  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }

  async function stationIn(installationId: number, stationId: number) {
    const s = await db.selectFrom('charging_stations').select(['id', 'installation_id']).where('id', '=', stationId).where('installation_id', '=', installationId).where('archived_at', 'is', null).executeTakeFirst()
    if (!s) throw NotFound()
    return s
  }

  function toBinding(r: { station_id: number; id: string; connector_id: number; vendor: string | null; model: string | null; firmware: string | null; last_status: string | null; last_boot_at: Date | null; last_message_at: Date | null; connected: boolean; messages_in: number; messages_out: number }): OcppBinding {
    return {
      station_id: r.station_id, charge_point_id: r.id, connector_id: r.connector_id, vendor: r.vendor, model: r.model, firmware: r.firmware,
      last_status: r.last_status, last_boot_at: r.last_boot_at?.toISOString() ?? null, last_message_at: r.last_message_at?.toISOString() ?? null,
      connected: r.connected, messages_in: Number(r.messages_in), messages_out: Number(r.messages_out),
    }
  }

  const tzCache = new Map<number, string>()
  // A station's meter never changes: looked up once per station.
  const meterOf = new Map<number, number>()
  async function tzOf(installationId: number): Promise<string> {
    let tz = tzCache.get(installationId)
    if (!tz) tzCache.set(installationId, (tz = (await installations.describe(installationId)).timezone))
    return tz
  }

  async function patchStation(stationId: number, set: Record<string, unknown>): Promise<void> {
    if ('alerts' in set) set.alerts = JSON.stringify(set.alerts)
    await db.updateTable('charging_stations').set({ ...set, updated_at: clock.now() }).where('id', '=', stationId).execute()
  }

  // Meter samples of all charge points, written together (500 charge points on one database connection,
  // docs/decisions.md "OCPP: meter values in batches"): a fixed handful of statements per window instead of
  // about 7 per MeterValues.
  type Pending = { cp: ChargePointRef; sample: MeterSample; done: (kwh: number) => void; fail: (err: unknown) => void }
  let pending: Pending[] = []
  let batchTimer: ClockTimer | undefined
  let flushing: Promise<void> | null = null

  async function writeBatch(items: Pending[]): Promise<void> {
    const txIds = [...new Set(items.flatMap((i) => (i.sample.transactionId !== null && i.sample.energyWh !== null ? [i.sample.transactionId] : [])))]
    const rows = txIds.length ? await db.selectFrom('ocpp_transactions').select(['id', 'charge_point_id', 'session_id', 'last_meter_wh', 'stopped_at']).where('id', 'in', txIds).execute() : []
    const txs = new Map(rows.map((t) => [t.id, { ...t, wh: t.last_meter_wh, at: null as Date | null }]))
    const applied: { item: Pending; tx: { id: number; session_id: number | null }; kwh: number }[] = []
    const power = new Map<number, number>()
    for (const item of items) {
      const { transactionId, energyWh, powerKw, at, live } = item.sample
      if (live && powerKw !== null) power.set(item.cp.stationId, Math.max(0, powerKw))
      if (transactionId === null || energyWh === null) continue
      const t = txs.get(transactionId)
      // As meterReading: a register not above the last one (repeated, out of order) adds nothing.
      if (!t || t.charge_point_id !== item.cp.id || t.stopped_at || energyWh <= t.wh) continue
      applied.push({ item, tx: t, kwh: (energyWh - t.wh) / 1000 })
      t.wh = energyWh
      t.at = at
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
    const energy: { sessionId: number; highKwh: number; lowKwh: number }[] = []
    for (const a of done) {
      if (!a.tx.session_id) continue
      const high = await tariffs.isHigh(a.item.cp.installationId, a.item.sample.at, await tzOf(a.item.cp.installationId))
      energy.push({ sessionId: a.tx.session_id, highKwh: high ? a.kwh : 0, lowKwh: high ? 0 : a.kwh })
    }
    await sessions.addEnergyMany(energy, tzOf)
    const unknownMeters = [...new Set(done.map((a) => a.item.cp.stationId))].filter((id) => !meterOf.has(id))
    if (unknownMeters.length) {
      for (const r of await db.selectFrom('charging_stations').select(['id', 'meter_id']).where('id', 'in', unknownMeters).execute()) if (r.meter_id != null) meterOf.set(r.id, r.meter_id)
    }
    await measurements.record(done.flatMap((a) => {
      const meterId = meterOf.get(a.item.cp.stationId)
      return meterId === undefined ? [] : [{ meter_id: meterId, ts: a.item.sample.at, power_kw: a.item.sample.powerKw ?? 0, energy_in_kwh: a.kwh }]
    }))
    if (power.size) {
      const at = clock.now()
      await sql`UPDATE charging_stations AS s SET power_kw = v.p, updated_at = ${at}::timestamptz
        FROM (VALUES ${sql.join([...power].map(([id, kw]) => sql`(${id}::int, ${kw}::float8)`))}) AS v(id, p) WHERE s.id = v.id`.execute(db)
    }
    const kwhOf = new Map<Pending, number>()
    for (const a of done) kwhOf.set(a.item, (kwhOf.get(a.item) ?? 0) + a.kwh)
    // The few that lost a race go the one-by-one way, which reads the register again.
    for (const a of applied) {
      if (!ok.has(a.tx.id)) kwhOf.set(a.item, (kwhOf.get(a.item) ?? 0) + (await service.meterReading(a.item.cp, a.tx.id, a.item.sample.energyWh!, a.item.sample.at, a.item.sample.powerKw)))
    }
    for (const item of items) item.done(kwhOf.get(item) ?? 0)
    const changed = new Set(items.map((i) => i.cp.installationId))
    for (const l of writtenListeners) l(changed)
  }
  const writtenListeners = new Set<(installationIds: Set<number>) => void>()

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

  const service = {
    /**
     * GET …/charging_stations/{id}/ocpp: the binding for whoever may read the station (the charge point id
     * and its state are no secret; the password is never shown again); 404 unreadable, 404 ocppNotBound.
     */
    async binding(actor: Actor, installationId: number, stationId: number): Promise<OcppBinding> {
      const access = await installations.access(actor, installationId)
      await stationIn(installationId, stationId)
      if (!mayReadStation(access, stationId)) throw NotFound()
      const r = await db.selectFrom('ocpp_charge_points').selectAll().where('station_id', '=', stationId).executeTakeFirst()
      if (!r) throw new AppError(404, 'ocppNotBound')
      return toBinding(r)
    },

    /**
     * PUT …/charging_stations/{id}/ocpp (admins): bind the station to `charge_point_id` (replacing an
     * earlier binding of this station) with `password` or a generated one (24 random bytes, base64url),
     * returned this once and stored as argon2id. 400 `charge_point_id: ocppIdTaken` when another station
     * has the id; 403 for non-admins, 404 unknown station. Recorded in the audit trail (without the password).
     */
    async bind(actor: Actor, installationId: number, stationId: number, input: { charge_point_id: string; connector_id: number; password?: string }): Promise<OcppBinding & { password: string }> {
      await requireAdmin(actor, installationId)
      await stationIn(installationId, stationId)
      if (await service.idTaken(input.charge_point_id, stationId)) throw new Invalid({ charge_point_id: ['ocppIdTaken'] })
      const { password, password_hash } = await service.newCredentials(input.password)
      await db.transaction().execute(async (tx) => {
        await service.writeBinding(tx, { id: input.charge_point_id, installationId, stationId, connectorId: input.connector_id, password_hash })
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'bind', entity_type: 'ocpp_credentials', entity_id: input.charge_point_id, after: { charge_point_id: input.charge_point_id, station_id: stationId, connector_id: input.connector_id } })
      })
      const r = await db.selectFrom('ocpp_charge_points').selectAll().where('station_id', '=', stationId).executeTakeFirstOrThrow()
      return { ...toBinding(r), password }
    },

    /**
     * Whether charge point id `id` is bound to a station other than `exceptStationId`, in any installation
     * (ids compare without case: a charge point's identity is CiString, OCPP 1.6 §3.1). Read on `on`, the
     * caller's transaction when it binds in one.
     */
    async idTaken(id: string, exceptStationId?: number, on: Db = db): Promise<boolean> {
      const taken = await on.selectFrom('ocpp_charge_points').select('station_id').where(sql<boolean>`lower(id) = lower(${id})`).executeTakeFirst()
      return !!taken && taken.station_id !== exceptStationId
    },

    /** `password` or a generated one (24 random bytes, base64url) with its argon2id hash; only the hash is stored. */
    async newCredentials(password?: string): Promise<{ password: string; password_hash: string }> {
      const pw = password ?? crypto.randomBytes(24).toString('base64url')
      return { password: pw, password_hash: await hashPassword(pw) }
    },

    /**
     * In the caller's transaction `tx`: bind `stationId` to charge point `id` (replacing an earlier binding
     * of the station); the station waits offline until the charge point is heard from (SPEC §4 "no OCPP
     * heartbeat"). A unique violation means another station took the id meanwhile.
     */
    async writeBinding(tx: Db, b: { id: string; installationId: number; stationId: number; connectorId: number; password_hash: string }): Promise<void> {
      await tx.deleteFrom('ocpp_charge_points').where('station_id', '=', b.stationId).execute()
      await tx.insertInto('ocpp_charge_points').values({ id: b.id, installation_id: b.installationId, station_id: b.stationId, connector_id: b.connectorId, password_hash: b.password_hash, vendor: null, model: null, firmware: null, serial: null, last_status: null, last_boot_at: null, last_message_at: null, created_at: clock.now() }).execute()
      await tx.updateTable('charging_stations').set({ status: 'unknown', status_code: OCPP_STATUS_CODE.noHeartbeat, alerts: JSON.stringify(['offline']), power_kw: 0, updated_at: clock.now() }).where('id', '=', b.stationId).execute()
    },

    /** In `tx`: a new password hash for the charge point bound to `stationId`; its id, or null when none is bound. */
    async writePassword(tx: Db, stationId: number, password_hash: string): Promise<string | null> {
      const r = await tx.updateTable('ocpp_charge_points').set({ password_hash }).where('station_id', '=', stationId).returning('id').executeTakeFirst()
      return r?.id ?? null
    },

    /** DELETE …/charging_stations/{id}/ocpp (admins): unbind; the simulator runs the station again. 404 when not bound. */
    async unbind(actor: Actor, installationId: number, stationId: number): Promise<void> {
      await requireAdmin(actor, installationId)
      await stationIn(installationId, stationId)
      await db.transaction().execute(async (tx) => {
        const r = await tx.deleteFrom('ocpp_charge_points').where('station_id', '=', stationId).returning(['id', 'connector_id']).executeTakeFirst()
        if (!r) throw new AppError(404, 'ocppNotBound')
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'unbind', entity_type: 'ocpp_credentials', entity_id: r.id, before: { charge_point_id: r.id, station_id: stationId, connector_id: r.connector_id } })
      })
    },

    /** Those of `stationIds` whose charging mode is `mode` (one query). */
    async stationsInMode(stationIds: number[], mode: string): Promise<Set<number>> {
      if (!stationIds.length) return new Set()
      return new Set((await db.selectFrom('charging_stations').select('id').where('id', 'in', stationIds).where('charging_mode', '=', mode).execute()).map((r) => r.id))
    },

    /**
     * SIM_OCPP: bind `stationId` to the simulator's own charge point `id` with `password`
     * (replacing an earlier simulated binding of the station). A station bound to a real charge point is
     * left alone: false.
     */
    async bindSimulated(stationId: number, id: string, password: string): Promise<boolean> {
      const s = await db.selectFrom('charging_stations').select(['id', 'installation_id']).where('id', '=', stationId).executeTakeFirstOrThrow()
      const real = await db.selectFrom('ocpp_charge_points').select('id').where('station_id', '=', stationId).where('simulated', '=', false).executeTakeFirst()
      if (real) return false
      const password_hash = await hashPassword(password)
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('ocpp_charge_points').where((eb) => eb.or([eb('station_id', '=', stationId), eb('id', '=', id)])).execute()
        await tx.insertInto('ocpp_charge_points').values({ id, installation_id: s.installation_id, station_id: stationId, connector_id: 1, password_hash, vendor: null, model: null, firmware: null, serial: null, last_status: null, last_boot_at: null, last_message_at: null, simulated: true, created_at: clock.now() }).execute()
      })
      return true
    },

    /** The simulator runs without SIM_OCPP: its charge points' bindings go (their stations are simulated directly again). */
    async unbindSimulated(): Promise<void> {
      await db.deleteFrom('ocpp_charge_points').where('simulated', '=', true).execute()
    },

    /** The session a transaction opened (null: refused, or unknown). */
    async sessionOfTransaction(transactionId: number): Promise<number | null> {
      return (await db.selectFrom('ocpp_transactions').select('session_id').where('id', '=', transactionId).executeTakeFirst())?.session_id ?? null
    },

    /** A charge point's open transaction and its last register, Wh (a simulated charge point ends it after a restart). */
    async openTransactionOf(chargePointId: string): Promise<{ id: number; lastMeterWh: number; sessionId: number | null } | null> {
      const r = await db.selectFrom('ocpp_transactions').select(['id', 'last_meter_wh', 'session_id']).where('charge_point_id', '=', chargePointId).where('stopped_at', 'is', null).orderBy('id', 'desc').executeTakeFirst()
      return r ? { id: r.id, lastMeterWh: r.last_meter_wh, sessionId: r.session_id } : null
    },

    /** Station ids bound to charge points (the simulator leaves them alone). */
    async boundStationIds(): Promise<Set<number>> {
      return new Set((await db.selectFrom('ocpp_charge_points').select('station_id').execute()).map((r) => r.station_id))
    },

    /**
     * Device side, at the WebSocket upgrade: the charge point `id` if `password` is its HTTP Basic
     * password, else null. An unknown id is checked against a dummy hash, so both refusals take as long.
     */
    async authenticate(id: string, password: string | null): Promise<ChargePointRef | null> {
      const r = await db.selectFrom('ocpp_charge_points').select(['id', 'installation_id', 'station_id', 'connector_id', 'password_hash']).where('id', '=', id).executeTakeFirst()
      const ok = await verifyPassword(r?.password_hash ?? (await dummyHash()), password ?? '')
      if (!r || !ok || password === null) return null
      return { id: r.id, installationId: r.installation_id, stationId: r.station_id, connectorId: r.connector_id }
    },

    /** Device side: the charge point's binding now (null when it was unbound meanwhile). */
    async ref(id: string): Promise<ChargePointRef | null> {
      const r = await db.selectFrom('ocpp_charge_points').select(['id', 'installation_id', 'station_id', 'connector_id']).where('id', '=', id).executeTakeFirst()
      return r ? { id: r.id, installationId: r.installation_id, stationId: r.station_id, connectorId: r.connector_id } : null
    },

    /** BootNotification: keep vendor, model, firmware and serial. */
    async boot(cp: ChargePointRef, info: { vendor: string; model: string; firmware?: string; serial?: string }, at: Date): Promise<void> {
      await db.updateTable('ocpp_charge_points').set({ vendor: info.vendor, model: info.model, firmware: info.firmware ?? null, serial: info.serial ?? null, last_boot_at: at }).where('id', '=', cp.id).execute()
    },

    /**
     * Connection state and what was heard since the last flush: last message time and message counts;
     * batched by the device side so 500 charge points do not write on every frame.
     */
    async flushActivity(rows: { id: string; connected: boolean; lastMessageAt: Date | null; in: number; out: number }[]): Promise<void> {
      // One statement per 1000 charge points (greatest() skips a null: no message, the stored time stays).
      for (let i = 0; i < rows.length; i += 1000) {
        const values = rows.slice(i, i + 1000).map((r) => sql`(${r.id}::text, ${r.connected}::boolean, ${r.in}::int, ${r.out}::int, ${r.lastMessageAt}::timestamptz)`)
        await sql`UPDATE ocpp_charge_points AS c SET connected = v.connected, messages_in = c.messages_in + v.n_in, messages_out = c.messages_out + v.n_out,
          last_message_at = greatest(c.last_message_at, v.at) FROM (VALUES ${sql.join(values)}) AS v(id, connected, n_in, n_out, at) WHERE c.id = v.id`.execute(db)
      }
    },

    /** Mark every charge point disconnected (this process starts or stops serving them). */
    async disconnectAll(ids?: string[]): Promise<void> {
      let q = db.updateTable('ocpp_charge_points').set({ connected: false })
      if (ids) {
        if (!ids.length) return
        q = q.where('id', 'in', ids)
      }
      await q.execute()
    },

    /**
     * Heartbeat watch: stations whose charge point was last heard from before `before`
     * (or never) get status unknown, status code 18 (NO_OCPP_HEARTBEAT), the `offline` alert and no power.
     * `heard` overrides the stored time for charge points this process heard from since its last flush.
     * Returns the charge point ids newly marked.
     */
    async markSilent(before: Date, heard: Map<string, Date>): Promise<string[]> {
      const rows = await db.selectFrom('ocpp_charge_points as c').innerJoin('charging_stations as s', 's.id', 'c.station_id')
        .select(['c.id', 'c.station_id', 'c.last_message_at', 'c.created_at']).where('s.status_code', '!=', OCPP_STATUS_CODE.noHeartbeat).execute()
      const silent = rows.filter((r) => (heard.get(r.id) ?? r.last_message_at ?? r.created_at) < before)
      for (const r of silent) await patchStation(r.station_id, { status: 'unknown', status_code: OCPP_STATUS_CODE.noHeartbeat, alerts: ['offline'], power_kw: 0 })
      return silent.map((r) => r.id)
    },

    /** The charge point was heard from again after being marked silent: status code and offline alert cleared. */
    async heardAgain(cp: ChargePointRef): Promise<void> {
      await db.updateTable('charging_stations').set({ status_code: OCPP_STATUS_CODE.ok, alerts: sql`alerts - 'offline'`, updated_at: clock.now() })
        .where('id', '=', cp.stationId).where('status_code', '=', OCPP_STATUS_CODE.noHeartbeat).execute()
    },

    /** StatusNotification of the bound connector (or connector 0 when Faulted/Unavailable): the station status. */
    async status(cp: ChargePointRef, connectorId: number, status: string, errorCode: string): Promise<void> {
      // Connector 0 is the charge point itself: only its faults and unavailability concern the station.
      if (connectorId !== cp.connectorId && !(connectorId === 0 && ['Faulted', 'Unavailable'].includes(status))) return
      const mapped = stationStatusOf(status, errorCode)
      await db.updateTable('ocpp_charge_points').set({ last_status: status }).where('id', '=', cp.id).execute()
      await patchStation(cp.stationId, { ...mapped, ...(status === 'Charging' ? {} : { power_kw: 0 }) })
    },

    /**
     * Authorize an idTag at the charge point's station (SPEC §4): Accepted for an active card
     * of the installation, allowed at this station, ready (a learned card about 3 minutes after it was
     * registered); Blocked for a deleted (inactive) card; Invalid otherwise. An unknown tag at a station
     * in learning mode becomes its pending new RFID (and is Invalid until registered).
     */
    async authorize(cp: ChargePointRef, idTag: string, at: Date): Promise<{ status: AuthorizationStatus; rfid: { id: number; user_id: number | null } | null }> {
      const cards = await db.selectFrom('rfids').select(['id', 'user_id', 'active', 'all_stations', 'ready_at']).where('installation_id', '=', cp.installationId).where('tag', '=', idTag).orderBy('active', 'desc').orderBy('id', 'desc').execute()
      const card = cards[0]
      if (!card) {
        await stations.reportLearnedTag(cp.stationId, idTag, at)
        return { status: 'Invalid', rfid: null }
      }
      if (!card.active) return { status: 'Blocked', rfid: null }
      if (card.ready_at && card.ready_at > at) return { status: 'Invalid', rfid: null }
      if (!card.all_stations) {
        const link = await db.selectFrom('rfid_stations').select('rfid_id').where('rfid_id', '=', card.id).where('station_id', '=', cp.stationId).executeTakeFirst()
        if (!link) return { status: 'Invalid', rfid: null }
      }
      return { status: 'Accepted', rfid: { id: card.id, user_id: card.user_id } }
    },

    /**
     * StartTransaction: numbers the transaction (a repeated message with the same connector
     * and timestamp gets the same id) and opens a session at `timestamp` when the tag is accepted (or is
     * no card at all and the station is not in RFID mode: an anonymous session), or when
     * the transaction is late (started before `lateBefore`: it ran on the charger's own authorization while
     * offline, and the energy was delivered, so it is billed; with the card when the tag is one).
     */
    async startTransaction(cp: ChargePointRef, input: { connectorId: number; idTag: string; meterStartWh: number; timestamp: Date }, lateBefore: Date): Promise<{ transactionId: number; status: AuthorizationStatus }> {
      const auth = await service.authorize(cp, input.idTag, input.timestamp)
      const known = await db.selectFrom('ocpp_transactions').select('id').where('charge_point_id', '=', cp.id).where('connector_id', '=', input.connectorId).where('started_at', '=', input.timestamp).executeTakeFirst()
      if (known) return { transactionId: known.id, status: auth.status }
      const late = input.timestamp < lateBefore
      // SPEC §4: only RFID mode needs a card. Elsewhere a charger set to charge freely starts with a tag
      // that is no card of the installation: an anonymous session, accepted. A known card that is refused
      // (deleted, not allowed here, not ready) stays refused.
      let free = false
      if (auth.status !== 'Accepted') {
        const mode = (await db.selectFrom('charging_stations').select('charging_mode').where('id', '=', cp.stationId).executeTakeFirst())?.charging_mode
        const onFile = await db.selectFrom('rfids').select('id').where('installation_id', '=', cp.installationId).where('tag', '=', input.idTag).executeTakeFirst()
        free = mode !== undefined && mode !== 'rfid' && !onFile
      }
      const status: AuthorizationStatus = free ? 'Accepted' : auth.status
      let sessionId: number | null = null
      if (input.connectorId === cp.connectorId && (status === 'Accepted' || late)) {
        let rfid = auth.rfid
        if (!rfid && late) {
          const card = await db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', cp.installationId).where('tag', '=', input.idTag).orderBy('active', 'desc').executeTakeFirst()
          rfid = card ?? null
        }
        sessionId = await sessions.start({ installationId: cp.installationId, stationId: cp.stationId, rfidId: rfid?.id ?? null, userId: rfid?.user_id ?? null, at: input.timestamp })
      }
      const row = await db.insertInto('ocpp_transactions').values({
        charge_point_id: cp.id, station_id: cp.stationId, connector_id: input.connectorId, id_tag: input.idTag, session_id: sessionId,
        meter_start_wh: input.meterStartWh, last_meter_wh: input.meterStartWh, last_meter_at: input.timestamp, meter_stop_wh: null, started_at: input.timestamp, stopped_at: null,
      }).returning('id').executeTakeFirstOrThrow()
      // A live transaction is the station's current session; a late one (already over) is not.
      if (sessionId && !late) await patchStation(cp.stationId, { current_session_id: sessionId })
      return { transactionId: row.id, status }
    },

    /**
     * Energy register `energyWh` at `at` for a transaction: the part above the last register goes to its
     * session (high or low tariff by `at`) and to the station's meter; a register not above the last one
     * (a repeated or out-of-order value) adds nothing. Returns the kWh added.
     */
    async meterReading(cp: ChargePointRef, transactionId: number, energyWh: number, at: Date, powerKw: number | null): Promise<number> {
      const tx = await db.selectFrom('ocpp_transactions').select(['id', 'session_id', 'last_meter_wh', 'stopped_at']).where('id', '=', transactionId).where('charge_point_id', '=', cp.id).executeTakeFirst()
      if (!tx || tx.stopped_at || energyWh <= tx.last_meter_wh) return 0
      const kwh = (energyWh - tx.last_meter_wh) / 1000
      const moved = await db.updateTable('ocpp_transactions').set({ last_meter_wh: energyWh, last_meter_at: at }).where('id', '=', tx.id).where('last_meter_wh', '=', tx.last_meter_wh).where('stopped_at', 'is', null).executeTakeFirst()
      if (!Number(moved.numUpdatedRows)) return 0
      if (tx.session_id) await sessions.addEnergy(tx.session_id, kwh, at, cp.installationId, await tzOf(cp.installationId))
      let meterId = meterOf.get(cp.stationId)
      if (meterId === undefined) {
        meterId = (await db.selectFrom('charging_stations').select('meter_id').where('id', '=', cp.stationId).executeTakeFirst())?.meter_id
        if (meterId !== undefined) meterOf.set(cp.stationId, meterId)
      }
      if (meterId !== undefined) await measurements.record([{ meter_id: meterId, ts: at, power_kw: powerKw ?? 0, energy_in_kwh: kwh }])
      return kwh
    },

    /**
     * A MeterValues sample, written with the samples of all charge points that arrive within `meterBatchMs`
     * (docs/decisions.md "OCPP: meter values in batches"): the same effects as {@link meterReading} and
     * livePower, in a fixed number of statements per batch. Resolves with the kWh added once written, so an
     * answer sent after it still means "stored"; rejects when the batch failed.
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

    /** Live power of the station (a MeterValues sample that is current, not a late one), kW. */
    async livePower(cp: ChargePointRef, powerKw: number): Promise<void> {
      await patchStation(cp.stationId, { power_kw: Math.max(0, powerKw) })
    },

    /**
     * StopTransaction: the energy up to `meterStopWh` is added, the session ends at
     * `timestamp` (unpaid: the payment job bills it). Idempotent: a transaction already stopped (the
     * message repeated) changes nothing, so the session is priced and billed once. False when unknown or
     * already stopped.
     */
    async stopTransaction(cp: ChargePointRef, input: { transactionId: number; meterStopWh: number; timestamp: Date }): Promise<boolean> {
      // Samples of this transaction still in a batch go first, so the stop's register is compared with them.
      await service.settleSamples()
      const tx = await db.selectFrom('ocpp_transactions').select(['id', 'session_id', 'stopped_at']).where('id', '=', input.transactionId).where('charge_point_id', '=', cp.id).executeTakeFirst()
      if (!tx || tx.stopped_at) return false
      await service.meterReading(cp, tx.id, input.meterStopWh, input.timestamp, 0)
      const r = await db.updateTable('ocpp_transactions').set({ meter_stop_wh: input.meterStopWh, stopped_at: input.timestamp }).where('id', '=', tx.id).where('stopped_at', 'is', null).executeTakeFirst()
      if (!Number(r.numUpdatedRows)) return false
      if (tx.session_id) {
        await sessions.finish(tx.session_id, input.timestamp)
        await db.updateTable('charging_stations').set({ current_session_id: null, power_kw: 0, updated_at: clock.now() }).where('id', '=', cp.stationId).where('current_session_id', '=', tx.session_id).execute()
      }
      return true
    },

    /** Listen for commands queued for charge points (the device side delivers them); returns the unsubscribe. */
    onCommand(listener: (chargePointId: string) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    /**
     * A bound station's charging mode changed: its TxDefaultProfile is queued; turning off
     * (locked) also queues ChangeAvailability Inoperative, and leaving locked ChangeAvailability Operative.
     */
    async modeChanged(stationId: number, mode: string, previous: string): Promise<void> {
      const p = await profileCommands(stationId)
      if (!p) return
      const connectorId = p.profile.connectorId
      if (mode === 'locked') await enqueue(p.cp, 'ChangeAvailability', { connectorId, type: 'Inoperative' })
      if (previous === 'locked' && mode !== 'locked') await enqueue(p.cp, 'ChangeAvailability', { connectorId, type: 'Operative' })
      if (mode === 'rfid' && previous !== 'rfid') await service.authorizeFirst(stationId)
      if (previous === 'rfid' && mode !== 'rfid') for (const c of AUTHORIZE_REMOTE_OFF) await enqueue(p.cp, 'ChangeConfiguration', { ...c })
      await enqueue(p.cp, 'SetChargingProfile', p.profile as unknown as Record<string, unknown>)
    },

    /**
     * Queue the {@link AUTHORIZE_FIRST} ChangeConfiguration commands when the bound station is in RFID mode
     * (after a boot, or on entering the mode); nothing for other modes or unbound stations.
     */
    async authorizeFirst(stationId: number): Promise<void> {
      const r = await db.selectFrom('ocpp_charge_points as c').innerJoin('charging_stations as s', 's.id', 'c.station_id').select(['c.id', 's.charging_mode']).where('c.station_id', '=', stationId).executeTakeFirst()
      if (!r || r.charging_mode !== 'rfid') return
      for (const c of AUTHORIZE_FIRST) await enqueue({ id: r.id, stationId }, 'ChangeConfiguration', { ...c })
    },

    /**
     * The timers of bound stations changed (created, edited, moved or deleted): a station in timer mode
     * gets its TxDefaultProfile again, built from the stored timers, queued while offline.
     */
    async timersChanged(stationIds: number[]): Promise<void> {
      for (const stationId of new Set(stationIds)) {
        const p = await profileCommands(stationId)
        if (p?.mode === 'timer') await enqueue(p.cp, 'SetChargingProfile', p.profile as unknown as Record<string, unknown>)
      }
    },

    /** The current profile of a bound station (solar stations: re-evaluated every minute by the device side). */
    profileOf: profileCommands,

    /** Queue a profile built by the device side (a solar limit that moved). */
    enqueue,

    /**
     * POST …/charging_stations/{id}/ocpp/commands (admins): RemoteStartTransaction (with `id_tag`, a card of
     * the installation), RemoteStopTransaction (the open transaction; 400 when none) or UnlockConnector,
     * queued and sent at once or when the charge point is back. 404 ocppNotBound.
     */
    async command(actor: Actor, installationId: number, stationId: number, input: { action: StationCommand; id_tag?: string }): Promise<{ id: number; action: string; status: 'queued' }> {
      await requireAdmin(actor, installationId)
      await stationIn(installationId, stationId)
      const r = await db.selectFrom('ocpp_charge_points').select(['id', 'installation_id', 'station_id', 'connector_id']).where('station_id', '=', stationId).executeTakeFirst()
      if (!r) throw new AppError(404, 'ocppNotBound')
      const cp = { id: r.id, installationId: r.installation_id, stationId: r.station_id, connectorId: r.connector_id }
      let payload: Record<string, unknown>
      if (input.action === 'RemoteStartTransaction') {
        if (!input.id_tag) throw new Invalid({ id_tag: ['required'] })
        const card = await db.selectFrom('rfids').select('id').where('installation_id', '=', installationId).where('tag', '=', input.id_tag).where('active', '=', true).executeTakeFirst()
        if (!card) throw new Invalid({ id_tag: ['invalidValue'] })
        payload = { connectorId: cp.connectorId, idTag: input.id_tag }
      } else if (input.action === 'RemoteStopTransaction') {
        const tx = await service.openTransaction(cp)
        if (tx === null) throw new AppError(400, 'ocppNoTransaction')
        payload = { transactionId: tx }
      } else {
        payload = { connectorId: cp.connectorId }
      }
      return { id: await enqueue(cp, input.action, payload), action: input.action, status: 'queued' }
    },

    /** Device side: commands queued for `chargePointId`, oldest first. */
    async queued(chargePointId: string): Promise<OcppCommand[]> {
      const rows = await db.selectFrom('ocpp_commands').select(['id', 'charge_point_id', 'action', 'payload']).where('charge_point_id', '=', chargePointId).where('status', '=', 'queued').orderBy('id').execute()
      return rows.map((r) => ({ id: r.id, chargePointId: r.charge_point_id, action: r.action, payload: r.payload }))
    },

    /** Device side: charge points with queued commands. */
    async withQueued(): Promise<string[]> {
      return (await db.selectFrom('ocpp_commands').select('charge_point_id').distinct().where('status', '=', 'queued').execute()).map((r) => r.charge_point_id)
    },

    /** Device side: command `id` is being sent (it is not sent again unless put back). */
    async sending(id: number): Promise<boolean> {
      const r = await db.updateTable('ocpp_commands').set({ status: 'sent', sent_at: clock.now() }).where('id', '=', id).where('status', '=', 'queued').executeTakeFirst()
      return Number(r.numUpdatedRows) > 0
    },

    /** Device side: the connection dropped before an answer; the command waits for the next connection. */
    async requeue(id: number): Promise<void> {
      await db.updateTable('ocpp_commands').set({ status: 'queued' }).where('id', '=', id).execute()
    },

    /** Device side: the charge point's answer (its status, or `failed` with the error) goes to the journal. */
    async answered(cmd: OcppCommand, status: string, answer: unknown): Promise<void> {
      const r = await db.updateTable('ocpp_commands').set({ status, answer: JSON.stringify(answer ?? null), answered_at: clock.now() }).where('id', '=', cmd.id).returning('charge_point_id').executeTakeFirst()
      if (!r) return
      const cp = await db.selectFrom('ocpp_charge_points').select('station_id').where('id', '=', r.charge_point_id).executeTakeFirst()
      if (cp) await journal(cp.station_id, `ocpp:${cmd.action}:${status}`)
    },

    /** The open transaction on the bound connector, if any (RemoteStop, meter values without a transactionId). */
    async openTransaction(cp: ChargePointRef): Promise<number | null> {
      const r = await db.selectFrom('ocpp_transactions').select('id').where('charge_point_id', '=', cp.id).where('connector_id', '=', cp.connectorId).where('stopped_at', 'is', null).orderBy('started_at', 'desc').executeTakeFirst()
      return r?.id ?? null
    },
  }
  return service
}
export type OcppService = ReturnType<typeof createOcppService>
