import { sql, type Selectable } from 'kysely'
import type { ChargingSessionsTable } from '../../db/schema.ts'
import { AppError, Forbidden, NotFound } from '../../lib/errors.ts'
import { transactionFeeRappen, type PaymentMethodKind } from '../../../shared/rules/card-fees.ts'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { TariffInForce, TariffService } from '../tariffs/service.ts'
import { maySeeSession, maySeeSessionPerson, projectSession } from '../../../shared/rules/visibility.ts'
import { isAdmin, mayReadStation } from '../../../shared/rules/permissions.ts'
import { pricePerKwh } from '../../../shared/rules/energy-insights.ts'
import { sessionInsights } from './insights.ts'
import { planRemaining } from './remaining.ts'
import type { ChargingSession, SessionTotals } from '../../../shared/schemas/session.ts'
import { priceLines } from '../../../shared/rules/price-lines.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { Clock } from '../../lib/clock.ts'
import { CHARGER_TRUST } from '../../../config/defaults.ts'

/** Below this a session shows 0.00 kWh: it ends `empty` and is never billed (SPEC §3, docs/decisions.md "Charging: plausible charger figures and debit ceilings"). */
export const EMPTY_KWH = 0.005

const r2 = (x: number) => Math.round(x * 100) / 100

export type { SessionTotals } from '../../../shared/schemas/session.ts'

/** Sums of `sessions` (SessionTotals): kWh, and price, fee and total in CHF of those whose money is shown. */
function totalsOf(sessions: ChargingSession[]): SessionTotals {
  let kwh = 0
  let sums: { price: number; fee: number } | null = null
  for (const s of sessions) {
    kwh += s.energy_kwh
    if (s.price !== null) {
      sums ??= { price: 0, fee: 0 }
      sums.price += Math.round(s.price * 100)
      sums.fee += Math.round((s.transaction_fee ?? 0) * 100)
    }
  }
  if (!sums) return { energy_kwh: r2(kwh), price: null, transaction_fee: null, total: null }
  return { energy_kwh: r2(kwh), price: sums.price / 100, transaction_fee: sums.fee / 100, total: (sums.price + sums.fee) / 100 }
}

/**
 * Price in Rappen of energy split into high and low tariff kWh (flat tariff: one price for all): the sum of
 * the session's price lines, each rounded to the centime (shared/rules/price-lines.ts).
 */
export function priceRappen(highKwh: number, lowKwh: number, t: TariffInForce | null): number {
  return priceLines(highKwh, lowKwh, t).totalRappen
}

/**
 * The list's and export's filters: period (start__gte, end__lte, running), relay topic (active_since),
 * state (status), station and person (station_id, user_id; see checkFilters).
 */
type SessionFilter = { start__gte?: string; end__lte?: string; active_since?: string; running?: 'true' | 'false'; status?: ChargingSession['status']; station_id?: number; user_id?: number }

/**
 * Charging sessions (SPEC §3): the list with rights and cost visibility, and the device side that opens
 * a session on badge-in, adds energy step by step (split into high and low tariff by the schedule in
 * installation-local time) and closes it when the car leaves.
 */
type SessionJoinRow = Selectable<ChargingSessionsTable> & { station_name: string; rfid_tag: string | null; first_name?: string | null; last_name?: string | null }

/**
 * A stored session as the API answers it (SPEC §3); `invoice_url` once it has ended. `idle` marks an open
 * session that received no energy for CHARGER_TRUST.idleAfterMs before `now` ("plugged in, not charging").
 */
