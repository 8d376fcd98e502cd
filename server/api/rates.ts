import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { actorOf, parse } from './http.ts'

const Kind = z.enum(['power', 'water', 'heat'])
const KindParams = z.object({ installationId: Id, kind: Kind })
const RateParams = z.object({ installationId: Id, kind: Kind, rateId: Id })
const Day = z.iso.date().nullable().optional().transform((v) => v ?? null)

/**
 * Body of POST and PUT …/rates/{kind}/ (SPEC §3): name, start_date and end_date ("YYYY-MM-DD" or null),
 * prices in CHF per kWh or m3 by field (see RATE_PRICES), power only: time_spans [{start, end,
 * repetition}] and flat_enabled. Prices and spans are checked by the service so they get the SPEC §5
 * messages ("Please enter a valid rate", "Please enter valid rate times").
 */
export const RateBody = z.object({
  name: z.string().min(1),
  start_date: Day,
  end_date: Day,
  // Checked by the service: a non-object answers "Please enter valid rates".
  prices: z.unknown().transform((v) => v as Record<string, number>),
  time_spans: z.unknown().optional() as z.ZodType<{ start: string; end: string; repetition: string[] }[] | undefined>,
  flat_enabled: z.boolean().optional(),
})

/** PATCH …/rates/{kind}/{id}: the name only (SPEC §7); any other field is refused. */
export const RatePatch = z.object({ name: z.string().min(1) }).strict()

/** SPEC §7 rates/heat, rates/power, rates/water under /cockpit/installations/{id}/, and GET /electricity-tariff/. */
export function rateRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/cockpit/installations/:installationId/rates/:kind'
  app.get(`${base}/`, async (req) => {
    const { installationId, kind } = parse(KindParams, req.params)
    return domain.rates.list(await actorOf(domain, req), installationId, kind)
  })
  app.post(`${base}/`, async (req, reply) => {
    const { installationId, kind } = parse(KindParams, req.params)
    const actor = await actorOf(domain, req)
    const rate = await domain.rates.create(actor, installationId, kind, parse(RateBody, req.body))
    return reply.code(201).send(rate)
  })
  app.get(`${base}/:rateId/`, async (req) => {
    const { installationId, kind, rateId } = parse(RateParams, req.params)
    return domain.rates.get(await actorOf(domain, req), installationId, kind, rateId)
  })
  app.put(`${base}/:rateId/`, async (req) => {
    const { installationId, kind, rateId } = parse(RateParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.rates.replace(actor, installationId, kind, rateId, parse(RateBody, req.body))
  })
  app.patch(`${base}/:rateId/`, async (req) => {
    const { installationId, kind, rateId } = parse(RateParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.rates.rename(actor, installationId, kind, rateId, parse(RatePatch, req.body).name)
  })
  app.delete(`${base}/:rateId/`, async (req, reply) => {
    const { installationId, kind, rateId } = parse(RateParams, req.params)
    await domain.rates.remove(await actorOf(domain, req), installationId, kind, rateId)
    return reply.code(204).send()
  })
}
