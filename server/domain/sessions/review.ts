import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { MailService } from '../mail/service.ts'
import type { TariffService } from '../tariffs/service.ts'
import type { SessionService } from './service.ts'
import { EMPTY_KWH, priceRappen } from './service.ts'
import { AppError, Forbidden } from '../../lib/errors.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import type { ChargingSession, SessionReviewInput } from '../../../shared/schemas/session.ts'
import type { SessionFlag, SessionHoldReason } from '../ocpp/plausibility.ts'
import { sessionHeldMail } from '../mail/templates/session-held.ts'
import { mailLang } from '../mail/templates/layout.ts'
import { formatDateTime, regionOfTag, defaultRegion } from '../../../shared/rules/formats.ts'

/**
 * Sessions held for an admin's review and what admins do with them (docs/decisions.md "Charging: plausible
 * charger figures and debit ceilings"): a charger figure that breaks a rule (domain/ocpp/plausibility.ts) or a
 * debit ceiling (domain/payments) holds a session — it is never debited automatically — and mails the
 * installation's admins in their language; an admin corrects its energy, releases it or voids it, or ends
 * an open session by hand, each with a reason recorded in session_reviews.
 */
export function createSessionReviewService({ db, clock, installations, sessions, tariffs, mail, publicUrl }: {
  db: Db
  clock: Clock
  installations: InstallationService
  sessions: SessionService
  tariffs: TariffService
  mail: MailService
  publicUrl: string
}) {
  async function mailAdmins(sessionId: number, reason: SessionHoldReason): Promise<void> {
    const s = await db.selectFrom('charging_sessions as cs').innerJoin('charging_stations as st', 'st.id', 'cs.station_id').innerJoin('installations as i', 'i.id', 'cs.installation_id')
      .select(['cs.id', 'cs.start', 'cs.installation_id', 'st.name as station', 'i.name as site', 'i.timezone']).where('cs.id', '=', sessionId).executeTakeFirst()
    if (!s) return
    const admins = await db.selectFrom('installation_users as iu').innerJoin('users as u', 'u.id', 'iu.user_id')
      .select(['u.email', 'u.ietf_lang_tag']).where('iu.installation_id', '=', s.installation_id).where('iu.role', '=', 'installation_admin').where('u.is_active', '=', true).execute()
    const staff = admins.length ? admins : await db.selectFrom('users').select(['email', 'ietf_lang_tag']).where('is_superuser', '=', true).where('is_active', '=', true).where('is_service', '=', false).execute()
    for (const a of staff) {
      const lang = mailLang(a.ietf_lang_tag)
      const start = formatDateTime(s.start, regionOfTag(a.ietf_lang_tag) ?? defaultRegion(lang), s.timezone)
      const url = `${publicUrl}/facility/${s.installation_id}/sessions/${s.id}`
      await mail.enqueue({ kind: 'session-held', to: a.email, ...sessionHeldMail(lang, { id: s.id, site: s.site, station: s.station, start, reason, url }) })
    }
  }

  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }

  /** The session `sessionId` of installation `installationId`, or 404 "Session is not found". */
  async function sessionIn(installationId: number, sessionId: number) {
    const s = await db.selectFrom('charging_sessions').selectAll().where('id', '=', sessionId).where('installation_id', '=', installationId).executeTakeFirst()
    if (!s) throw new AppError(404, 'sessionNotFound')
    return s
  }

  const service = {
    /**
     * Hold session `sessionId` for review with `reason`: an open one ends `held` (sessions.finish), an unpaid
     * one becomes `held` at once. The first hold mails the installation's admins; later reasons are added to
     * its flags. A session already paid, void, or released by an admin is not held again.
     */
    async hold(sessionId: number, reason: SessionHoldReason): Promise<void> {
      const held = await db.updateTable('charging_sessions')
        .set({ hold_reason: reason, status: sql`CASE WHEN status = 'charging' THEN 'charging' ELSE 'held' END`, flags: sql`flags || ${JSON.stringify([reason])}::jsonb` })
        .where('id', '=', sessionId).where('hold_reason', 'is', null).where('reviewed_at', 'is', null).where('status', 'in', ['charging', 'unpaid', 'empty'])
        .returning('id').executeTakeFirst()
      if (held) await mailAdmins(sessionId, reason)
      else await service.flag(sessionId, reason)
    },

    /** Add `flag` to the session's flags (once): a charger clock corrected, a further rule broken. */
    async flag(sessionId: number, flag: SessionFlag): Promise<void> {
      await db.updateTable('charging_sessions').set({ flags: sql`flags || ${JSON.stringify([flag])}::jsonb` })
        .where('id', '=', sessionId).where(sql<boolean>`NOT flags @> ${JSON.stringify([flag])}::jsonb`).execute()
    },

    /**
     * POST …/charging_sessions/{id}/review (admins of its installation): `correct` its energy (split between
     * high and low tariff in the proportion measured, all at the start's tariff when none was; priced by the
     * tariff in force at its start), `approve` it as it is, or `void` it (0 kWh, CHF 0, never billed), with a
     * reason recorded. The session then leaves `held`: unpaid (the payment job debits it, the ceilings no
     * longer hold it), empty below 0.005 kWh, or void. 403 for others, 404 "Session is not found" for a
     * session of another installation, 409 sessionNotReviewable while it charges or once it is paid.
     */
    async review(actor: Actor, installationId: number, sessionId: number, input: SessionReviewInput): Promise<ChargingSession> {
      await requireAdmin(actor, installationId)
      const s = await sessionIn(installationId, sessionId)
      if (s.status === 'charging' || s.status === 'paid') throw new AppError(409, 'sessionNotReviewable')
      const now = clock.now()
      let set: { energy_kwh: number; high_kwh: number; low_kwh: number; price_rappen: number; status: 'unpaid' | 'empty' | 'void' }
      if (input.action === 'void') {
        set = { energy_kwh: 0, high_kwh: 0, low_kwh: 0, price_rappen: 0, status: 'void' }
      } else if (input.action === 'approve') {
        set = { energy_kwh: s.energy_kwh, high_kwh: s.high_kwh, low_kwh: s.low_kwh, price_rappen: s.price_rappen, status: s.energy_kwh < EMPTY_KWH ? 'empty' : 'unpaid' }
      } else {
        const tz = (await installations.describe(installationId)).timezone
        const kwh = input.energy_kwh
        const measured = s.high_kwh + s.low_kwh
        const highShare = measured > 0 ? s.high_kwh / measured : (await tariffs.isHigh(installationId, s.start, tz)) ? 1 : 0
        const high = kwh * highShare
        const low = kwh - high
        set = { energy_kwh: kwh, high_kwh: high, low_kwh: low, price_rappen: priceRappen(high, low, await tariffs.inForce(installationId, s.start, tz)), status: kwh < EMPTY_KWH ? 'empty' : 'unpaid' }
      }
      await db.transaction().execute(async (tx) => {
        const r = await tx.updateTable('charging_sessions').set({ ...set, hold_reason: null, reviewed_at: now }).where('id', '=', sessionId).where('status', '=', s.status).executeTakeFirst()
        if (!Number(r.numUpdatedRows)) throw new AppError(409, 'sessionNotReviewable')
        await tx.insertInto('session_reviews').values({ session_id: sessionId, user_id: actor.id, action: input.action, reason: input.reason, energy_before_kwh: s.energy_kwh, energy_after_kwh: set.energy_kwh, at: now }).execute()
      })
      return sessions.get(actor, sessionId)
    },

    /**
     * POST …/charging_sessions/{id}/end (admins of its installation): end an open session now with a reason
     * (a charger that never sent StopTransaction). Its OCPP transaction is closed at its last register (the
     * StopTransaction of OCPP 1.6 §4.10 "Stop Transaction" never came), the station no longer shows it, and the session ends like any
     * other (unpaid, held or empty), `end_reason` admin. 409 sessionNotOpen once ended; 403/404 as review.
     */
    async end(actor: Actor, installationId: number, sessionId: number, reason: string): Promise<ChargingSession> {
      await requireAdmin(actor, installationId)
      const s = await sessionIn(installationId, sessionId)
      if (s.end !== null) throw new AppError(409, 'sessionNotOpen')
      const now = clock.now()
      await db.updateTable('ocpp_transactions').set({ stopped_at: sql`greatest(started_at, ${now}::timestamptz)`, meter_stop_wh: sql`last_meter_wh`, end_reason: 'admin' })
        .where('session_id', '=', sessionId).where('stopped_at', 'is', null).execute()
      await sessions.finish(sessionId, now, 'admin')
      await db.updateTable('charging_stations').set({ current_session_id: null, power_kw: 0, updated_at: now }).where('current_session_id', '=', sessionId).execute()
      await db.insertInto('session_reviews').values({ session_id: sessionId, user_id: actor.id, action: 'end', reason, energy_before_kwh: s.energy_kwh, energy_after_kwh: s.energy_kwh, at: now }).execute()
      return sessions.get(actor, sessionId)
    },

    /** The recorded reviews of a session, oldest first (who, what, why, energy before and after). */
    async history(sessionId: number) {
      return db.selectFrom('session_reviews').selectAll().where('session_id', '=', sessionId).orderBy('id').execute()
    },
  }
  return service
}
export type SessionReviewService = ReturnType<typeof createSessionReviewService>
