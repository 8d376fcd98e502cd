import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { PaymentMethodsTable } from '../../db/schema.ts'
import type { SessionService } from '../sessions/service.ts'
import { transactionFeeRappen } from '../../../shared/rules/card-fees.ts'
import { isExpired, monthOf } from '../../../shared/rules/card-expiry.ts'
import { dayjs, localParts } from '../../../shared/rules/formats.ts'
import { DEBIT_CEILING } from '../../../config/defaults.ts'
import type { SessionHoldReason } from '../ocpp/plausibility.ts'
import type { PaymentProvider } from './provider.ts'

/**
 * Waits after the 1st, 2nd, … declined charge of a session before the next try (SPEC §4, §9: retried
 * automatically within 24 hours); the last wait repeats. A new primary method is tried at the next run.
 */
export const RETRY_DELAYS_MS = [1, 3, 6, 12, 24].map((h) => h * 3600_000)
/** How long a charge run holds a session or an app fee it is debiting; a run that died frees it after this. */
export const CHARGE_LEASE_MS = 10 * 60_000

/**
 * What one charge run did: sessions `paid` and `declined`, monthly app fees charged (`app_fees`) and
 * declined (`app_fees_declined`).
 */
export interface ChargeRun {
  paid: number
  declined: number
  app_fees: number
  app_fees_declined: number
}

/**
 * Debiting stored payment methods (SPEC §4, §9; docs/decisions.md "Charging: plausible charger figures
 * and debit ceilings"): each attempt is stored with its idempotency key before the provider is asked, so
 * a run that dies never debits twice; sessions and monthly app fees are leased while a run debits them,
 * so runs in several processes charge each once; a session above its installation's debit ceiling is
 * held for review (`hold`) instead. → `{chargeTo, run}`: one attempt on a method, and one charge run.
 */