function toSession(s: SessionJoinRow, now?: Date): ChargingSession {
  const lastEnergy = s.last_energy_at ?? s.start
  return {
    id: s.id,
    station_id: s.station_id,
    station_name: s.station_name,
    rfid_id: s.rfid_id,
    rfid_tag: s.rfid_tag,
    user_id: s.user_id,
    start: s.start.toISOString(),
    end: s.end?.toISOString() ?? null,
    energy_kwh: r2(s.energy_kwh),
    high_kwh: r2(s.high_kwh),
    low_kwh: r2(s.low_kwh),
    // SPEC §3 as the invoice prints it: the energy price (the sum of its price lines), the card fee, their sum.
    price: s.price_rappen / 100,
    transaction_fee: s.fee_rappen / 100,
    total: (s.price_rappen + s.fee_rappen) / 100,
    price_per_kwh: pricePerKwh(s.price_rappen / 100, s.energy_kwh, EMPTY_KWH),
    status: s.status,
    paid_on: s.paid_on?.toISOString() ?? null,
    set_by_timer: s.set_by_timer,
    // An invoice once it ended and is billed (not held, void or empty: docs/decisions.md "Charging: plausible charger figures and debit ceilings").
    invoice_url: s.end && (s.status === 'paid' || s.status === 'unpaid') ? `/api/rfids-charge/${s.id}/invoice` : null,
    idle: s.end === null && now !== undefined && now.getTime() - lastEnergy.getTime() >= CHARGER_TRUST.idleAfterMs,
    hold_reason: s.hold_reason,
    end_reason: s.end_reason,
    flags: s.flags ?? [],
    ...(s.first_name === undefined ? {} : { user_name: s.user_id != null ? `${s.first_name ?? ''} ${s.last_name ?? ''}`.trim() || null : null }),
  }
}

