import crypto from 'node:crypto'
import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { PaymentMethodsTable } from '../../db/schema.ts'
import type { Actor } from '../auth/service.ts'
import type { SessionService } from '../sessions/service.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { isAboutToExpire, monthOf } from '../../../shared/rules/card-expiry.ts'
import type { SessionHoldReason } from '../ocpp/plausibility.ts'
import type { AuthorisedMethod, CheckoutInput, PaymentProvider } from './provider.ts'
import type { StripeProvider } from './stripe-provider.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { AppFee, PaymentInfo } from '../../../shared/schemas/payment.ts'
import type { Clock } from '../../lib/clock.ts'
import { createDebits, type ChargeRun } from './debits.ts'

/** How long a checkout session stays open. */
export const CHECKOUT_TTL_MS = 30 * 60_000

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
  const debits = createDebits({ db, provider, sessions, hold })
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
     * charge stays unpaid and is retried after RETRY_DELAYS_MS (debits.ts), or at the next run once the user has
     * chosen another primary method. The simulator's backfill replays history through this too.
     */
    async chargeDue(now = clock.now()): Promise<ChargeRun> {
      // One run at a time in this process (the job and the superuser hook), so no session is charged twice.
      const previous = chargeRun
      let release!: () => void
      chargeRun = new Promise<void>((r) => (release = r))
      await previous
      try {
        return await debits.run(now)
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
      const r = await debits.chargeTo(m, { userId: actor.id, sessionId: null, purpose: 'rfid_order', amountRappen, description, at: now, key: `rfid-order-${crypto.randomUUID()}` })
      if (!r?.ok) throw new AppError(402, 'paymentFailed')
      return { feeRappen: r.fee }
    },
  }

  return service
}
export type PaymentService = ReturnType<typeof createPaymentService>
