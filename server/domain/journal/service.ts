import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { NotFound } from '../../lib/errors.ts'
import { isAdmin, mayReadRfid, mayReadStation } from '../../../shared/rules/permissions.ts'
import { maySeeSession, maySeeSessionPerson } from '../../../shared/rules/visibility.ts'
import type { JournalEntry, JournalQuery } from '../../../shared/schemas/journal.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import { localMidnight } from '../../../shared/rules/granularity.ts'

const r2 = (x: number) => Math.round(x * 100) / 100

/**
 * A journal query's `start` or `end` as an instant: a calendar date ("YYYY-MM-DD") is that day's
 * midnight in the installation's zone `tz` (as the statistics queries read it, SPEC §9), not UTC
 * midnight; a date-time with offset is taken as it is.
 */
export const journalInstant = (v: string, tz: string): Date => new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? localMidnight(v, tz) : v)

/**
 * The journal (SPEC §3) of a station or an RFID, newest first. Charging sessions: one with a card is an
 * `rfid_charging_session` (badged in at its start, out at its end), one without a `charging_session`.
 * Events (journal_events): `journal_entry` for a charging-mode change (set_by_timer when a timer made
 * it), `rfid_session_journal_entry` for a tag learned in learning mode (the tag shown to admins only).
 * Rights: the station or RFID must be readable (404); cost only with the cost switch or for the
 * caller's own sessions; which sessions appear and card and name (of the person who charged) by
 * shared/rules/visibility.ts (a resident without the cost switch sees only the sessions they charged). A paid/unpaid filter leaves events out.
 */
