import crypto from 'node:crypto'
import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { PaymentMethodsTable } from '../../db/schema.ts'
import type { Actor } from '../auth/service.ts'
import type { SessionService } from '../sessions/service.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { transactionFeeRappen } from '../../../shared/rules/card-fees.ts'
import { isAboutToExpire, isExpired, monthOf } from '../../../shared/rules/card-expiry.ts'
import { dayjs, localParts } from '../../../shared/rules/formats.ts'
import { DEBIT_CEILING } from '../../../config/defaults.ts'
import type { SessionHoldReason } from '../ocpp/plausibility.ts'
import type { AuthorisedMethod, CheckoutInput, PaymentProvider } from './provider.ts'
import type { StripeProvider } from './stripe-provider.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { AppFee, PaymentInfo } from '../../../shared/schemas/payment.ts'
import type { Clock } from '../../lib/clock.ts'

/**
 * Waits after the 1st, 2nd, … declined charge of a session before the next try (SPEC §4, §9: retried
 * automatically within 24 hours); the last wait repeats. A new primary method is tried at the next run.
 */
export const RETRY_DELAYS_MS = [1, 3, 6, 12, 24].map((h) => h * 3600_000)
/** How long a checkout session stays open. */
export const CHECKOUT_TTL_MS = 30 * 60_000
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

export type WebhookEvent =
  | { type: 'checkout.completed'; session: string; method: AuthorisedMethod }
  | { type: 'checkout.failed' | 'checkout.cancelled'; session: string }

/**
 * Payments (SPEC §2 payment methods, §4, §7, §9) behind a provider (provider.ts): a user's methods, the
 * hosted checkout that adds one, the signed webhook that stores it, and charging unpaid sessions and RFID
 * card orders to the primary method with the card fee. A user manages only their own methods; nobody,
 * not even a superuser, reads another user's card data. Functions that take `now` default to `clock`'s
 * (ARCHITECTURE §1 "Time"); callers replaying history (the simulator's backfill) pass their own.
 */
