import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Day as IsoDay, Id, Page, Text, TEXT_MAX } from '../../shared/schemas/common.ts'
import { RateSchema } from '../../shared/schemas/rates.ts'
import { actorOf } from './http.ts'
import { NoContent } from './openapi.ts'

const Kind = z.enum(['power', 'water', 'heat'])
const KindParams = z.object({ installationId: Id, kind: Kind })
const RateParams = z.object({ installationId: Id, kind: Kind, rateId: Id })
const Day = IsoDay.nullable().optional().transform((v) => v ?? null)

/**
 * Body of POST and PUT …/rates/{kind}/ (SPEC §3): name, start_date and end_date ("YYYY-MM-DD" or null),
 * prices in CHF per kWh or m3 by field (see RATE_PRICES), power only: time_spans [{start, end,
 * repetition}] and flat_enabled. Prices and spans are checked by the service so they get the SPEC §5
 * messages ("Please enter a valid rate", "Please enter valid rate times").
 */
export const RateBody = z.object({
  name: Text(TEXT_MAX.name).min(1),
  start_date: Day,
  end_date: Day,
  // Checked by the service: a non-object answers "Please enter valid rates".
  prices: z.unknown().transform((v) => v as Record<string, number>),
  time_spans: z.unknown().optional() as z.ZodType<{ start: string; end: string; repetition: string[] }[] | undefined>,
  flat_enabled: z.boolean().optional(),
})

/** PATCH …/rates/{kind}/{id}: the name only (SPEC §7); any other field is refused. */
export const RatePatch = z.object({ name: Text(TEXT_MAX.name).min(1) }).strict()

/** SPEC §7 rates/heat, rates/power, rates/water under /cockpit/installations/{id}/, and GET /electricity-tariff/. */
export function rateRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId/rates/:kind'
  app.get(`${base}/`, { schema: { summary: 'Rates of a kind (power, water, heat)', params: KindParams, response: { 200: Page(RateSchema) } } }, async (req) =>
    domain.rates.list(await actorOf(domain, req), req.params.installationId, req.params.kind),
  )
  app.post(`${base}/`, { schema: { summary: 'Create a rate (admins)', params: KindParams, body: RateBody, response: { 201: RateSchema } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    const rate = await domain.rates.create(actor, req.params.installationId, req.params.kind, req.body)
    return reply.code(201).send(rate)
  })
  app.get(`${base}/:rateId/`, { schema: { summary: 'One rate', params: RateParams, response: { 200: RateSchema } } }, async (req) =>
    domain.rates.get(await actorOf(domain, req), req.params.installationId, req.params.kind, req.params.rateId),
  )
  app.put(`${base}/:rateId/`, { schema: { summary: 'Replace a rate (only while it is editable; admins)', params: RateParams, body: RateBody, response: { 200: RateSchema } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.rates.replace(actor, req.params.installationId, req.params.kind, req.params.rateId, req.body)
  })
  app.patch(`${base}/:rateId/`, { schema: { summary: 'Rename a rate (admins)', params: RateParams, body: RatePatch, response: { 200: RateSchema } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.rates.rename(actor, req.params.installationId, req.params.kind, req.params.rateId, req.body.name)
  })
  app.delete(`${base}/:rateId/`, { schema: { summary: 'Delete a rate (admins)', params: RateParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.rates.remove(await actorOf(domain, req), req.params.installationId, req.params.kind, req.params.rateId)
    return reply.code(204).send(null)
  })
}
