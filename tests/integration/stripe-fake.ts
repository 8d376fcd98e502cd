import http from 'node:http'
import crypto from 'node:crypto'
import type { AddressInfo } from 'node:net'

/**
 * A local fake of the parts of Stripe's HTTP API the Stripe provider calls
 * (server/domain/payments/stripe-provider.ts), as Stripe documents them: form-encoded POST bodies with
 * bracketed keys, Bearer secret key, `Idempotency-Key` (a repeated key answers the first answer and does not
 * act again), errors as `{error: {type, code, decline_code, message}}` with 402 for a card error.
 * - POST /v1/customers, POST /v1/checkout/sessions (mode setup), GET /v1/setup_intents/{id}
 *   (expand[]=payment_method), POST /v1/payment_intents (off_session, confirm).
 * - `complete(session, pm)`: what Stripe's hosted page does when the user saves a method there: a
 *   succeeded SetupIntent with that PaymentMethod; returns the Checkout Session for the webhook event.
 * Test PaymentMethods: pm_card_visa, pm_card_chargeDeclined (every PaymentIntent declined), pm_twint.
 */
export async function startStripeFake() {
  const customers = new Map<string, Record<string, unknown>>()
  const sessions = new Map<string, Record<string, unknown>>()
  const setupIntents = new Map<string, Record<string, unknown>>()
  const idempotent = new Map<string, { status: number; body: unknown }>()
  const paymentIntents: Record<string, string>[] = []
  const requests: { method: string; path: string; key?: string }[] = []
  const id = (prefix: string) => `${prefix}_${crypto.randomBytes(8).toString('hex')}`
  const methods: Record<string, Record<string, unknown>> = {
    pm_card_visa: { id: 'pm_card_visa', object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } },
    pm_card_chargeDeclined: { id: 'pm_card_chargeDeclined', object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '0341', exp_month: 12, exp_year: 2034 } },
    pm_twint: { id: 'pm_twint', object: 'payment_method', type: 'twint', twint: {} },
  }

  function handle(method: string, path: string, form: Record<string, string>, query: URLSearchParams): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/customers') {
      const c = { id: id('cus'), object: 'customer', email: form.email, metadata: { user_id: form['metadata[user_id]'] } }
      customers.set(c.id, c)
      return { status: 200, body: c }
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (form.mode !== 'setup' || !customers.has(form.customer)) return { status: 400, body: { error: { type: 'invalid_request_error', message: 'No such customer' } } }
      const types = Object.keys(form).filter((k) => k.startsWith('allowed_payment_method_types[')).map((k) => form[k])
      const s = {
        id: id('cs_test'), object: 'checkout.session', mode: 'setup', customer: form.customer, client_reference_id: form.client_reference_id,
        metadata: { checkout: form['metadata[checkout]'] }, success_url: form.success_url, cancel_url: form.cancel_url, currency: form.currency,
        allowed_payment_method_types: types, status: 'open', setup_intent: null as string | null,
        url: `https://checkout.stripe.com/c/pay/${id('cs')}`,
      }
      sessions.set(s.id, s)
      return { status: 200, body: s }
    }
    const si = /^\/v1\/setup_intents\/([\w]+)$/.exec(path)
    if (method === 'GET' && si) {
      const found = setupIntents.get(si[1])
      if (!found) return { status: 404, body: { error: { type: 'invalid_request_error', message: 'No such setup_intent' } } }
      const expand = [...query.entries()].some(([k, v]) => k.startsWith('expand') && v === 'payment_method')
      return { status: 200, body: expand ? { ...found, payment_method: methods[found.payment_method as string] } : found }
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      paymentIntents.push(form)
      if (form.payment_method === 'pm_card_chargeDeclined') {
        return { status: 402, body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', payment_intent: { id: id('pi'), status: 'requires_payment_method' } } } }
      }
      return { status: 200, body: { id: id('pi'), object: 'payment_intent', amount: Number(form.amount), currency: form.currency, customer: form.customer, payment_method: form.payment_method, status: 'succeeded' } }
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } } }
  }

  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake')
      const key = req.headers['idempotency-key'] as string | undefined
      requests.push({ method: req.method ?? '', path: url.pathname, key })
      const answer = (a: { status: number; body: unknown }) => res.writeHead(a.status, { 'content-type': 'application/json', 'request-id': id('req') }).end(JSON.stringify(a.body))
      if (req.headers.authorization !== 'Bearer sk_test_fake') return answer({ status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } })
      const scoped = key ? `${req.method} ${url.pathname} ${key}` : null
      if (scoped && idempotent.has(scoped)) return answer(idempotent.get(scoped)!)
      const a = handle(req.method ?? '', url.pathname, Object.fromEntries(new URLSearchParams(raw)), url.searchParams)
      if (scoped) idempotent.set(scoped, a)
      answer(a)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
  return {
    api: { host: '127.0.0.1', port, protocol: 'http' as const },
    customers, sessions, paymentIntents, requests,
    /** The user saved `pm` on the hosted page of Checkout Session `sessionId`: its completed session. */
    complete(sessionId: string, pm: keyof typeof methods) {
      const s = sessions.get(sessionId)!
      const intent = { id: id('seti'), object: 'setup_intent', status: 'succeeded', customer: s.customer, payment_method: pm, usage: 'off_session' }
      setupIntents.set(intent.id, intent)
      Object.assign(s, { status: 'complete', setup_intent: intent.id })
      return s
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
