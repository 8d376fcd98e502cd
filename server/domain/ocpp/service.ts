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
import { recordAudit } from '../audit/service.ts'
import { OCPP } from '../../../config/defaults.ts'
import type { Clock } from '../../lib/clock.ts'
import type { SessionReviewService } from '../sessions/review.ts'
import { createMeterValues, type ChargePointRef } from './meter-values.ts'
import { createTransactions, type AuthorizationStatus } from './transactions.ts'
import { createOcppCommands } from './commands.ts'
import { createOcppCredentials, OCPP_STATUS_CODE } from './credentials.ts'

export { readSamples, type ChargePointRef, type MeterSample, type SampledValue } from './meter-values.ts'
export { AUTHORIZE_FIRST, AUTHORIZE_REMOTE_OFF, STATION_COMMANDS, type OcppCommand, type StationCommand } from './commands.ts'
export type { AuthorizationStatus } from './transactions.ts'

/** SPEC §4 status codes the central system sets (shared/rules/status-codes.ts). */
export { OCPP_STATUS_CODE }

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

/**
 * The OCPP 1.6J central system's domain side: admins bind a station (and connector) to a
 * charge point id with a password shown once; the device side (server/devices/ocpp) checks charge point
 * credentials and turns their messages into station states, RFID decisions, sessions with energy and
 * prices, and meter readings, through the same tables the simulator writes. Meter values
 * (meter-values.ts), transactions (transactions.ts) and commands to charge points (commands.ts) are
 * modules of their own; this file keeps bindings, connection state, station status and authorization.
 */
export function createOcppService({ db, clock, installations, sessions, stations, measurements, tariffs, review, meterBatchMs = OCPP.meterBatchMs }: {
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
  /** Holds and flags sessions whose charger figures break a rule (domain/sessions/review.ts). */
  review: Pick<SessionReviewService, 'hold' | 'flag'>
}) {
  async function journal(stationId: number, detail: string, at = clock.now()): Promise<void> {
    const s = await db.selectFrom('charging_stations').select(['installation_id', 'charging_mode']).where('id', '=', stationId).executeTakeFirst()
    if (!s) return
    await db.insertInto('journal_events').values({ installation_id: s.installation_id, station_id: stationId, rfid_id: null, kind: 'journal_entry', charging_mode: s.charging_mode, at, detail }).execute()
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
  async function tzOf(installationId: number): Promise<string> {
    let tz = tzCache.get(installationId)
    if (!tz) tzCache.set(installationId, (tz = (await installations.describe(installationId)).timezone))
    return tz
  }

  async function patchStation(stationId: number, set: Record<string, unknown>): Promise<void> {
    if ('alerts' in set) set.alerts = JSON.stringify(set.alerts)
    await db.updateTable('charging_stations').set({ ...set, updated_at: clock.now() }).where('id', '=', stationId).execute()
  }

  const meters = createMeterValues({ db, clock, sessions, measurements, tariffs, review, tzOf, meterBatchMs })
  const stationMode = async (stationId: number) => (await db.selectFrom('charging_stations').select('charging_mode').where('id', '=', stationId).executeTakeFirst())?.charging_mode
  const commands = createOcppCommands({ db, clock, tariffs, tzOf, journal, requireAdmin, stationIn, openTransaction: (cp) => transactions.openTransaction(cp) })
  const transactions = createTransactions({ db, clock, sessions, meters, review, authorize: (cp, idTag, at) => service.authorize(cp, idTag, at), stationMode, patchStation })

  const credentials = createOcppCredentials({ db, clock })
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

    // Charge point ids, passwords and bindings (./credentials.ts), shared with provisioning and the demo seed.
    ...credentials,

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

    /** Device side: when charge point `id` was last heard from, as stored (null: never). */
    async lastHeard(id: string): Promise<Date | null> {
      return (await db.selectFrom('ocpp_charge_points').select('last_message_at').where('id', '=', id).executeTakeFirst())?.last_message_at ?? null
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

    ...meters,
    startTransaction: transactions.startTransaction,
    stopTransaction: transactions.stopTransaction,
    closeOpen: transactions.closeOpen,
    openTransaction: transactions.openTransaction,
    ...commands,

  }
  return service
}
export type OcppService = ReturnType<typeof createOcppService>