export function createPaymentService({ db, clock, sessions, provider, secret, hold, publicUrl = '' }: {
  db: Db
  clock: Clock
  sessions: SessionService
  /** The demo provider, or one with a hosted checkout of its own and signed events (Stripe). */
  provider: PaymentProvider & Partial<Pick<StripeProvider, 'createCustomer' | 'openCheckout' | 'event'>>
  /** This app's address (PUBLIC_URL): a provider's hosted page sends the user back to it. */
  publicUrl?: string
  secret: Uint8Array
  /** Hold a session for an admin's review instead of debiting it (domain/sessions/review.ts). */
  hold: (sessionId: number, reason: SessionHoldReason) => Promise<void>
}) {
  const webhookKey = crypto.createHmac('sha256', Buffer.from(secret)).update('payments-webhook').digest()

  function requireSelf(actor: Actor, userId: number) {
    if (actor.id !== userId) throw Forbidden()
  }

  async function failedMethodIds(userId: number): Promise<Set<number>> {
    // The newest attempt per method decides: a later success clears the notice.
    const rows = await db.selectFrom('payment_charges').select(['payment_method_id', 'status', 'at', 'id'])
      .where('user_id', '=', userId).where('payment_method_id', 'is not', null).orderBy('at', 'desc').orderBy('id', 'desc').execute()
    const seen = new Set<number>()
    const failed = new Set<number>()
    for (const r of rows) {
      if (seen.has(r.payment_method_id!)) continue
      seen.add(r.payment_method_id!)
      if (r.status === 'declined') failed.add(r.payment_method_id!)
    }
    return failed
  }

  function toInfo(m: Selectable<PaymentMethodsTable>, failed: Set<number>, now: Date): PaymentInfo {
    return {
      id: m.id, alias: m.alias, favourite: m.favourite, kind: m.kind, brand: m.brand, masked: m.masked,
      exp_month: m.exp_month, exp_year: m.exp_year,
      about_to_expire: isAboutToExpire(m.exp_month, m.exp_year, monthOf(now)),
      charge_failed: failed.has(m.id),
    }
  }

  async function own(actor: Actor, userId: number, methodId: number) {
    requireSelf(actor, userId)
    const m = await db.selectFrom('payment_methods').selectAll().where('id', '=', methodId).where('user_id', '=', userId).executeTakeFirst()
    if (!m) throw NotFound()
    return m
  }

  async function primaryOf(userId: number) {
    return db.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).where('favourite', '=', true).executeTakeFirst()
  }

  async function setFavourite(userId: number, methodId: number) {
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('payment_methods').set({ favourite: false }).where('user_id', '=', userId).where('id', '!=', methodId).execute()
      await tx.updateTable('payment_methods').set({ favourite: true }).where('id', '=', methodId).execute()
    })
  }

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

  let chargeRun: Promise<void> = Promise.resolve()
  /** Store what a checkout ended with (see webhook) → where the user goes next. Idempotent. */
  async function settle(event: WebhookEvent): Promise<{ redirect: string }> {
    const c = await db.selectFrom('payment_checkouts').selectAll().where('id', '=', event.session).executeTakeFirst()
    if (!c) throw NotFound()
    if (c.status !== 'pending') return { redirect: c.status === 'completed' ? c.success_url : c.status === 'cancelled' ? c.cancel_url : c.error_url }
    if (event.type === 'checkout.completed') {
      const m = event.method
      const hasPrimary = await primaryOf(c.user_id)
      const row = await db.insertInto('payment_methods').values({
        user_id: c.user_id, kind: m.kind, brand: m.brand, masked: m.masked, exp_month: m.exp_month, exp_year: m.exp_year,
        favourite: !hasPrimary, provider: provider.name, token: m.token, alias: '', created_at: clock.now(),
      }).returning('id').executeTakeFirstOrThrow()
      await db.updateTable('payment_checkouts').set({ status: 'completed', payment_method_id: row.id }).where('id', '=', c.id).execute()
      return { redirect: c.success_url }
    }
    const status = event.type === 'checkout.cancelled' ? 'cancelled' : 'failed'
    await db.updateTable('payment_checkouts').set({ status }).where('id', '=', c.id).execute()
    return { redirect: status === 'cancelled' ? c.cancel_url : c.error_url }
  }

  const service = {
    provider,

    /** GET /api/users/{id}/payment-info/: the caller's own methods, primary first (403 for another user). */
    async list(actor: Actor, userId: number, now = clock.now()): Promise<PageOf<PaymentInfo>> {
      requireSelf(actor, userId)
      const [rows, failed] = await Promise.all([
        db.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).orderBy('favourite', 'desc').orderBy('id').execute(),
        failedMethodIds(userId),
      ])
      const results = rows.map((m) => toInfo(m, failed, now))
      return { count: results.length, next: null, previous: null, results }
    },

    /**
     * GET /api/users/{id}/app-fees/: the caller's monthly app fees (SPEC §9), newest month first, each with
     * its invoice (403 for another user, like payment info).
     */
    async appFees(actor: Actor, userId: number): Promise<AppFee[]> {
      requireSelf(actor, userId)
      const rows = await db.selectFrom('app_fees as f').innerJoin('installations as i', 'i.id', 'f.installation_id')
        .selectAll('f').select('i.name as installation_name').where('f.user_id', '=', userId).orderBy('f.month', 'desc').orderBy('f.id', 'desc').execute()
      return rows.map((f) => ({
        id: f.id, installation_id: f.installation_id, installation_name: f.installation_name, month: f.month,
        amount: f.amount_rappen / 100, transaction_fee: f.fee_rappen / 100, total: (f.amount_rappen + f.fee_rappen) / 100,
        status: f.status, paid_on: f.paid_on?.toISOString() ?? null, invoice_url: `/api/users/${userId}/app-fees/${f.id}/invoice`,
      }))
    },

    /** One of the caller's app fees with its installation (invoices); 403 for another user, 404 unknown. */
    async appFee(actor: Actor, userId: number, feeId: number) {
      requireSelf(actor, userId)
      const f = await db.selectFrom('app_fees as f').innerJoin('installations as i', 'i.id', 'f.installation_id')
        .selectAll('f').select(['i.name as installation_name', 'i.timezone', 'i.operator']).where('f.id', '=', feeId).where('f.user_id', '=', userId).executeTakeFirst()
      if (!f) throw NotFound()
      return f
    },

    /** GET /api/users/{id}/payment-info/{payment_info_id}/. */
    async get(actor: Actor, userId: number, methodId: number): Promise<PaymentInfo> {
      return toInfo(await own(actor, userId, methodId), await failedMethodIds(userId), clock.now())
    },

    /** PUT/PATCH: `alias` and/or `favourite` (1/true makes it the primary method; only one is). */
    async update(actor: Actor, userId: number, methodId: number, patch: { alias?: string; favourite?: boolean }): Promise<PaymentInfo> {
      await own(actor, userId, methodId)
      if (patch.alias !== undefined) await db.updateTable('payment_methods').set({ alias: patch.alias }).where('id', '=', methodId).execute()
      if (patch.favourite === true) await setFavourite(userId, methodId)
      if (patch.favourite === false) throw new Invalid({ favourite: ['invalidValue'] })
      return this.get(actor, userId, methodId)
    },

    /** DELETE: removes the method; when it was primary, the newest remaining one becomes primary. */
    async remove(actor: Actor, userId: number, methodId: number): Promise<void> {
      const m = await own(actor, userId, methodId)
      await db.deleteFrom('payment_methods').where('id', '=', methodId).execute()
      if (m.favourite) {
        const next = await db.selectFrom('payment_methods').select('id').where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst()
        if (next) await setFavourite(userId, next.id)
      }
    },

    /**
     * POST /api/payments/process/: open a hosted checkout to add a method. The return URLs must be on
     * this app (a path, or an absolute URL of `allowedOrigins`); only their path and query are kept, so
     * the checkout never redirects elsewhere. → `{session, redirect_url}`.
     */
    async process(actor: Actor, urls: { success_url: string; error_url: string; cancel_url: string }, allowedOrigins: string[], now = clock.now()) {
      const keep: Record<string, string> = {}
      const bad: Record<string, ['invalidValue']> = {}
      for (const [k, v] of Object.entries(urls)) {
        const local = v.startsWith('/') && !v.startsWith('//') && !v.includes('\\')
        let url: URL | null = null
        try {
          url = new URL(v, 'http://app.invalid')
        } catch {
          url = null
        }
        if (!url || (!local && !allowedOrigins.includes(url.origin))) bad[k] = ['invalidValue']
        else keep[k] = url.pathname + url.search + url.hash
      }
      if (Object.keys(bad).length) throw new Invalid(bad)
      const id = crypto.randomBytes(24).toString('base64url')
      const expires = new Date(now.getTime() + CHECKOUT_TTL_MS)
      await db.insertInto('payment_checkouts').values({
        id, user_id: actor.id, success_url: keep.success_url, error_url: keep.error_url, cancel_url: keep.cancel_url, payment_method_id: null,
        expires_at: expires, created_at: now,
      }).execute()
      if (!provider.openCheckout || !provider.createCustomer) return { session: id, redirect_url: provider.checkoutUrl(id) }
      // A provider's hosted page (Stripe Checkout in setup mode) for the user's customer there, made once.
      let customer = (await db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', actor.id).where('provider', '=', provider.name).executeTakeFirst())?.customer_id
      if (!customer) {
        const email = (await db.selectFrom('users').select('email').where('id', '=', actor.id).executeTakeFirstOrThrow()).email
        customer = await provider.createCustomer(actor.id, email)
        await db.insertInto('payment_customers').values({ user_id: actor.id, provider: provider.name, customer_id: customer }).onConflict((oc) => oc.columns(['user_id', 'provider']).doNothing()).execute()
      }
      const opened = await provider.openCheckout({ checkoutId: id, customerId: customer, successUrl: publicUrl + keep.success_url, cancelUrl: publicUrl + keep.cancel_url })
      await db.updateTable('payment_checkouts').set({ provider_ref: opened.providerRef }).where('id', '=', id).execute()
      return { session: id, redirect_url: opened.redirectUrl }
    },

    /** The open checkout `id` (pending, not expired), or null. */
    async checkout(id: string, now = clock.now()) {
      const c = await db.selectFrom('payment_checkouts').selectAll().where('id', '=', id).executeTakeFirst()
      return c && c.status === 'pending' && c.expires_at > now ? c : null
    },

    /** Demo checkout: authorise what the user entered (no debit, SPEC §9) and build the webhook event. */
    authorise(sessionId: string, input: CheckoutInput | 'cancel', now = clock.now()): WebhookEvent {
      if (input === 'cancel') return { type: 'checkout.cancelled', session: sessionId }
      const r = provider.authorise(input, monthOf(now))
      return r.ok ? { type: 'checkout.completed', session: sessionId, method: r.method } : { type: 'checkout.failed', session: sessionId }
    },

    /** The signature header value of a webhook body (HMAC-SHA256, hex). */
    sign(body: string): string {
      return crypto.createHmac('sha256', webhookKey).update(body).digest('hex')
    },

    /**
     * POST /api/payments/webhook/: a signed provider event. Completed stores the method (the first one
     * becomes primary); failed and cancelled close the checkout. Idempotent; 400 for a bad signature.
     * → where the user goes next (the checkout's success, error or cancel path).
     */
    async webhook(rawBody: string, signature: string | undefined): Promise<{ redirect: string }> {
      const expected = Buffer.from(this.sign(rawBody), 'hex')
      const given = Buffer.from(signature ?? '', 'hex')
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new AppError(400, 'invalidSignature')
      return settle(JSON.parse(rawBody) as WebhookEvent)
    },

    /**
     * POST /api/payments/stripe/webhook/: an event of the configured provider (Stripe), verified with its
     * webhook secret (400 invalidSignature otherwise; 404 when the provider has no events). A completed
     * checkout stores the method, like {@link webhook}; events this app does not use are acknowledged.
     */
    async providerEvent(rawBody: string, signature: string | undefined): Promise<{ received: true }> {
      if (!provider.event) throw NotFound()
      let event: Awaited<ReturnType<NonNullable<typeof provider.event>>>
      try {
        event = await provider.event(rawBody, signature)
      } catch (err) {
        if ((err as { type?: string }).type === 'StripeSignatureVerificationError') throw new AppError(400, 'invalidSignature')
        throw err
      }
      if (event) await settle(event.type === 'checkout.completed' ? { type: event.type, session: event.checkout, method: event.method } : { type: event.type, session: event.checkout })
      return { received: true }
    },

    /**
     * Charge every unpaid session of pay-enabled installations that ended by `now` to its user's primary
     * method (SPEC §9 fee through sessions.markPaid), then the month's app fees (chargeAppFees). A declined
     * charge stays unpaid and is retried after RETRY_DELAYS_MS, or at the next run once the user has
     * chosen another primary method. The simulator's backfill replays history through this too.
     */
    async chargeDue(now = clock.now()): Promise<ChargeRun> {
      // One run at a time in this process (the job and the superuser hook), so no session is charged twice.
      const previous = chargeRun
      let release!: () => void
      chargeRun = new Promise<void>((r) => (release = r))
      await previous
      try {
        return await chargeDueNow(now)
      } finally {
        release()
      }
    },

    /**
     * Charge an RFID card order (SPEC §9: CHF 25 a card, charged to the stored card) plus the card fee to
     * the caller's primary method. 400 without a stored method; 402 "Charging this payment method
     * failed, please revise" when declined.
     */
    async chargeOrder(actor: Actor, amountRappen: number, description: string, now = clock.now()): Promise<{ feeRappen: number }> {
      const m = await primaryOf(actor.id)
      if (!m) throw new AppError(400, 'paymentMethodMissing')
      // An order is charged once per request; its key only has to be unique.
      const r = await chargeTo(m, { userId: actor.id, sessionId: null, purpose: 'rfid_order', amountRappen, description, at: now, key: `rfid-order-${crypto.randomUUID()}` })
      if (!r?.ok) throw new AppError(402, 'paymentFailed')
      return { feeRappen: r.fee }
    },
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
      const tries = await db.selectFrom('payment_charges').select(['status', 'at', 'payment_method_id']).where('session_id', '=', s.id).orderBy('at', 'desc').orderBy('id', 'desc').execute()
      if (!retryDue(tries, s.method_id, now)) continue
      // The lease: a run in another process that found the same session leaves it (see chargeAppFees).
      const claimed = await db.updateTable('charging_sessions').set({ charge_claimed_until: new Date(now.getTime() + CHARGE_LEASE_MS) })
        .where('id', '=', s.id).where('status', '=', 'unpaid')
        .where((eb) => eb.or([eb('charge_claimed_until', 'is', null), eb('charge_claimed_until', '<=', now)]))
        .returning('id').executeTakeFirst()
      if (!claimed) continue
      const m = await db.selectFrom('payment_methods').selectAll().where('id', '=', s.method_id).executeTakeFirstOrThrow()
      const r = await chargeOnce({ sessionId: s.id }, m, { userId: s.user_id!, purpose: 'session', amountRappen: s.price_rappen, description: `Charging session CS-${s.id}`, at: now })
      if (r?.ok && (await sessions.markPaid(s.id, r.kind, now))) paid++
      else if (r && !r.ok) declined++
      await db.updateTable('charging_sessions').set({ charge_claimed_until: null }).where('id', '=', s.id).execute()
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
      const tries = await db.selectFrom('payment_charges').select(['status', 'at', 'payment_method_id']).where('app_fee_id', '=', f.id).orderBy('at', 'desc').orderBy('id', 'desc').execute()
      if (!retryDue(tries, f.method_id, now)) continue
      // The lease: only one run gets the row; the others see it claimed (or paid) and leave it.
      const claimed = await db.updateTable('app_fees').set({ claimed_until: new Date(now.getTime() + CHARGE_LEASE_MS) })
        .where('id', '=', f.id).where('status', '=', 'unpaid')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .returning('id').executeTakeFirst()
      if (!claimed) continue
      const m = await db.selectFrom('payment_methods').selectAll().where('id', '=', f.method_id).executeTakeFirstOrThrow()
      const r = await chargeOnce({ appFeeId: f.id }, m, { userId: f.user_id, purpose: 'app_fee', amountRappen: f.amount_rappen, description: `App fee ${f.month} ${f.name}`, at: now })
      await db.updateTable('app_fees').set(r?.ok ? { status: 'paid', paid_on: now, fee_rappen: r.fee, claimed_until: null } : { claimed_until: null }).where('id', '=', f.id).execute()
      if (r?.ok) charged++
      else if (r) declined++
    }
    return { app_fees: charged, app_fees_declined: declined }
  }
  return service
}
export type PaymentService = ReturnType<typeof createPaymentService>
