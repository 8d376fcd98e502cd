import { sql } from 'kysely'
import { tagIs } from '../rfids/id-token.ts'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import type { SessionService } from '../sessions/service.ts'
import type { SessionReviewService } from '../sessions/review.ts'
import type { ChargePointRef, MeterValues } from './meter-values.ts'

/** OCPP 1.6 AuthorizationStatus of an idTag (OCPP 1.6 §7.2 IdTagInfo). */
export type AuthorizationStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx'

/** Why the central system closed a transaction its charger never stopped. */
export type TransactionEndReason = 'newTransaction' | 'reboot' | 'admin'

/**
 * OCPP transactions and the sessions they open and close (OCPP 1.6 §4.8 "Start Transaction", §4.10 "Stop
 * Transaction"): numbered here, deduplicated when repeated, ended by their charger — or by the central system
 * when a new transaction or a BootNotification on the connector shows the old one will never be stopped
 * (docs/decisions.md "Charging: plausible charger figures and debit ceilings").
 */
export function createTransactions({ db, clock, sessions, meters, review, authorize, stationMode, patchStation }: {
  db: Db
  clock: Clock
  sessions: SessionService
  meters: Pick<MeterValues, 'meterReading' | 'settleSamples'>
  review: Pick<SessionReviewService, 'flag'>
  authorize: (cp: ChargePointRef, idTag: string, at: Date) => Promise<{ status: AuthorizationStatus; rfid: { id: number; user_id: number | null } | null }>
  stationMode: (stationId: number) => Promise<string | undefined>
  patchStation: (stationId: number, set: Record<string, unknown>) => Promise<void>
}) {
  /** End session `sessionId` at `at` and take it off its station (the station shows no session and no power). */
  async function endSession(stationId: number, sessionId: number, at: Date, reason: string | null): Promise<void> {
    await sessions.finish(sessionId, at, reason)
    await db.updateTable('charging_stations').set({ current_session_id: null, power_kw: 0, updated_at: clock.now() }).where('id', '=', stationId).where('current_session_id', '=', sessionId).execute()
  }

  const tx = {
    /**
     * Close the charge point's open transactions (on `connectorId`, or all of them) other than `except`,
     * which its charger will never stop: a new StartTransaction on the connector, or a BootNotification
     * (OCPP 1.6 §4.2 "Boot Notification": a rebooted charger has lost them). Their energy is their last
     * meter value (the register stays where it was), they end at `at` (never before their start) with
     * `reason` recorded on the transaction and its session. Returns how many were closed.
     */
    async closeOpen(cp: ChargePointRef, connectorId: number | null, reason: TransactionEndReason, at: Date, except?: number): Promise<number> {
      await meters.settleSamples()
      let q = db.selectFrom('ocpp_transactions').select(['id', 'session_id', 'started_at']).where('charge_point_id', '=', cp.id).where('stopped_at', 'is', null)
      if (connectorId !== null) q = q.where('connector_id', '=', connectorId)
      if (except !== undefined) q = q.where('id', '!=', except)
      let closed = 0
      for (const t of await q.execute()) {
        const end = t.started_at > at ? t.started_at : at
        const r = await db.updateTable('ocpp_transactions').set({ stopped_at: end, meter_stop_wh: sql`last_meter_wh`, end_reason: reason }).where('id', '=', t.id).where('stopped_at', 'is', null).executeTakeFirst()
        if (!Number(r.numUpdatedRows)) continue
        closed++
        if (t.session_id) await endSession(cp.stationId, t.session_id, end, reason)
      }
      return closed
    },

    /**
     * StartTransaction: numbers the transaction (a repeated message — the same connector and timestamp, or
     * the same tag and meterStart while that one is open and recent — gets the same id), closes an older transaction
     * left open on the connector (reason newTransaction), and opens a session at `timestamp` when the tag
     * is accepted (or is no card at all and the station is not in RFID mode: an anonymous session), or when
     * the transaction is late (started before `lateBefore`: it ran on the charger's own authorization while
     * offline, and the energy was delivered, so it is billed; with the card when the tag is one).
     * `clockCorrected`: the charger's timestamp was replaced by the server's (the session is flagged).
     */
    async startTransaction(cp: ChargePointRef, input: { connectorId: number; idTag: string; meterStartWh: number; timestamp: Date; clockCorrected?: boolean }, lateBefore: Date): Promise<{ transactionId: number; status: AuthorizationStatus }> {
      const auth = await authorize(cp, input.idTag, input.timestamp)
      const known = await db.selectFrom('ocpp_transactions').select('id').where('charge_point_id', '=', cp.id).where('connector_id', '=', input.connectorId)
        .where((eb) => eb.or([eb('started_at', '=', input.timestamp), eb.and([eb('stopped_at', 'is', null), eb('id_tag', '=', input.idTag), eb('meter_start_wh', '=', input.meterStartWh), eb('started_at', '>=', lateBefore)])]))
        .executeTakeFirst()
      if (known) return { transactionId: known.id, status: auth.status }
      // OCPP 1.6 §4.8: one transaction per connector; an older one still open was never stopped.
      await tx.closeOpen(cp, input.connectorId, 'newTransaction', input.timestamp)
      const late = input.timestamp < lateBefore
      // SPEC §4: only RFID mode needs a card. Elsewhere a charger set to charge freely starts with a tag
      // that is no card of the installation: an anonymous session, accepted. A known card that is refused
      // (deleted, not allowed here, not ready) stays refused.
      let free = false
      if (auth.status !== 'Accepted') {
        const mode = await stationMode(cp.stationId)
        const onFile = await db.selectFrom('rfids').select('id').where('installation_id', '=', cp.installationId).where(tagIs(input.idTag)).executeTakeFirst()
        free = mode !== undefined && mode !== 'rfid' && !onFile
      }
      const status: AuthorizationStatus = free ? 'Accepted' : auth.status
      let sessionId: number | null = null
      if (input.connectorId === cp.connectorId && (status === 'Accepted' || late)) {
        let rfid = auth.rfid
        if (!rfid && late) {
          const card = await db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', cp.installationId).where(tagIs(input.idTag)).orderBy('active', 'desc').executeTakeFirst()
          rfid = card ?? null
        }
        sessionId = await sessions.start({ installationId: cp.installationId, stationId: cp.stationId, rfidId: rfid?.id ?? null, userId: rfid?.user_id ?? null, at: input.timestamp })
        if (input.clockCorrected) await review.flag(sessionId, 'clockCorrected')
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
     * StopTransaction: the energy up to `meterStopWh` is added (by the rules of meterReading), the session
     * ends at `timestamp` (unpaid: the payment job bills it; held or empty as sessions.finish decides).
     * Idempotent: a transaction already stopped (the message repeated) changes nothing, so the session is
     * priced and billed once. False when unknown or already stopped.
     */
    async stopTransaction(cp: ChargePointRef, input: { transactionId: number; meterStopWh: number; timestamp: Date; clockCorrected?: boolean }): Promise<boolean> {
      // Samples of this transaction still in a batch go first, so the stop's register is compared with them.
      await meters.settleSamples()
      const t = await db.selectFrom('ocpp_transactions').select(['id', 'session_id', 'stopped_at']).where('id', '=', input.transactionId).where('charge_point_id', '=', cp.id).executeTakeFirst()
      if (!t || t.stopped_at) return false
      await meters.meterReading(cp, t.id, input.meterStopWh, input.timestamp, 0)
      const r = await db.updateTable('ocpp_transactions').set({ meter_stop_wh: input.meterStopWh, stopped_at: sql`greatest(started_at, ${input.timestamp}::timestamptz)` }).where('id', '=', t.id).where('stopped_at', 'is', null).executeTakeFirst()
      if (!Number(r.numUpdatedRows)) return false
      if (t.session_id) {
        if (input.clockCorrected) await review.flag(t.session_id, 'clockCorrected')
        await endSession(cp.stationId, t.session_id, input.timestamp, null)
      }
      return true
    },

    /** The open transaction on the bound connector, if any (RemoteStop, meter values without a transactionId). */
    async openTransaction(cp: ChargePointRef): Promise<number | null> {
      const r = await db.selectFrom('ocpp_transactions').select('id').where('charge_point_id', '=', cp.id).where('connector_id', '=', cp.connectorId).where('stopped_at', 'is', null).orderBy('started_at', 'desc').executeTakeFirst()
      return r?.id ?? null
    },
  }
  return tx
}
export type Transactions = ReturnType<typeof createTransactions>
