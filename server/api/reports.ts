import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, Page, Text, TEXT_MAX } from '../../shared/schemas/common.ts'
import { ReportSchema } from '../../shared/schemas/reports.ts'
import { INTERVALS } from '../domain/reports/periods.ts'
import { actorOf } from './http.ts'
import { OUTPUT_DIRECTORY_MAX } from '../domain/reports/output.ts'
import { NoContent } from './openapi.ts'

const InstallationParams = z.object({ installationId: Id })
const ReportParams = z.object({ installationId: Id, reportId: Id })

/**
 * A report's output directory (SPEC §3): a relative path of folder names (letters, digits, ".", "_",
 * "-", not starting with ".") separated by "/", e.g. "exports/heat", under the installation's folder of
 * REPORTS_DIR. The rule is checked by the service (server/domain/reports/output.ts), so a refusal is the
 * SPEC-worded 400 {output_directory: ["Please enter a valid output directory…"]} in the caller's language
 * rather than a generic "not valid".
 */
export const OutputDirectory = Text(OUTPUT_DIRECTORY_MAX)
  .describe('Relative folder path under the installation\'s reports folder, e.g. "exports/heat": folder names of letters, digits, ".", "_", "-" (not starting with "."), separated by "/"')

/**
 * A report (SPEC §3): name, report_type (zev, electrical, water, heat), year, recipients (e-mail
 * addresses), output_directory, intervals (d, w, m, q, s, y), show_deltas, language (fallback for
 * recipients without an account: en, de, fr, it).
 */
export const ReportFields = z.object({
  name: Text(TEXT_MAX.name).min(1),
  report_type: z.enum(['zev', 'electrical', 'water', 'heat']),
  year: z.number().int().min(2000).max(2100).nullable(),
  recipients: z.array(z.email().max(254)).max(50),
  output_directory: OutputDirectory.nullable(),
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
export function reportRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId/reports'
  const P = InstallationParams
  app.get(`${base}/`, { schema: { summary: 'Reports of the installation (admins)', params: P, response: { 200: Page(ReportSchema) } } }, async (req) =>
    domain.reports.list(await actorOf(domain, req), req.params.installationId),
  )
  app.post(`${base}/`, { schema: { summary: 'Create a report (admins)', params: P, body: ReportBody, response: { 201: ReportSchema } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.reports.create(actor, req.params.installationId, req.body))
  })
  app.post(
    `${base}/dispatch`,
    {
      schema: {
        summary: 'Send a report now for a calendar year (mails with CSV, PDF and XLSX attachments; the same files written to its output directory)', params: P, body: DispatchBody,
        response: { 202: z.object({ queued: z.number().int().describe('Mails enqueued'), files: z.array(z.string()).describe('Files written, relative to the installation\'s reports folder') }) },
      },
    },
    async (req, reply) => {
      const actor = await actorOf(domain, req)
      const done = await domain.reports.dispatch(actor, req.params.installationId, req.body)
      // The server's journal (log) names every file written, for the operator who reads the folder.
      if (done.files.length) req.log.info({ installation: req.params.installationId, report: req.body.reportId, files: done.files }, 'report files written')
      return reply.code(202).send(done)
    },
  )
  app.get(`${base}/zev`, { schema: { summary: 'The ZEV report settings (created on first use)', params: P, response: { 200: ReportSchema } } }, async (req) =>
    domain.reports.zev(await actorOf(domain, req), req.params.installationId),
  )
  app.put(`${base}/zev`, { schema: { summary: 'Replace the ZEV report settings', params: P, body: ZevBody, response: { 200: ReportSchema } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.reports.updateZev(actor, req.params.installationId, req.body)
  })
  app.patch(`${base}/zev`, { schema: { summary: 'Change some ZEV report settings', params: P, body: ZevPatch, response: { 200: ReportSchema } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.reports.updateZev(actor, req.params.installationId, req.body)
  })
  app.get(`${base}/:reportId/`, { schema: { summary: 'One report', params: ReportParams, response: { 200: ReportSchema } } }, async (req) =>
    domain.reports.get(await actorOf(domain, req), req.params.installationId, req.params.reportId),
  )
  app.put(`${base}/:reportId/`, { schema: { summary: 'Replace a report', params: ReportParams, body: ReportBody, response: { 200: ReportSchema } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.reports.update(actor, req.params.installationId, req.params.reportId, req.body)
  })
  app.patch(`${base}/:reportId/`, { schema: { summary: 'Change some fields of a report', params: ReportParams, body: ReportPatch, response: { 200: ReportSchema } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.reports.update(actor, req.params.installationId, req.params.reportId, req.body)
  })
  app.delete(`${base}/:reportId/`, { schema: { summary: 'Delete a report', params: ReportParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.reports.remove(await actorOf(domain, req), req.params.installationId, req.params.reportId)
    return reply.code(204).send(null)
  })
}