export function createJournalService({ db, installations }: { db: Db; installations: InstallationService }) {
  async function entries(actor: Actor, installationId: number, by: { stationId?: number; rfidId?: number }, q: JournalQuery): Promise<PageOf<JournalEntry>> {
    const access = await installations.access(actor, installationId)
    const tz = (await installations.describe(installationId)).timezone
    if (by.stationId !== undefined) {
      const s = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('id', '=', by.stationId).executeTakeFirst()
      if (!s || !mayReadStation(access, s.id)) throw NotFound()
    }
    if (by.rfidId !== undefined) {
      const r = await db.selectFrom('rfids').select('id').where('installation_id', '=', installationId).where('id', '=', by.rfidId).executeTakeFirst()
      if (!r || !mayReadRfid(access, r.id)) throw NotFound()
    }
    const type = q.entry_type && q.entry_type !== 'all' ? q.entry_type : null
    const payment = q.payment_status && q.payment_status !== 'all' ? q.payment_status : null
    const events: JournalEntry[] = []
    // Events have no payment status: a paid or unpaid filter leaves them out.
    if (!payment && type !== 'charging_session' && type !== 'rfid_charging_session') {
      let eq = db.selectFrom('journal_events as e').innerJoin('charging_stations as s', 's.id', 'e.station_id').leftJoin('rfids as r', 'r.id', 'e.rfid_id')
        .where('e.installation_id', '=', installationId)
      if (by.stationId !== undefined) eq = eq.where('e.station_id', '=', by.stationId)
      if (by.rfidId !== undefined) eq = eq.where('e.rfid_id', '=', by.rfidId)
      if (type) eq = eq.where('e.kind', '=', type)
      if (q.start) eq = eq.where('e.at', '>=', journalInstant(q.start, tz))
      if (q.end) eq = eq.where('e.at', '<', journalInstant(q.end, tz))
      for (const e of await eq.selectAll('e').select(['s.name as station_name', 'r.tag as rfid_tag']).execute()) {
        // A learned or ignored tag (learning mode) carries the tag after a colon; only admins see it.
        const tagged = /^(rfid_learned|rfid_ignored):(.*)$/.exec(e.detail)
        const learned = tagged ? tagged[2] : null
        events.push({
          id: e.id, type: e.kind, station_id: e.station_id, station_name: e.station_name, charging_mode: e.charging_mode,
          start: e.at.toISOString(), end: null, duration_minutes: null, charge: 0, peak: 0, off_peak: 0, cost: null,
          rfid: e.rfid_id != null && mayReadRfid(access, e.rfid_id) ? e.rfid_tag : isAdmin(access.role) ? learned : null,
          rfid_user: null, badged_in: null, badged_out: null, payment_status: null, set_by_timer: e.set_by_timer,
          detail: tagged ? tagged[1] : e.detail,
        })
      }
    }
    if (type === 'journal_entry' || type === 'rfid_session_journal_entry') {
      events.sort((a, b) => b.start.localeCompare(a.start))
      return { count: events.length, next: null, previous: null, results: events.slice(q.offset, q.offset + q.limit) }
    }
    let query = db
      .selectFrom('charging_sessions as cs')
      .innerJoin('charging_stations as s', 's.id', 'cs.station_id')
      .leftJoin('rfids as r', 'r.id', 'cs.rfid_id')
      // The person who charged (the card's holder then), not the card's holder today.
      .leftJoin('users as u', 'u.id', 'cs.user_id')
      .where('cs.installation_id', '=', installationId)
    if (by.stationId !== undefined) query = query.where('cs.station_id', '=', by.stationId)
    if (by.rfidId !== undefined) query = query.where('cs.rfid_id', '=', by.rfidId)
    if (q.start) query = query.where('cs.start', '>=', journalInstant(q.start, tz))
    if (q.end) query = query.where('cs.start', '<', journalInstant(q.end, tz))
    if (type === 'rfid_charging_session') query = query.where('cs.rfid_id', 'is not', null)
    if (type === 'charging_session') query = query.where('cs.rfid_id', 'is', null)
    if (payment) query = query.where('cs.status', '=', payment)
    const rows = await query
      .selectAll('cs')
      .select(['s.name as station_name', 's.charging_mode', 'r.tag as rfid_tag', 'u.first_name', 'u.last_name'])
      .orderBy('cs.start', 'desc')
      .orderBy('cs.id', 'desc')
      .execute()
    // Sessions as in the sessions list: a resident's own, everything for admins and the cost switch.
    const results = rows.filter((s) => maySeeSession(s, access)).map((s): JournalEntry => {
      const withCard = s.rfid_id != null
      const person = withCard && maySeeSessionPerson(s, access)
      const seesCost = access.cost || s.user_id === access.user_id
      return {
        id: s.id,
        type: withCard ? 'rfid_charging_session' : 'charging_session',
        station_id: s.station_id,
        station_name: s.station_name,
        charging_mode: s.charging_mode,
        start: s.start.toISOString(),
        end: s.end?.toISOString() ?? null,
        duration_minutes: s.end ? Math.round((s.end.getTime() - s.start.getTime()) / 60_000) : null,
        charge: r2(s.energy_kwh),
        peak: r2(s.high_kwh),
        off_peak: r2(s.low_kwh),
        cost: seesCost ? (s.price_rappen + s.fee_rappen) / 100 : null,
        rfid: person ? s.rfid_tag : null,
        rfid_user: person && s.first_name != null ? `${s.first_name} ${s.last_name ?? ''}`.trim() : null,
        badged_in: withCard ? s.start.toISOString() : null,
        badged_out: withCard ? (s.end?.toISOString() ?? null) : null,
        payment_status: s.status === 'charging' ? null : s.status,
        set_by_timer: s.set_by_timer,
      }
    })
    const merged = [...results, ...events].sort((a, b) => b.start.localeCompare(a.start))
    return { count: merged.length, next: null, previous: null, results: merged.slice(q.offset, q.offset + q.limit) }
  }

  return {
    /** GET …/charging_stations/{id}/journal (SPEC §7). */
    station: (actor: Actor, installationId: number, stationId: number, q: JournalQuery) => entries(actor, installationId, { stationId }, q),
    /** GET …/rfids/{rfid_id}/journal (SPEC §7). */
    rfid: (actor: Actor, installationId: number, rfidId: number, q: JournalQuery) => entries(actor, installationId, { rfidId }, q),
  }
}
export type JournalService = ReturnType<typeof createJournalService>