export function createSessionService({ db, clock, installations, tariffs }: { db: Db; clock: Clock; installations: InstallationService; tariffs: TariffService }) {
  /**
   * Sessions as answered, each with its price lines at the tariff valid on its start day and its solar share
   * and effective charging time (insights.ts), and a running session's time to its charge plan
   * (`remaining_s`, remaining.ts; null without a plan).
   */
  async function withLines(rows: SessionJoinRow[], installationId: number): Promise<ChargingSession[]> {
    if (!rows.length) return []
    const tz = (await installations.describe(installationId)).timezone
    const now = clock.now()
    const [insights, remaining] = await Promise.all([sessionInsights(db, rows, now), planRemaining(db, rows, now)])
    return Promise.all(rows.map(async (r) => ({
      ...toSession(r, now),
      price_lines: priceLines(r.high_kwh, r.low_kwh, await tariffs.inForce(installationId, r.start, tz)).lines,
      ...insights.get(r.id),
      remaining_s: remaining.get(r.id) ?? null,
    })))
  }

  /**
   * The station and person filters of the list and the export: 404 when `station_id` is not a station of
   * the installation the caller may read or `user_id` not a user of it; 403 when someone other than an
   * admin asks for another person's sessions (they see only their own).
   */
  async function checkFilters(access: Awaited<ReturnType<InstallationService['access']>>, installationId: number, q: { station_id?: number; user_id?: number }) {
    if (q.station_id !== undefined) {
      const st = await db.selectFrom('charging_stations').select('id').where('id', '=', q.station_id).where('installation_id', '=', installationId).executeTakeFirst()
      if (!st || !mayReadStation(access, st.id)) throw NotFound()
    }
    if (q.user_id !== undefined) {
      const member = await db.selectFrom('installation_users').select('user_id').where('installation_id', '=', installationId).where('user_id', '=', q.user_id).executeTakeFirst()
      if (!member && q.user_id !== access.user_id) throw NotFound()
      if (!isAdmin(access.role) && q.user_id !== access.user_id) throw Forbidden()
    }
  }

  /** The sessions of a period the caller may see, running first, then newest end first. */
  async function visibleRows(actor: Actor, installationId: number, q: SessionFilter) {
    const access = await installations.access(actor, installationId)
    await checkFilters(access, installationId, q)
    let query = db
      .selectFrom('charging_sessions as cs')
      .innerJoin('charging_stations as s', 's.id', 'cs.station_id')
      .leftJoin('rfids as r', 'r.id', 'cs.rfid_id')
      .leftJoin('users as u', 'u.id', 'cs.user_id')
      .where('cs.installation_id', '=', installationId)
    if (q.start__gte) query = query.where('cs.start', '>=', new Date(q.start__gte))
    if (q.end__lte) {
      const end = new Date(q.end__lte)
      // Running sessions have no end: with running=true those that started in the period come too.
      query = q.running === 'true'
        ? query.where((eb) => eb.or([eb('cs.end', '<=', end), eb.and([eb('cs.end', 'is', null), eb('cs.start', '<=', end)])]))
        : query.where('cs.end', '<=', end)
    }
    if (q.status) query = query.where('cs.status', '=', q.status)
    if (q.station_id !== undefined) query = query.where('cs.station_id', '=', q.station_id)
    if (q.user_id !== undefined) query = query.where('cs.user_id', '=', q.user_id)
    if (q.active_since) {
      const since = new Date(q.active_since)
      query = query.where((eb) => eb.or([eb('cs.end', 'is', null), eb('cs.end', '>=', since)]))
    }
    const rows = await query
      .selectAll('cs')
      .select(['s.name as station_name', 'r.tag as rfid_tag', 'u.first_name', 'u.last_name'])
      // Newest end first (the list shows end dates); sessions still charging come first.
      .orderBy(sql`cs."end" DESC NULLS FIRST`)
      .orderBy('cs.start', 'desc')
      .orderBy('cs.id', 'desc')
      .execute()
    return { access, rows: rows.filter((r) => maySeeSession(toSession(r), access)) }
  }
  return {
    /**
     * GET /api/rfids-charge/: sessions of an installation, running ones first (marked `status: charging`),
     * then newest end first. start__gte / end__lte bound the period (ended sessions); with
     * `running=true` the sessions still charging that started in the period come too;
     * active_since keeps sessions still open or ended since then (the relay's topic); `status` keeps the
     * sessions in that state (`held`: those waiting for an admin's review). `totals` sums the
     * whole period the caller may see, not just the page: kWh, and CHF of the prices the caller sees
     * (null when they see none).
     */
    async list(
      actor: Actor,
      installationId: number,
      q: SessionFilter & { limit: number; offset: number },
    ): Promise<PageOf<ChargingSession> & { totals: SessionTotals }> {
      const { access, rows } = await visibleRows(actor, installationId, q)
      const page = await withLines(rows.slice(q.offset, q.offset + q.limit), installationId)
      return { count: rows.length, next: null, previous: null, results: page.map((s) => projectSession(s, access)), totals: totalsOf(rows.map((r) => projectSession(toSession(r), access))) }
    },

    /**
     * Every session of the period the caller may see (as {@link list} without paging), projected, with
     * the owner's name where the personal-data rule shows it: the rows of the CSV/XLSX export, and the
     * installation's time zone they are shown in.
     */
    async all(actor: Actor, installationId: number, q: Omit<SessionFilter, 'active_since' | 'status'>): Promise<{ sessions: ChargingSession[]; totals: SessionTotals; admin: boolean; timezone: string }> {
      const { access, rows } = await visibleRows(actor, installationId, q)
      const insights = await sessionInsights(db, rows, clock.now())
      const sessions = rows.map((r) => projectSession({ ...toSession(r, clock.now()), ...insights.get(r.id) }, access))
      return { sessions, totals: totalsOf(sessions), admin: isAdmin(access.role), timezone: (await installations.describe(installationId)).timezone }
    },

    /**
     * GET /api/rfids-charge/{id}/: one session with the caller's rights (the installation comes from the
     * session). 404 "Session is not found" (SPEC §8) when unknown or not visible; 403 when the caller has
     * no role in its installation.
     */
    async get(actor: Actor, sessionId: number): Promise<ChargingSession> {
      const row = await db
        .selectFrom('charging_sessions as cs')
        .innerJoin('charging_stations as s', 's.id', 'cs.station_id')
        .leftJoin('rfids as r', 'r.id', 'cs.rfid_id')
        .where('cs.id', '=', sessionId)
        .selectAll('cs')
        .select(['s.name as station_name', 'r.tag as rfid_tag'])
        .executeTakeFirst()
      if (!row) throw new AppError(404, 'sessionNotFound')
      const access = await installations.access(actor, row.installation_id)
      if (!maySeeSession(toSession(row), access)) throw new AppError(404, 'sessionNotFound')
      const [session] = await withLines([row], row.installation_id)
      return projectSession(session, access)
    },

    /** Whether the caller may see who charged session `sessionId` (shared/rules/visibility.ts); false when unknown. */
    async personVisible(actor: Actor, sessionId: number): Promise<boolean> {
      const row = await db.selectFrom('charging_sessions').select(['installation_id', 'user_id', 'rfid_id']).where('id', '=', sessionId).executeTakeFirst()
      return row ? maySeeSessionPerson(row, await installations.access(actor, row.installation_id)) : false
    },

    /** The installation of a session, or null when unknown (invoices). */
    async installationOf(sessionId: number): Promise<number | null> {
      return (await db.selectFrom('charging_sessions').select('installation_id').where('id', '=', sessionId).executeTakeFirst())?.installation_id ?? null
    },

    /** Device side: open a session at badge-in (or plug-in without badge). Returns its id. */
    async start(input: { installationId: number; stationId: number; rfidId: number | null; userId: number | null; at: Date; setByTimer?: boolean }): Promise<number> {
      const row = await db
        .insertInto('charging_sessions')
        .values({
          installation_id: input.installationId, station_id: input.stationId, rfid_id: input.rfidId, user_id: input.userId,
          start: input.at, end: null, status: 'charging', energy_kwh: 0, high_kwh: 0, low_kwh: 0, price_rappen: 0, fee_rappen: 0, paid_on: null, set_by_timer: input.setByTimer ?? false,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** Device side: add `kwh` charged at `at`; the tariff in force at the session's start prices it. */
    async addEnergy(sessionId: number, kwh: number, at: Date, installationId: number, tz: string): Promise<void> {
      if (kwh <= 0) return
      const high = await tariffs.isHigh(installationId, at, tz)
      const s = await db.selectFrom('charging_sessions').select(['start', 'high_kwh', 'low_kwh']).where('id', '=', sessionId).executeTakeFirstOrThrow()
      const highKwh = s.high_kwh + (high ? kwh : 0)
      const lowKwh = s.low_kwh + (high ? 0 : kwh)
      const t = await tariffs.inForce(installationId, s.start, tz)
      await db
        .updateTable('charging_sessions')
        .set({ energy_kwh: sql`energy_kwh + ${kwh}`, high_kwh: highKwh, low_kwh: lowKwh, price_rappen: priceRappen(highKwh, lowKwh, t), last_energy_at: sql`greatest(last_energy_at, ${at}::timestamptz)` })
        .where('id', '=', sessionId)
        .execute()
    },

    /**
     * Device side, batched (the OCPP meter batch, docs/decisions.md "OCPP: meter values in batches"): add high-
     * and low-tariff kWh to many sessions in two statements whatever their number (one read, one multi-row
     * update), each priced by the tariff in force at its start. Rows of one session are summed; unknown sessions
     * are skipped.
     */
    async addEnergyMany(rows: { sessionId: number; highKwh: number; lowKwh: number; at: Date }[], installationTz: (installationId: number) => Promise<string>): Promise<void> {
      const add = new Map<number, { high: number; low: number; at: Date }>()
      for (const r of rows) {
        if (r.highKwh + r.lowKwh <= 0) continue
        const a = add.get(r.sessionId) ?? { high: 0, low: 0, at: r.at }
        a.high += r.highKwh
        a.low += r.lowKwh
        if (r.at > a.at) a.at = r.at
        add.set(r.sessionId, a)
      }
      if (!add.size) return
      const current = await db.selectFrom('charging_sessions').select(['id', 'installation_id', 'start', 'high_kwh', 'low_kwh']).where('id', 'in', [...add.keys()]).execute()
      const values = []
      for (const s of current) {
        const a = add.get(s.id)!
        const t = await tariffs.inForce(s.installation_id, s.start, await installationTz(s.installation_id))
        const high = s.high_kwh + a.high
        const low = s.low_kwh + a.low
        values.push(sql`(${s.id}::int, ${a.high + a.low}::float8, ${high}::float8, ${low}::float8, ${priceRappen(high, low, t)}::int, ${a.at}::timestamptz)`)
      }
      if (!values.length) return
      await sql`UPDATE charging_sessions AS s SET energy_kwh = s.energy_kwh + v.kwh, high_kwh = v.high, low_kwh = v.low, price_rappen = v.price,
        last_energy_at = greatest(s.last_energy_at, v.at)
        FROM (VALUES ${sql.join(values)}) AS v(id, kwh, high, low, price, at) WHERE s.id = v.id`.execute(db)
    },

    /**
     * Device side: add energy already split into high- and low-tariff kWh (the backfill's sums), priced by
     * the tariff in force at the session's start.
     */
    async addSplit(sessionId: number, highKwh: number, lowKwh: number, installationId: number, tz: string): Promise<void> {
      if (highKwh + lowKwh <= 0) return
      const s = await db.selectFrom('charging_sessions').select(['start', 'high_kwh', 'low_kwh']).where('id', '=', sessionId).executeTakeFirstOrThrow()
      const t = await tariffs.inForce(installationId, s.start, tz)
      const high = s.high_kwh + highKwh
      const low = s.low_kwh + lowKwh
      await db.updateTable('charging_sessions').set({ energy_kwh: high + low, high_kwh: high, low_kwh: low, price_rappen: priceRappen(high, low, t) }).where('id', '=', sessionId).execute()
    },

    /**
     * Device side: the car left (or the central system closed the session, `endReason`). The session becomes
     * unpaid (the payment job charges it), `held` when a charger figure put it on hold for review, or `empty`
     * below {@link EMPTY_KWH} (never billed: no "Unpaid CHF 0.00").
     */
    async finish(sessionId: number, at: Date, endReason: string | null = null): Promise<void> {
      // Never before its start (a clock set back, or a car the simulator saw leave earlier than it came).
      await db.updateTable('charging_sessions')
        .set({ end: sql`greatest(start, ${at})`, end_reason: endReason, status: sql`CASE WHEN hold_reason IS NOT NULL THEN 'held' WHEN energy_kwh < ${EMPTY_KWH} THEN 'empty' ELSE 'unpaid' END` })
        .where('id', '=', sessionId).where('end', 'is', null).execute()
    },

    /**
     * Payment side: mark a finished session paid with `method`, adding the card fee of
     * SPEC §9 (shared/rules/card-fees.ts) on its price. Returns false when it is not an unpaid session.
     */
    async markPaid(sessionId: number, method: PaymentMethodKind, at: Date): Promise<boolean> {
      const s = await db.selectFrom('charging_sessions').select(['price_rappen', 'status']).where('id', '=', sessionId).executeTakeFirst()
      if (!s || s.status !== 'unpaid') return false
      await db.updateTable('charging_sessions').set({ status: 'paid', paid_on: at, fee_rappen: transactionFeeRappen(method, s.price_rappen) }).where('id', '=', sessionId).execute()
      return true
    },

    /** Device side: sessions still open (after a restart the simulator closes or resumes them). */
    async open(installationId: number) {
      return db.selectFrom('charging_sessions').selectAll().where('installation_id', '=', installationId).where('end', 'is', null).execute()
    },

    /**
     * Device side, backfill: insert finished sessions in one statement, unpaid like a session the live
     * loop finishes (the payment job pays them).
     */
    async insertFinished(rows: { installation_id: number; station_id: number; rfid_id: number | null; user_id: number | null; start: Date; end: Date; high_kwh: number; low_kwh: number; price_rappen: number }[]): Promise<void> {
      if (!rows.length) return
      await db
        .insertInto('charging_sessions')
        .values(rows.map((r) => ({ ...r, energy_kwh: r.high_kwh + r.low_kwh, fee_rappen: 0, set_by_timer: false, status: 'unpaid' as const, paid_on: null })))
        .execute()
    },
  }
}
export type SessionService = ReturnType<typeof createSessionService>
