import type { Db } from '../../db/connection.ts'
import { tagIs } from '../rfids/id-token.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Actor } from '../auth/service.ts'
import type { TariffService } from '../tariffs/service.ts'
import { AppError, Invalid } from '../../lib/errors.ts'
import { chargingProfile } from './profiles.ts'
import { OCPP } from '../../../config/defaults.ts'
import type { ChargePointRef } from './meter-values.ts'

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

/**
 * ChangeConfiguration keys sent after each boot so registers are read often enough to split energy at
 * tariff changes (OCPP 1.6 §9.1 Core Profile keys MeterValueSampleInterval and ClockAlignedDataInterval; many chargers
 * ship with 0, meaning no meter values at all): sampled every {@link OCPP}.meterValueSampleSeconds during a
 * transaction and aligned to every quarter hour.
 */
export const METER_INTERVALS = [
  { key: 'MeterValueSampleInterval', value: String(OCPP.meterValueSampleSeconds) },
  { key: 'ClockAlignedDataInterval', value: String(OCPP.clockAlignedDataSeconds) },
] as const

/** A queued or sent command to a charge point (ocpp_commands). */
export interface OcppCommand {
  id: number
  chargePointId: string
  action: string
  payload: Record<string, unknown>
}

/**
 * Commands to charge points (OCPP 1.6 §5 "Operations initiated by Central System"): queued in
 * ocpp_commands and journaled, delivered in order by the device side when the charge point is connected —
 * the TxDefaultProfile of the station's mode (SetChargingProfile), availability, the RFID-mode
 * configuration, and the commands an admin sends from the station page.
 */
export function createOcppCommands({ db, clock, tariffs, tzOf, journal, requireAdmin, stationIn, openTransaction }: {
  db: Db
  clock: Clock
  tariffs: TariffService
  tzOf: (installationId: number) => Promise<string>
  journal: (stationId: number, detail: string) => Promise<void>
  requireAdmin: (actor: Actor, installationId: number) => Promise<void>
  stationIn: (installationId: number, stationId: number) => Promise<unknown>
  openTransaction: (cp: ChargePointRef) => Promise<number | null>
}) {
  // The device side listens, so a command reaches a charge point connected to this process at once.
  const listeners = new Set<(chargePointId: string) => void>()

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

  const commands = {
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
      if (mode === 'rfid' && previous !== 'rfid') await commands.authorizeFirst(stationId)
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

    /** After a boot: the {@link METER_INTERVALS} ChangeConfiguration commands for the charge point. */
    async meterIntervals(cp: { id: string; stationId: number }): Promise<void> {
      for (const c of METER_INTERVALS) await enqueue(cp, 'ChangeConfiguration', { ...c })
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
        const card = await db.selectFrom('rfids').select('id').where('installation_id', '=', installationId).where(tagIs(input.id_tag)).where('active', '=', true).executeTakeFirst()
        if (!card) throw new Invalid({ id_tag: ['invalidValue'] })
        payload = { connectorId: cp.connectorId, idTag: input.id_tag }
      } else if (input.action === 'RemoteStopTransaction') {
        const tx = await openTransaction(cp)
        if (tx === null) throw new AppError(400, 'ocppNoTransaction')
        payload = { transactionId: tx }
      } else {
        payload = { connectorId: cp.connectorId }
      }
      return { id: await enqueue(cp, input.action, payload), action: input.action, status: 'queued' }
    },

    /**
     * Where command `id` stands: `queued` or `sent` (no answer yet), else the charge point's answer — its
     * status (Accepted, Rejected, Unlocked, UnlockFailed, NotSupported…) or `failed` with the CALLERROR's code
     * and description (OCPP-J 1.6 §4.2.3) or why it could not be sent in `error`. Null for an unknown id.
     */
    async commandState(id: number): Promise<{ status: string; error: string | null; chargePointId: string; connected: boolean } | null> {
      const r = await db.selectFrom('ocpp_commands as c').innerJoin('ocpp_charge_points as p', 'p.id', 'c.charge_point_id')
        .select(['c.status', 'c.answer', 'c.charge_point_id', 'p.connected']).where('c.id', '=', id).executeTakeFirst()
      if (!r) return null
      const answer = r.answer as { error?: string } | null
      return { status: r.status, error: r.status === 'failed' ? (answer?.error ?? null) : null, chargePointId: r.charge_point_id, connected: r.connected }
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

  }
  return commands
}
export type OcppCommands = ReturnType<typeof createOcppCommands>
