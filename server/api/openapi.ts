import fs from 'node:fs'
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler, RouteOptions } from 'fastify'
import swagger from '@fastify/swagger'
import { createJsonSchemaTransform, createJsonSchemaTransformObject, ResponseSerializationError, validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod'
import { stringify as toYaml } from 'yaml'
import { z } from 'zod'
import { BadRequestBody, ErrorDetail } from '../../shared/schemas/errors.ts'
import { LANGS, pickLang, type Lang } from '../lib/messages.ts'
import { TAGS, TEXTS, translate } from './openapi-texts.ts'
import { isHeavyRoute } from './heavy-gate.ts'

/**
 * Request validation with the route's zod schema (fastify-type-provider-zod). A missing body counts as
 * `{}`, so each required field answers "The field is required." (SPEC §5) rather than one whole-body error.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = zodValidatorCompiler(route)
  return route.httpPart === 'body' ? (data) => validate(data ?? {}) : validate
}

// Under test, a response field the schema does not know fails the request instead of vanishing silently:
// the integration tests then prove that no schema drops what the client reads (docs/decisions.md).
const CHECK_DROPPED = !!process.env.VITEST

/** The JSON paths present in `sent` but missing in `kept` (what a response schema would drop). */
export function droppedPaths(sent: unknown, kept: unknown, at = ''): string[] {
  if (Array.isArray(sent)) return Array.isArray(kept) ? sent.flatMap((v, i) => droppedPaths(v, kept[i], `${at}[${i}]`)) : []
  if (!sent || typeof sent !== 'object' || !kept || typeof kept !== 'object') return []
  return Object.entries(sent).flatMap(([k, v]) => (k in kept ? droppedPaths(v, (kept as Record<string, unknown>)[k], `${at}.${k}`) : [`${at}.${k}`]))
}

/**
 * Response serialization through the route's zod schema (`z.encode`, then JSON): a value that does not
 * match answers 500 (ResponseSerializationError) rather than sending an undocumented shape.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> = ({ schema: maybe, method, url }) => {
  const schema = (maybe instanceof z.ZodType ? maybe : maybe.properties) as z.ZodType
  return (data) => {
    const result = z.safeEncode(schema, data)
    if (result.error) {
      if (CHECK_DROPPED) console.error(`response of ${method} ${url} does not match its schema`, JSON.stringify(result.error.issues).slice(0, 2000))
      throw new ResponseSerializationError(method, url, { cause: result.error })
    }
    if (CHECK_DROPPED) {
      const dropped = droppedPaths(JSON.parse(JSON.stringify(data)), JSON.parse(JSON.stringify(result.data)))
      if (dropped.length) {
        console.error(`response schema of ${method} ${url} drops ${dropped.slice(0, 10).join(', ')}`)
        throw new Error(`response schema of ${method} ${url} drops ${dropped.slice(0, 10).join(', ')}`)
      }
    }
    return JSON.stringify(result.data)
  }
}

/** Routes without a schema by design (the "no route without a schema" test skips them). */
export const UNDOCUMENTED = ['/api/swagger.json', '/api/swagger.yaml']

const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } })

/** The error answers every operation may give (ARCHITECTURE §3 shapes); a route's own entry for a status wins. */
function errorResponses(route: RouteOptions): Record<string, unknown> {
  const isPublic = Array.isArray(route.schema?.security) && route.schema.security.length === 0
  return {
    400: json(TEXTS.badRequest, BadRequestBody),
    ...(isPublic ? {} : { 401: json(TEXTS.unauthorized, ErrorDetail), 403: json(TEXTS.forbidden, ErrorDetail) }),
    404: json(TEXTS.notFound, ErrorDetail),
    ...(isHeavyRoute(route.url) ? { 429: json(TEXTS.tooManyHeavy, ErrorDetail) } : {}),
    500: json(TEXTS.serverError, ErrorDetail),
  }
}

/** The tag of an /api path: the SPEC §7 family it belongs to (first match). */
function tagOf(url: string): string {
  for (const [tag, re] of TAGS) if (re.test(url)) return tag
  return 'installations'
}

/**
 * Every route registered under /api (method, url, schema) by HTTP server, for the "no route without a
 * schema" test (the api plugin is encapsulated, so a decorator would not reach the root instance).
 */
export const apiRoutes = new WeakMap<object, RouteOptions[]>()

const word = (s: string) => s.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^./, (c) => c.toUpperCase())

/**
 * A stable operationId from the method and path (OpenAPI 3.1 §4.8.10: unique, for code generators and
 * integrators): the method in lower case, then each path segment in camel case, a path parameter as
 * "By" and its name. `GET /api/cockpit/installations/:installationId/objects/` →
 * `getCockpitInstallationsByInstallationIdObjects`. Unique because method and path are.
 */
