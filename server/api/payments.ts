import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, Page } from '../../shared/schemas/common.ts'
import { AppFee, PaymentInfo, PaymentInfoPatch, PaymentInfoPut, PaymentProcess } from '../../shared/schemas/payment.ts'
import { Forbidden } from '../lib/errors.ts'
import { LANGS, pickLang, type Lang } from '../lib/messages.ts'
import { demoCheckoutPage } from '../domain/payments/demo-checkout-page.ts'
import type { CheckoutInput } from '../domain/payments/provider.ts'
import { monthOf } from '../../shared/rules/card-expiry.ts'
import { actorOf } from './http.ts'
import { NoContent, ownerOnly, superusersOnly } from './openapi.ts'

const Params = z.object({ id: Id, paymentInfoId: Id })
const Form = z.object({
  session: z.string().min(1).max(100),
  action: z.enum(['authorise', 'cancel']),
  kind: z.enum(['credit_card', 'twint']).default('credit_card'),
  number: z.string().max(30).optional(),
  exp_month: z.coerce.number().int().min(0).max(9999).optional(),
  exp_year: z.coerce.number().int().min(0).max(9999).optional(),
})

/**
 * Payments (SPEC §7): /users/{id}/payment-info/ and /{payment_info_id}/ (GET, PUT, PATCH favourite 1,
 * DELETE; SPEC names the second parameter user_id, it identifies the payment info), POST
 * /payments/process/ (success_url, error_url, cancel_url → {session, redirect_url}), POST
 * /payments/webhook/ (signed provider events), the DEMO provider's checkout page
 * (GET/POST /payments/demo-checkout) and POST /payments/charge-due/ (superusers: run the charge job now).
 */
