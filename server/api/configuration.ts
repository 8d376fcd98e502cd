import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { ConfigImportResult, ConfigurationFile } from '../../shared/schemas/configuration.ts'
import { ErrorDetail, FieldErrors } from '../../shared/schemas/errors.ts'
import { actorOf } from './http.ts'

/** YAML media types a client may send or ask for (RFC 9512 registers application/yaml). */
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml']
/** A file of 200 installations is about 1 MB; room for several thousand. */
const MAX_FILE_BYTES = 32 * 1024 * 1024

const Refusal = z.union([FieldErrors, ErrorDetail]).describe('The line and field refused (`{"line 14, installations[0].meters[2].unit": ["…"]}`), or {detail}')

/**
 * Configuration as code (docs/configuration-files.md; rules in server/domain/configuration/service.ts):
 * GET …/installations/{id}/configuration exports one installation (YAML with `Accept: application/yaml`
 * or `?format=yaml`, JSON otherwise); POST /cockpit/configuration/import?dry_run= imports a YAML file
 * (application/yaml body) and answers what changed, or would change.
 */
export function configurationRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  fastify.addContentTypeParser(YAML_TYPES, { parseAs: 'string', bodyLimit: MAX_FILE_BYTES }, (_req, body, done) => done(null, body))

  app.get('/cockpit/installations/:installationId/configuration', {
    schema: {
      summary: "Export the installation's configuration: settings, objects, meters, stations, tariffs, rates, users and permissions; no secrets or measurements (admins)",
      params: z.object({ installationId: Id }),
      querystring: z.object({ format: z.enum(['yaml', 'json']).optional() }),
      response: { 200: ConfigurationFile, 403: ErrorDetail, 404: ErrorDetail, 409: ErrorDetail },
    },
  }, async (req, reply) => {
    const file = await domain.configuration.export(await actorOf(domain, req), req.params.installationId)
    const yaml = req.query.format === 'yaml' || (req.query.format === undefined && YAML_TYPES.some((t) => (req.headers.accept ?? '').includes(t)))
    if (!yaml) return file
    // The answer is text, not the JSON the schema describes: sent as is.
    return reply.type('application/yaml; charset=utf-8').serializer((s: string) => s).send(domain.configuration.toYaml(file) as never)
  })

  app.post('/cockpit/configuration/import', {
    schema: {
      summary: 'Import a configuration file (YAML) of one or more installations: a dry run shows what would change, else each installation is applied in one transaction (superusers for new installations, admins for theirs)',
      querystring: z.object({ dry_run: z.enum(['true', 'false']).default('false') }),
      body: z.string().max(MAX_FILE_BYTES).describe('The YAML file (Content-Type: application/yaml)'),
      response: { 200: ConfigImportResult, 400: Refusal, 403: ErrorDetail, 404: Refusal, 409: Refusal, 413: ErrorDetail.describe('The file is larger than the limit of a configuration file (a JSON body: larger than 1 MB)'), 422: Refusal },
    },
  }, async (req, reply) => {
    const result = await domain.configuration.import(await actorOf(domain, req), req.body, { dryRun: req.query.dry_run === 'true' })
    // New OCPP passwords are in the answer once.
    return reply.header('Cache-Control', 'no-store').send(result)
  })
}