export function operationIdOf(method: string, url: string): string {
  const segments = url.replace(/^\/api\//, '').split('/').filter(Boolean)
  return method.toLowerCase() + segments.map((s) => (s.startsWith(':') ? `By${word(s.slice(1))}` : word(s))).join('')
}

/**
 * The OpenAPI 3.1 description of /api (SPEC §7, ARCHITECTURE §3): registers @fastify/swagger on `api`
 * (call before any route) so every route's zod schemas become an operation, and serves GET
 * /api/swagger.json and /api/swagger.yaml; `lang` (en, de, fr, it; else Accept-Language) picks the
 * language of the texts (info, tags, summaries, descriptions). Bearer JWT is the default security scheme; a public
 * route declares `security: []`.
 */
export async function openApiPlugin(api: FastifyInstance) {
  const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  const routes: RouteOptions[] = []
  apiRoutes.set(api.server, routes)
  api.addHook('onRoute', (route) => {
    routes.push(route)
    const schema = (route.schema ??= {}) as FastifySchema & { tags?: string[]; hide?: boolean; response?: Record<string, unknown> }
    if (schema.hide) return
    schema.tags ??= [tagOf(route.url)]
    // One operationId per route (a route that takes several methods gets none: its methods would share it).
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD')
    if (methods.length === 1) (schema as { operationId?: string }).operationId ??= operationIdOf(methods[0], route.url)
    schema.response = { ...errorResponses(route), ...schema.response }
  })
  await api.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Cockpit API', version, description: TEXTS.info },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: TEXTS.bearer } } },
      security: [{ bearerAuth: [] }],
      tags: TAGS.map(([name]) => ({ name, description: TEXTS[`tag_${name}` as keyof typeof TEXTS] })),
    },
    transform: createJsonSchemaTransform({ skipList: UNDOCUMENTED }),
    transformObject: createJsonSchemaTransformObject({}),
  })

  const docs = new Map<Lang, { json: string; yaml: string }>()
  const doc = (lang: Lang) => {
    let d = docs.get(lang)
    if (!d) {
      const object = translate(api.swagger(), lang)
      d = { json: JSON.stringify(object), yaml: toYaml(object, { aliasDuplicateObjects: false }) }
      docs.set(lang, d)
    }
    return d
  }
  const Query = z.object({ lang: z.enum(LANGS).optional() })
  const langOf = (req: { query: unknown; headers: Record<string, string | string[] | undefined> }) =>
    (req.query as z.infer<typeof Query>).lang ?? pickLang(req.headers['accept-language'] as string | undefined)
  api.get('/swagger.json', { schema: { hide: true, security: [], querystring: Query } }, async (req, reply) => reply.type('application/json').send(doc(langOf(req)).json))
  api.get('/swagger.yaml', { schema: { hide: true, security: [], querystring: Query } }, async (req, reply) => reply.type('application/yaml').send(doc(langOf(req)).yaml))
}

/**
 * Security of operations limited to a role beyond the permission rules, as OpenAPI 3.1 states it: for a
 * bearer scheme the requirement's list names the roles needed (§4.8.30). `superusersOnly`: superusers (and
 * the relay's service account, one); `ownerOnly`: only the user the path names, whatever their role.
 */
export const superusersOnly = [{ bearerAuth: ['superuser'] }]
export const ownerOnly = [{ bearerAuth: ['self'] }]
/** Only a display link's key as the bearer, never a person's token. */
export const displaysOnly = [{ bearerAuth: ['display'] }]
/** Only an installation's device key (`ck_…`, shared/schemas/ingest.ts) as the bearer, never a person's token. */
export const devicesOnly = [{ bearerAuth: ['device'] }]

/**
 * Error answers a provisioning route adds to the usual ones (errorResponses): 404 also in the field
 * shape (a body field names something not found here), 409 (archived installation, not empty, taken),
 * 422 (not allowed, e.g. an object cycle). Spread into the route's `response`.
 */
export const provisioningErrors = {
  404: json(TEXTS.notFoundField, BadRequestBody),
  409: json(TEXTS.conflict, BadRequestBody),
  422: json(TEXTS.unprocessable, BadRequestBody),
}

/** The 204 answer of a DELETE or an action without content. */
export const NoContent = z.null().describe(TEXTS.noContent)

/**
 * The query of a route scoped by installationIdOf (server/api/http.ts): `installation`, or the
 * `installation-id` header. Kept a string here, so a missing or bad value answers "No installationId".
 */
export const InstallationScope = z.object({ installation: z.string().optional().describe('The installation id (or send the installation-id header).') })
