import type { Domain } from '../domain/index.ts'
import { MIN_AMPS } from '../domain/ocpp/profiles.ts'

/** The profile id of the controller's TxProfile (the mode's TxDefaultProfile is PROFILE_ID 1, server/domain/ocpp/profiles.ts). */
export const TX_PROFILE_ID = 2
/** A TxProfile holds this long unless renewed (OCPP 1.6 §7.7 validTo): a charger that loses the controller falls back to its fail-safe. */
export const TX_PROFILE_VALID_MS = 10 * 60_000
/** Renew an unchanged TxProfile after this long, well before it runs out. */
export const TX_PROFILE_RENEW_MS = 5 * 60_000

/** A charge point bound to a station, as the controller needs it. */
export interface BoundCharger { id: string; connectorId: number; connected: boolean; lastBootAt: Date | null }

/** What the controller last queued for a station's charge point (load_limits.sent). */
export interface SentProfile { limit_a: number; transaction_id: number; at: string }

/**
 * OCPP 1.6 SetChargingProfile.req with a TxProfile (§3.13.3, §7.7) for the running transaction
 * `transactionId`: `limitA` A per phase from `at`, valid until `at` + {@link TX_PROFILE_VALID_MS}.
 */
export function txProfile(connectorId: number, transactionId: number, limitA: number, at: Date): Record<string, unknown> {
  return {
    connectorId,
    csChargingProfiles: {
      chargingProfileId: TX_PROFILE_ID, transactionId, stackLevel: 0, chargingProfilePurpose: 'TxProfile', chargingProfileKind: 'Absolute',
      validTo: new Date(at.getTime() + TX_PROFILE_VALID_MS).toISOString(),
      chargingSchedule: { startSchedule: at.toISOString(), chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: limitA }] },
    },
  }
}

/**
 * The limits of the controller as OCPP commands through the existing command queue
 * (server/domain/ocpp/commands.ts), delivered in order when the charge point is connected:
 * - the fail-safe, once per connection (boot), mode and share: the mode's TxDefaultProfile with every
 *   period capped at the station's safe share, so a new transaction, or one whose TxProfile ran out
 *   because the controller went away, stays within it;
 * - a TxProfile for the running transaction when its limit changed, the transaction is new, or it is due
 *   for renewal ({@link TX_PROFILE_RENEW_MS});
 * - when load management is switched off, ClearChargingProfile of the TxProfile and the mode's own
 *   TxDefaultProfile again.
 */
export function createOcppLimits(domain: Domain) {
  const db = domain.db
  const ocpp = domain.ocpp

  return {
    /** The transaction open at charge point `cpId` (ocpp_transactions), or null. */
    async openTransaction(cpId: string): Promise<number | null> {
      const r = await db.selectFrom('ocpp_transactions').select('id').where('charge_point_id', '=', cpId).where('stopped_at', 'is', null).orderBy('id', 'desc').limit(1).executeTakeFirst()
      return r?.id ?? null
    },

    /**
     * Queue the fail-safe TxDefaultProfile when `key` (boot, mode, share) differs from the one it was
     * last sent for; returns the key to store.
     */
    async failsafe(stationId: number, cp: BoundCharger, safeA: number, mode: string, sentFor: string | null): Promise<string | null> {
      if (!cp.connected) return sentFor
      const key = `${cp.lastBootAt?.toISOString() ?? '-'}|${mode}|${safeA}`
      if (key === sentFor) return sentFor
      const p = await ocpp.profileOf(stationId)
      if (!p) return sentFor
      const periods = p.profile.csChargingProfiles.chargingSchedule.chargingSchedulePeriod
      for (const period of periods) period.limit = Math.min(period.limit, safeA)
      await ocpp.enqueue(p.cp, 'SetChargingProfile', p.profile as unknown as Record<string, unknown>)
      return key
    },

    /**
     * Queue the TxProfile of `limitA` for the running transaction when it differs from `sent`, or
     * `sent` is due for renewal; returns what to store as sent (unchanged when nothing was queued).
     */
    async limit(stationId: number, cp: BoundCharger, limitA: number, sent: SentProfile | null, at: Date): Promise<SentProfile | null> {
      if (!cp.connected) return sent
      const tx = await this.openTransaction(cp.id)
      if (tx === null) return null
      const fresh = sent && sent.transaction_id === tx && sent.limit_a === limitA && at.getTime() - Date.parse(sent.at) < TX_PROFILE_RENEW_MS
      if (fresh) return sent
      await ocpp.enqueue({ id: cp.id, stationId }, 'SetChargingProfile', txProfile(cp.connectorId, tx, limitA, at))
      return { limit_a: limitA, transaction_id: tx, at: at.toISOString() }
    },

    /** Load management switched off: the TxProfile is cleared and the mode's own TxDefaultProfile sent again. */
    async release(stationId: number, cp: BoundCharger): Promise<void> {
      await ocpp.enqueue({ id: cp.id, stationId }, 'ClearChargingProfile', { id: TX_PROFILE_ID })
      const p = await ocpp.profileOf(stationId)
      if (p) await ocpp.enqueue(p.cp, 'SetChargingProfile', p.profile as unknown as Record<string, unknown>)
    },
  }
}

/**
 * The safe share of a station, A per phase: on every circuit from the station up to the connection, the
 * circuit's limit over the stations below it; the smallest, capped at the station's maximum, and 0 when
 * it is below the minimum current {@link MIN_AMPS} (a car cannot charge below it, IEC 61851-1).
 */
export function safeShareA(path: { limit_a: number; stations: number }[], maxA: number): number {
  let share = maxA
  for (const c of path) share = Math.min(share, c.limit_a / Math.max(1, c.stations))
  share = Math.floor(share * 10) / 10
  return share < MIN_AMPS ? 0 : share
}
