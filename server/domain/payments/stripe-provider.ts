import Stripe from 'stripe'
import type { AuthorisedMethod, ChargeResult, PaymentProvider } from './provider.ts'

/**
 * What a verified Stripe event means for a checkout (null: an event this app does not use): the method
 * saved by a completed setup-mode Checkout Session, or the checkout failed or cancelled (expired).
 * `checkout` is this app's checkout id (the session's `client_reference_id`).
 */
export type StripeCheckoutEvent =
  | { type: 'checkout.completed'; checkout: string; method: AuthorisedMethod }
  | { type: 'checkout.failed' | 'checkout.cancelled'; checkout: string }

/** Stripe's settings (config/env.ts PaymentsConfig): keys, and where its API is (a test double; unset: Stripe's). */
export interface StripeSettings {
  secretKey: string
  webhookSecret: string
  publishableKey?: string
  api?: { host: string; port: number; protocol: 'http' | 'https' }
}

/** Card and TWINT, both savable for later off-session payments (Stripe: "Set up future TWINT payments"). */
const METHOD_TYPES = ['card', 'twint'] as const

/**
 * The Stripe provider through the official `stripe` package (docs/decisions.md "Payments: a provider
 * interface and Stripe"):
 * - adding a method is a Checkout Session in `setup` mode for the user's Customer (created once,
 *   `createCustomer`): Stripe's hosted page saves a card or TWINT through a SetupIntent (no debit, SPEC §9);
 * - `event(raw, signature)` verifies a webhook with the endpoint's signing secret (Stripe-Signature,
 *   HMAC-SHA256 with a timestamp tolerance) and maps checkout.session.completed (the SetupIntent's
 *   PaymentMethod) and checkout.session.expired;
 * - `charge` is an off-session PaymentIntent confirmed at once, under the caller's idempotency key, so a
 *   retry after a crash is answered with the first result and never debits twice. A token is
 *   `customer|payment_method`. A decline answers `{ok: false, reason}` (Stripe's decline or error code);
 *   other failures (network, Stripe down) throw, leaving the attempt pending for the same key later.
 * Amounts in Rappen (Stripe's CHF minor unit).
 */
export function createStripeProvider(settings: StripeSettings): PaymentProvider & {
  createCustomer(userId: number, email: string): Promise<string>
  openCheckout(c: { checkoutId: string; customerId: string; successUrl: string; cancelUrl: string }): Promise<{ redirectUrl: string; providerRef: string }>
  event(rawBody: string, signature: string | undefined): Promise<StripeCheckoutEvent | null>
} {
  const stripe = new Stripe(settings.secretKey, { maxNetworkRetries: 2, ...(settings.api ?? {}) })

  async function methodOf(setupIntentId: string): Promise<AuthorisedMethod> {
    const si = await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] })
    const pm = si.payment_method as Stripe.PaymentMethod
    const customer = typeof si.customer === 'string' ? si.customer : si.customer!.id
    const token = `${customer}|${pm.id}`
    if (pm.type === 'twint') return { kind: 'twint', brand: 'TWINT', masked: 'TWINT', exp_month: null, exp_year: null, token }
    const card = pm.card!
    const brand = card.brand.charAt(0).toUpperCase() + card.brand.slice(1)
    return { kind: 'credit_card', brand, masked: `•••• •••• •••• ${card.last4}`, exp_month: card.exp_month, exp_year: card.exp_year, token }
  }

  return {
    name: 'stripe',
    checkoutUrl: () => {
      throw new Error('Stripe checkouts are opened with openCheckout')
    },
    authorise: () => ({ ok: false, reason: 'invalid' }),

    async createCustomer(userId, email) {
      const c = await stripe.customers.create({ email, metadata: { user_id: String(userId) } }, { idempotencyKey: `customer-${userId}` })
      return c.id
    },

    async openCheckout({ checkoutId, customerId, successUrl, cancelUrl }) {
      // Stripe's own expiry (24 h) is kept: its minimum (30 min) equals this app's checkout lifetime, and a
      // session completed late is still the user's method (settled by its checkout id).
      const session = await stripe.checkout.sessions.create({
        mode: 'setup', customer: customerId, currency: 'chf', allowed_payment_method_types: [...METHOD_TYPES], client_reference_id: checkoutId,
        success_url: successUrl, cancel_url: cancelUrl, metadata: { checkout: checkoutId },
      }, { idempotencyKey: `checkout-${checkoutId}` })
      return { redirectUrl: session.url!, providerRef: session.id }
    },

    async event(rawBody, signature) {
      const event = await stripe.webhooks.constructEventAsync(rawBody, signature ?? '', settings.webhookSecret)
      if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.expired') return null
      const session = event.data.object as Stripe.Checkout.Session
      const checkout = session.client_reference_id ?? session.metadata?.checkout
      if (!checkout || session.mode !== 'setup') return null
      if (event.type === 'checkout.session.expired') return { type: 'checkout.cancelled', checkout }
      const setupIntent = typeof session.setup_intent === 'string' ? session.setup_intent : session.setup_intent?.id
      if (!setupIntent) return { type: 'checkout.failed', checkout }
      return { type: 'checkout.completed', checkout, method: await methodOf(setupIntent) }
    },

    async charge(token, amountRappen, description, idempotencyKey): Promise<ChargeResult> {
      const [customer, paymentMethod] = token.split('|')
      if (!customer || !paymentMethod) return { ok: false, reason: 'unknown token' }
      try {
        const pi = await stripe.paymentIntents.create({
          amount: amountRappen, currency: 'chf', customer, payment_method: paymentMethod, off_session: true, confirm: true, description,
        }, { idempotencyKey })
        return pi.status === 'succeeded' ? { ok: true, reference: pi.id } : { ok: false, reason: pi.status }
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError) return { ok: false, reason: err.decline_code ?? err.code ?? 'card_declined' }
        throw err
      }
    },
  }
}
export type StripeProvider = ReturnType<typeof createStripeProvider>