export function createDebits({ db, provider, sessions, hold }: {
  db: Db
  provider: PaymentProvider
  sessions: SessionService
  /** Hold a session for an admin's review instead of debiting it (domain/sessions/review.ts). */
  hold: (sessionId: number, reason: SessionHoldReason) => Promise<void>
}) {
  /**
   * Charge `amountRappen` + fee to `method` under the idempotency key `key`: the attempt is
   * stored `pending` with its key before the provider is asked, then settled. → `{ok, fee}`, or null when
   * another run stored the same key first (it owns that attempt).
   */
  async function chargeTo(m: Selectable<PaymentMethodsTable>, input: { userId: number; sessionId: number | null; appFeeId?: number; purpose: 'session' | 'rfid_order' | 'app_fee'; amountRappen: number; description: string; at: Date; key: string }) {
    const fee = transactionFeeRappen(m.kind, input.amountRappen)
    const expired = isExpired(m.exp_month, m.exp_year, monthOf(input.at))
    const sent = !expired && input.amountRappen > 0
    const row = await db.insertInto('payment_charges').values({
      user_id: input.userId, payment_method_id: m.id, session_id: input.sessionId, app_fee_id: input.appFeeId ?? null, purpose: input.purpose, amount_rappen: input.amountRappen,
      fee_rappen: fee, status: sent ? 'pending' : expired ? 'declined' : 'succeeded', reference: sent || expired ? null : 'zero', at: input.at, idempotency_key: input.key,
    }).onConflict((oc) => oc.column('idempotency_key').doNothing()).returning('id').executeTakeFirst()
    if (!row) return null
    if (!sent) return { ok: !expired, fee }
    return { ok: await send(row.id, m.token, input.amountRappen + fee, input.description, input.key), fee }
  }

  /** Ask the provider to debit under `key` and settle charge row `chargeId` with its answer. */
  async function send(chargeId: number, token: string, totalRappen: number, description: string, key: string): Promise<boolean> {
    const result = await provider.charge(token, totalRappen, description, key)
    await db.updateTable('payment_charges').set({ status: result.ok ? 'succeeded' : 'declined', reference: result.ok ? result.reference : null })
      .where('id', '=', chargeId).execute()
    return result.ok
  }

  /**
   * The unfinished attempt of a session or app fee still unpaid, left by a run that died:
   * its newest charge row when that is `pending` (maybe debited: resend the same key) or `succeeded`
   * (debited: only mark it paid). Null when the newest attempt was declined or there is none.
   */
  async function unfinished(item: { sessionId: number } | { appFeeId: number }) {
    return db.selectFrom('payment_charges as pc').leftJoin('payment_methods as pm', 'pm.id', 'pc.payment_method_id')
      .select(['pc.id', 'pc.status', 'pc.amount_rappen', 'pc.fee_rappen', 'pc.idempotency_key', 'pm.token', 'pm.kind'])
      .$if('sessionId' in item, (q) => q.where('pc.session_id', '=', (item as { sessionId: number }).sessionId))
      .$if('appFeeId' in item, (q) => q.where('pc.app_fee_id', '=', (item as { appFeeId: number }).appFeeId))
      .orderBy('pc.id', 'desc').executeTakeFirst()
      .then((r) => (r && r.status !== 'declined' ? r : null))
  }

  /**
   * Charge a leased session or app fee once: finish an attempt a dead run left (resending its key, so
   * the provider does not debit again), else a new attempt keyed `{kind}-{id}-{attempt number}`.
   * → `{ok, fee, kind}` (the method kind the fee was computed for), or null when it cannot be settled now.
   */
  async function chargeOnce(item: { sessionId: number } | { appFeeId: number }, m: Selectable<PaymentMethodsTable>, input: { userId: number; purpose: 'session' | 'app_fee'; amountRappen: number; description: string; at: Date }) {
    const left = await unfinished(item)
    if (left) {
      // The method of a pending attempt was removed since: without its token the attempt cannot be asked
      // about again, and a new attempt could debit twice, so it waits for an operator.
      if (!left.kind) return null
      if (left.status === 'succeeded') return { ok: true, fee: left.fee_rappen, kind: left.kind }
      if (!left.token || !left.idempotency_key) return null
      const ok = await send(left.id, left.token, left.amount_rappen + left.fee_rappen, input.description, left.idempotency_key)
      return { ok, fee: left.fee_rappen, kind: left.kind }
    }
    const where = 'sessionId' in item ? ['session_id', item.sessionId] as const : ['app_fee_id', item.appFeeId] as const
    const { n } = await db.selectFrom('payment_charges').select((eb) => eb.fn.countAll<number>().as('n')).where(where[0], '=', where[1]).executeTakeFirstOrThrow()
    const key = `${'sessionId' in item ? 'session' : 'app-fee'}-${where[1]}-${Number(n) + 1}`
    const r = await chargeTo(m, { ...input, sessionId: 'sessionId' in item ? item.sessionId : null, appFeeId: 'appFeeId' in item ? item.appFeeId : undefined, key })
    return r && { ...r, kind: m.kind }
  }

  /**
   * Whether a charge may be tried now after the earlier `tries` (newest first): not before the back-off
   * after a decline (RETRY_DELAYS_MS) unless the user's primary method changed since.
   */
  function retryDue(tries: { status: string; at: Date; payment_method_id: number | null }[], methodId: number, now: Date): boolean {
    const fails = tries.filter((t) => t.status === 'declined')
    if (!fails.length) return true
    const last = fails[0]
    const wait = RETRY_DELAYS_MS[Math.min(fails.length, RETRY_DELAYS_MS.length) - 1]
    return last.payment_method_id !== methodId || now.getTime() >= last.at.getTime() + wait
  }

  /**
   * Whether debiting `s` now would break a debit ceiling of its installation (its own, else DEBIT_CEILING;
   * docs/decisions.md "Charging: plausible charger figures and debit ceilings"): its price above the
   * per-session ceiling, or the user's session debits of this installation in the installation-local month
   * (succeeded or pending) plus its price above the monthly one. Null when it may be debited.
   */
  async function overCeiling(s: { price_rappen: number; user_id: number | null; installation_id: number; timezone: string; session_debit_ceiling_rappen: number | null; monthly_debit_ceiling_rappen: number | null }, now: Date): Promise<SessionHoldReason | null> {
    if (s.price_rappen > (s.session_debit_ceiling_rappen ?? DEBIT_CEILING.sessionRappen)) return 'sessionCeiling'
    const monthStart = dayjs(now).tz(s.timezone).startOf('month').toDate()
    const debited = await db.selectFrom('payment_charges as pc').innerJoin('charging_sessions as cs', 'cs.id', 'pc.session_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('pc.amount_rappen'), eb.val(0)).as('rappen'))
      .where('pc.user_id', '=', s.user_id!).where('pc.purpose', '=', 'session').where('pc.status', 'in', ['succeeded', 'pending'])
      .where('cs.installation_id', '=', s.installation_id).where('pc.at', '>=', monthStart).executeTakeFirst()
    return Number(debited?.rappen ?? 0) + s.price_rappen > (s.monthly_debit_ceiling_rappen ?? DEBIT_CEILING.monthRappen) ? 'monthCeiling' : null
  }

  /**
   * Debit a session or an app fee of a charge run with method `methodId`, when its retry is due
   * (retryDue) and this run wins its lease (CHARGE_LEASE_MS; a run in another process that found the same
   * item leaves it): chargeOnce, then `settle` with the result, which marks the item paid or not and frees
   * the lease. → chargeOnce's result; null when it was not tried (not due, leased elsewhere, unsettled).
   */
  async function debitLeased(item: { sessionId: number } | { appFeeId: number }, methodId: number, now: Date,
    input: { userId: number; purpose: 'session' | 'app_fee'; amountRappen: number; description: string },
    settle: (r: Awaited<ReturnType<typeof chargeOnce>>) => Promise<void>) {
    const charges = 'sessionId' in item ? ['session_id', item.sessionId] as const : ['app_fee_id', item.appFeeId] as const
    const tries = await db.selectFrom('payment_charges').select(['status', 'at', 'payment_method_id']).where(charges[0], '=', charges[1]).orderBy('at', 'desc').orderBy('id', 'desc').execute()
    if (!retryDue(tries, methodId, now)) return null
    const until = new Date(now.getTime() + CHARGE_LEASE_MS)
    const claimed = 'sessionId' in item
      ? await db.updateTable('charging_sessions').set({ charge_claimed_until: until }).where('id', '=', item.sessionId).where('status', '=', 'unpaid')
        .where((eb) => eb.or([eb('charge_claimed_until', 'is', null), eb('charge_claimed_until', '<=', now)])).returning('id').executeTakeFirst()
      : await db.updateTable('app_fees').set({ claimed_until: until }).where('id', '=', item.appFeeId).where('status', '=', 'unpaid')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)])).returning('id').executeTakeFirst()
    if (!claimed) return null
    const m = await db.selectFrom('payment_methods').selectAll().where('id', '=', methodId).executeTakeFirstOrThrow()
    const r = await chargeOnce(item, m, { ...input, at: now })
    await settle(r)
    return r
  }

  /** One charge run (see chargeDue); also drops checkouts expired for a day. */
  async function chargeDueNow(now: Date): Promise<ChargeRun> {
    await db.deleteFrom('payment_checkouts').where('expires_at', '<', new Date(now.getTime() - 86_400_000)).execute()
    // Sessions without a user are never charged to a card (nobody's card; they keep their QR-bill invoice).
    const due = await db.selectFrom('charging_sessions as cs')
      .innerJoin('installations as i', 'i.id', 'cs.installation_id')
      .innerJoin('payment_methods as pm', (j) => j.onRef('pm.user_id', '=', 'cs.user_id').on('pm.favourite', '=', true))
      .select(['cs.id', 'cs.user_id', 'cs.price_rappen', 'cs.installation_id', 'cs.reviewed_at', 'pm.id as method_id', 'i.timezone', 'i.session_debit_ceiling_rappen', 'i.monthly_debit_ceiling_rappen'])
      .where('cs.status', '=', 'unpaid').where('cs.end', 'is not', null).where('cs.end', '<=', now).where('i.pay_enabled', '=', true)
      .orderBy('cs.end').execute()
    let paid = 0
    let declined = 0
    for (const s of due) {
      // Above a debit ceiling a session waits for an admin's release instead of being debited.
      const over = s.reviewed_at ? null : await overCeiling(s, now)
      if (over) {
        await hold(s.id, over)
        continue
      }
      const r = await debitLeased({ sessionId: s.id }, s.method_id, now, { userId: s.user_id!, purpose: 'session', amountRappen: s.price_rappen, description: `Charging session CS-${s.id}` },
        async (r) => {
          if (r?.ok && (await sessions.markPaid(s.id, r.kind, now))) paid++
          await db.updateTable('charging_sessions').set({ charge_claimed_until: null }).where('id', '=', s.id).execute()
        })
      if (r && !r.ok) declined++
    }
    return { paid, declined, ...(await chargeAppFees(now)) }
  }

  /**
   * The monthly app fee (SPEC §1, §9): every member of a pay-enabled installation with a
   * primary payment method owes, for each installation-local month, the basic tariff of the tariff valid
   * on that month's first day (nothing when it is 0), charged with the card fee at the first run of the
   * month. The row is created once (unique user + installation + month) and leased before the debit, so
   * overlapping runs, in this process or another, charge it once. Declines are retried like sessions.
   */
  async function chargeAppFees(now: Date): Promise<{ app_fees: number; app_fees_declined: number }> {
    const members = await db.selectFrom('installation_users as iu')
      .innerJoin('installations as i', 'i.id', 'iu.installation_id')
      .innerJoin('payment_methods as pm', (j) => j.onRef('pm.user_id', '=', 'iu.user_id').on('pm.favourite', '=', true))
      .select(['iu.user_id', 'iu.installation_id', 'i.timezone'])
      .where('i.pay_enabled', '=', true).execute()
    for (const m of members) {
      const month = localParts(now, m.timezone).date.slice(0, 7)
      const tariff = await db.selectFrom('tariffs').select('basic_rappen').where('installation_id', '=', m.installation_id)
        .where('valid_from', '<=', `${month}-01`).where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>=', `${month}-01`)]))
        .orderBy('valid_from', 'desc').executeTakeFirst()
      if (!tariff || tariff.basic_rappen <= 0) continue
      await db.insertInto('app_fees').values({ user_id: m.user_id, installation_id: m.installation_id, month, amount_rappen: tariff.basic_rappen, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'installation_id', 'month']).doNothing()).execute()
    }
    const open = await db.selectFrom('app_fees as f')
      .innerJoin('payment_methods as pm', (j) => j.onRef('pm.user_id', '=', 'f.user_id').on('pm.favourite', '=', true))
      .innerJoin('installations as i', 'i.id', 'f.installation_id')
      .select(['f.id', 'f.user_id', 'f.month', 'f.amount_rappen', 'pm.id as method_id', 'i.name'])
      .where('f.status', '=', 'unpaid').where('f.created_at', '<=', now).where('i.pay_enabled', '=', true)
      .orderBy('f.month').orderBy('f.id').execute()
    let charged = 0
    let declined = 0
    for (const f of open) {
      const r = await debitLeased({ appFeeId: f.id }, f.method_id, now, { userId: f.user_id, purpose: 'app_fee', amountRappen: f.amount_rappen, description: `App fee ${f.month} ${f.name}` },
        (r) => db.updateTable('app_fees').set(r?.ok ? { status: 'paid', paid_on: now, fee_rappen: r.fee, claimed_until: null } : { claimed_until: null }).where('id', '=', f.id).execute().then(() => undefined))
      if (r?.ok) charged++
      else if (r) declined++
    }
    return { app_fees: charged, app_fees_declined: declined }
  }
  return { chargeTo, run: chargeDueNow }
}

export type Debits = ReturnType<typeof createDebits>
