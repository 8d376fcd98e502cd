import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { INTERVALS } from '../domain/reports/periods.ts'
import { actorOf, parse } from './http.ts'

const InstallationParams = z.object({ installationId: Id })
const ReportParams = z.object({ installationId: Id, reportId: Id })

/**
 * A report (SPEC §3): name, report_type (zev, electrical, water, heat), year, recipients (e-mail
 * addresses), output_directory, intervals (d, w, m, q, s, y), show_deltas, language (fallback for
 * recipients without an account: en, de, fr, it).
 */
export const ReportFields = z.object({
  name: z.string().min(1),
  report_type: z.enum(['zev', 'electrical', 'water', 'heat']),
  year: z.number().int().min(2000).max(2100).nullable(),
  recipients: z.array(z.email()).max(50),
  output_directory: z.string().max(500).nullable(),
  intervals: z.array(z.enum(INTERVALS)),
  show_deltas: z.boolean(),
  language: z.enum(['en', 'de', 'fr', 'it']),
})
/** Create and PUT: name and report_type required, the rest defaulted. */
export const ReportBody = ReportFields.extend({
  year: ReportFields.shape.year.default(null),
  recipients: ReportFields.shape.recipients.default([]),
  output_directory: ReportFields.shape.output_directory.default(null),
  intervals: ReportFields.shape.intervals.default([]),
  show_deltas: ReportFields.shape.show_deltas.default(false),
  language: ReportFields.shape.language.default('en'),
})
// PATCH changes only what it sends (no defaults).
const ReportPatch = ReportFields.partial()
const ZevBody = ReportBody.omit({ report_type: true })
const ZevPatch = ReportFields.omit({ report_type: true }).partial()

/** Body of POST reports/dispatch (SPEC §7): reportId, optional reportType and year. */
export const DispatchBody = z.object({ reportId: Id, reportType: z.enum(['zev', 'electrical', 'water', 'heat']).optional(), year: z.number().int().min(2000).max(2100).optional() })

/** SPEC §7 reports under /cockpit/installations/{id}/: CRUD, dispatch, and the ZEV report settings. */
export function reportRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/cockpit/installations/:installationId/reports'
  app.get(`${base}/`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.reports.list(await actorOf(domain, req), installationId)
  })
  app.post(`${base}/`, async (req, reply) => {
    const { installationId } = parse(InstallationParams, req.params)
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.reports.create(actor, installationId, parse(ReportBody, req.body)))
  })
  app.post(`${base}/dispatch`, async (req, reply) => {
    const { installationId } = parse(InstallationParams, req.params)
    const actor = await actorOf(domain, req)
    return reply.code(202).send(await domain.reports.dispatch(actor, installationId, parse(DispatchBody, req.body)))
  })
  app.get(`${base}/zev`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.reports.zev(await actorOf(domain, req), installationId)
  })
  app.put(`${base}/zev`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.reports.updateZev(actor, installationId, parse(ZevBody, req.body))
  })
  app.patch(`${base}/zev`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.reports.updateZev(actor, installationId, parse(ZevPatch, req.body))
  })
  app.get(`${base}/:reportId/`, async (req) => {
    const { installationId, reportId } = parse(ReportParams, req.params)
    return domain.reports.get(await actorOf(domain, req), installationId, reportId)
  })
  app.put(`${base}/:reportId/`, async (req) => {
    const { installationId, reportId } = parse(ReportParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.reports.update(actor, installationId, reportId, parse(ReportBody, req.body))
  })
  app.patch(`${base}/:reportId/`, async (req) => {
    const { installationId, reportId } = parse(ReportParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.reports.update(actor, installationId, reportId, parse(ReportPatch, req.body))
  })
  app.delete(`${base}/:reportId/`, async (req, reply) => {
    const { installationId, reportId } = parse(ReportParams, req.params)
    await domain.reports.remove(await actorOf(domain, req), installationId, reportId)
    return reply.code(204).send()
  })
}