export function paymentRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const pay = domain.payments
  const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } })
  app.get('/users/:id/payment-info/', { schema: { summary: "A user's stored payment methods", security: ownerOnly, params: z.object({ id: Id }), response: { 200: Page(PaymentInfo) } } }, async (req) =>
    pay.list(await actorOf(domain, req), req.params.id),
  )
  app.get('/users/:id/payment-info/:paymentInfoId/', { schema: { summary: 'One stored payment method', security: ownerOnly, params: Params, response: { 200: PaymentInfo } } }, async (req) =>
    pay.get(await actorOf(domain, req), req.params.id, req.params.paymentInfoId),
  )
  app.put('/users/:id/payment-info/:paymentInfoId/', { schema: { summary: 'Set alias and favourite (primary) of a payment method', security: ownerOnly, params: Params, body: PaymentInfoPut, response: { 200: PaymentInfo } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return pay.update(actor, req.params.id, req.params.paymentInfoId, req.body)
  })
  app.patch('/users/:id/payment-info/:paymentInfoId/', { schema: { summary: 'Change alias or favourite (favourite 1: make primary)', security: ownerOnly, params: Params, body: PaymentInfoPatch, response: { 200: PaymentInfo } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return pay.update(actor, req.params.id, req.params.paymentInfoId, req.body)
  })
  app.delete('/users/:id/payment-info/:paymentInfoId/', { schema: { summary: 'Delete a payment method', security: ownerOnly, params: Params, response: { 204: NoContent } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    await pay.remove(actor, req.params.id, req.params.paymentInfoId)
    return reply.code(204).send(null)
  })

  app.get('/users/:id/app-fees/', { schema: { summary: "A user's monthly app fees (SPEC §9: the basic tariff), newest first", security: ownerOnly, params: z.object({ id: Id }), response: { 200: z.array(AppFee) } } }, async (req) =>
    pay.appFees(await actorOf(domain, req), req.params.id),
  )
  app.get(
    '/users/:id/app-fees/:appFeeId/invoice',
    {
      schema: {
        summary: 'The PDF invoice of a monthly app fee (lang or Accept-Language picks its language)',
        security: ownerOnly,
        params: z.object({ id: Id, appFeeId: Id }),
        querystring: z.object({ lang: z.enum(LANGS).optional() }),
        response: { 200: { description: 'The invoice (attachment)', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } } },
      },
    },
    async (req, reply) => {
      const language: Lang = req.query.lang ?? pickLang(req.headers['accept-language'])
      const pdf = await domain.invoices.appFeePdf(await actorOf(domain, req), req.params.id, req.params.appFeeId, language)
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${pdf.filename}"`)
        .header('Cache-Control', 'private, no-store')
        .send(pdf.content as unknown as string)
    },
  )

  app.post(
    '/payments/process/',
    { schema: { summary: "Open a checkout at the payment provider; answers where to send the user", body: PaymentProcess, response: { 201: z.object({ session: z.string(), redirect_url: z.string() }) } } },
    async (req, reply) => {
      const actor = await actorOf(domain, req)
      const own = `${req.protocol}://${req.host}`
      const origins = [own, req.headers.origin].filter((o): o is string => typeof o === 'string')
      return reply.code(201).send(await pay.process(actor, req.body, origins))
    },
  )

  app.post('/payments/charge-due/', { schema: { summary: 'Charge the unpaid sessions now (superusers)', security: superusersOnly, response: { 200: z.object({ paid: z.number().int(), declined: z.number().int(), app_fees: z.number().int(), app_fees_declined: z.number().int() }) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    if (!actor.is_superuser) throw Forbidden()
    return pay.chargeDue()
  })

  // The webhook needs its raw body for the signature, the demo form is urlencoded: own parsers here only.
  void app.register(async (plain) => {
    const scoped = plain.withTypeProvider<ZodTypeProvider>()
    scoped.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body))
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))))

    // The body is read raw (its HMAC is checked), so it has no schema: see tests/integration/openapi.test.ts NO_BODY.
    scoped.post(
      '/payments/webhook/',
      {
        schema: {
          summary: 'A signed provider event (header x-demo-signature: HMAC-SHA256 of the raw JSON body)',
          security: [],
          response: { 200: z.object({ redirect: z.string().describe('Where the user goes next') }) },
        },
      },
      async (req) => {
        const raw = typeof req.body === 'string' ? req.body : ''
        const sig = req.headers['x-demo-signature']
        return pay.webhook(raw, Array.isArray(sig) ? sig[0] : sig)
      },
    )

    // The configured provider's own events (Stripe), verified with its webhook secret; no schema for the
    // raw body (tests/integration/openapi.test.ts NO_BODY).
    scoped.post(
      '/payments/stripe/webhook/',
      {
        schema: {
          summary: 'A Stripe event (header Stripe-Signature, verified with STRIPE_WEBHOOK_SECRET): a saved card or TWINT, an expired checkout',
          security: [],
          response: { 200: z.object({ received: z.literal(true) }) },
        },
      },
      async (req) => {
        const sig = req.headers['stripe-signature']
        return pay.providerEvent(typeof req.body === 'string' ? req.body : '', Array.isArray(sig) ? sig[0] : sig)
      },
    )

    const page = async (req: FastifyRequest, session: string | null) => {
      const open = session ? await pay.checkout(session) : null
      return demoCheckoutPage(pickLang(req.headers['accept-language']), open ? open.id : null, monthOf(domain.clock.now()).year)
    }
    scoped.get(
      '/payments/demo-checkout',
      { schema: { summary: "The DEMO provider's checkout page", security: [], querystring: z.object({ session: z.string().max(100).optional() }), response: { 200: html('The checkout page') } } },
      async (req, reply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(await page(req, req.query.session ?? null)),
    )
    // The user authorises or cancels on the provider's page; the provider reports to the webhook
    // (here: internally, signed like an outside call) and sends the user back to the app.
    scoped.post(
      '/payments/demo-checkout',
      {
        schema: {
          summary: 'Authorise or cancel on the DEMO checkout page (form post); redirects back to the app',
          security: [],
          consumes: ['application/x-www-form-urlencoded'],
          body: Form,
          response: {
            303: z.null().describe('Redirect (Location) to the success, error or cancel path'),
            404: html('The checkout session is unknown or expired'),
            502: html('The provider could not record the result'),
          },
        },
      },
      async (req, reply) => {
        const form = req.body
        if (!(await pay.checkout(form.session))) {
          return reply.code(404).type('text/html; charset=utf-8').send(await page(req, null))
        }
        const input: CheckoutInput | 'cancel' = form.action === 'cancel' ? 'cancel' : { kind: form.kind, number: form.number, exp_month: form.exp_month, exp_year: form.exp_year }
        const body = JSON.stringify(pay.authorise(form.session, input))
        const res = await app.inject({ method: 'POST', url: '/api/payments/webhook/', payload: body, headers: { 'content-type': 'application/json', 'x-demo-signature': pay.sign(body) } })
        if (res.statusCode !== 200) return reply.code(502).type('text/html; charset=utf-8').send(await page(req, null))
        return reply.redirect((res.json() as { redirect: string }).redirect, 303)
      },
    )
  })
}
