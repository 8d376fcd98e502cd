import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { PaymentInfoPatch, PaymentInfoPut, PaymentProcess } from '../../shared/schemas/payment.ts'
import { Forbidden } from '../lib/errors.ts'
import { pickLang } from '../lib/messages.ts'
import { demoCheckoutPage } from '../domain/payments/demo-checkout-page.ts'
import type { CheckoutInput } from '../domain/payments/provider.ts'
import { actorOf, parse } from './http.ts'

const Params = z.object({ id: Id, paymentInfoId: Id })
const Form = z.object({
  session: z.string().min(1).max(100),
  action: z.enum(['authorise', 'cancel']),
  kind: z.enum(['credit_card', 'twint']).default('credit_card'),
  number: z.string().max(30).optional(),
  exp_month: z.coerce.number().int().optional(),
  exp_year: z.coerce.number().int().optional(),
})

/**
 * Payments (SPEC §7): /users/{id}/payment-info/ and /{payment_info_id}/ (GET, PUT, PATCH favourite 1,
 * DELETE; SPEC names the second parameter user_id, it identifies the payment info), POST
 * /payments/process/ (success_url, error_url, cancel_url → {session, redirect_url}), POST
 * /payments/webhook/ (signed provider events), the DEMO provider's checkout page
 * (GET/POST /payments/demo-checkout) and POST /payments/charge-due/ (superusers: run the charge job now).
 */
export function paymentRoutes(app: FastifyInstance, domain: Domain) {
  const pay = domain.payments
  app.get('/users/:id/payment-info/', async (req) => {
    const { id } = parse(z.object({ id: Id }), req.params)
    return pay.list(await actorOf(domain, req), id)
  })
  app.get('/users/:id/payment-info/:paymentInfoId/', async (req) => {
    const { id, paymentInfoId } = parse(Params, req.params)
    return pay.get(await actorOf(domain, req), id, paymentInfoId)
  })
  app.put('/users/:id/payment-info/:paymentInfoId/', async (req) => {
    const actor = await actorOf(domain, req)
    const { id, paymentInfoId } = parse(Params, req.params)
    return pay.update(actor, id, paymentInfoId, parse(PaymentInfoPut, req.body))
  })
  app.patch('/users/:id/payment-info/:paymentInfoId/', async (req) => {
    const actor = await actorOf(domain, req)
    const { id, paymentInfoId } = parse(Params, req.params)
    return pay.update(actor, id, paymentInfoId, parse(PaymentInfoPatch, req.body))
  })
  app.delete('/users/:id/payment-info/:paymentInfoId/', async (req, reply) => {
    const actor = await actorOf(domain, req)
    const { id, paymentInfoId } = parse(Params, req.params)
    await pay.remove(actor, id, paymentInfoId)
    return reply.code(204).send()
  })

  app.post('/payments/process/', async (req, reply) => {
    const actor = await actorOf(domain, req)
    const urls = parse(PaymentProcess, req.body)
    const own = `${req.protocol}://${req.host}`
    const origins = [own, req.headers.origin].filter((o): o is string => typeof o === 'string')
    return reply.code(201).send(await pay.process(actor, urls, origins))
  })

  app.post('/payments/charge-due/', async (req) => {
    const actor = await actorOf(domain, req)
    if (!actor.is_superuser) throw Forbidden()
    return pay.chargeDue()
  })

  // The webhook needs its raw body for the signature, the demo form is urlencoded: own parsers here only.
  void app.register(async (scoped) => {
    scoped.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body))
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))))

    scoped.post('/payments/webhook/', async (req) => {
      const raw = typeof req.body === 'string' ? req.body : ''
      const sig = req.headers['x-demo-signature']
      return pay.webhook(raw, Array.isArray(sig) ? sig[0] : sig)
    })

    const page = async (req: FastifyRequest, session: string | null) => {
      const open = session ? await pay.checkout(session) : null
      return demoCheckoutPage(pickLang(req.headers['accept-language']), open ? open.id : null, new Date().getFullYear())
    }
    scoped.get('/payments/demo-checkout', async (req, reply) => {
      const { session } = parse(z.object({ session: z.string().max(100).optional() }), req.query)
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(await page(req, session ?? null))
    })
    // The user authorises or cancels on the provider's page; the provider reports to the webhook
    // (here: internally, signed like an outside call) and sends the user back to the app.
    scoped.post('/payments/demo-checkout', async (req, reply) => {
      const form = parse(Form, req.body)
      if (!(await pay.checkout(form.session))) {
        return reply.code(404).type('text/html; charset=utf-8').send(await page(req, null))
      }
      const input: CheckoutInput | 'cancel' = form.action === 'cancel' ? 'cancel' : { kind: form.kind, number: form.number, exp_month: form.exp_month, exp_year: form.exp_year }
      const body = JSON.stringify(pay.authorise(form.session, input))
      const res = await app.inject({ method: 'POST', url: '/api/payments/webhook/', payload: body, headers: { 'content-type': 'application/json', 'x-demo-signature': pay.sign(body) } })
      if (res.statusCode !== 200) return reply.code(502).type('text/html; charset=utf-8').send(await page(req, null))
      return reply.redirect((res.json() as { redirect: string }).redirect, 303)
    })
  })
}
