import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { AppError, Forbidden, Invalid, Unauthorized, type FieldMessage } from '../lib/errors.ts'
import { DISPLAY_KEY_PREFIX } from '../../shared/schemas/display.ts'
import { Id } from '../../shared/schemas/common.ts'
import type { Actor } from '../domain/auth/service.ts'
import type { Domain } from '../domain/index.ts'

/** A zod issue as far as the SPEC §5 wording needs it (zod's own issue, or fastify-type-provider-zod's copy). */
export interface IssueLike {
  code: string
  path: readonly PropertyKey[]
  input?: unknown
  origin?: string
  minimum?: unknown
  maximum?: unknown
  format?: string
}

/**
 * Validation issues as SPEC §5 field errors: field = the issue path joined by '.' (or non_field_errors),
 * message key "required" for a missing value or an empty string, "invalidEmail" for a bad address,
 * "tooLong" naming the field and the bound for a too long text, else "invalidValue". Used by the error
 * handler for every request Fastify validated with a route's schema.
 */
export function invalidFields(issues: readonly IssueLike[]): Invalid {
  const fields: Record<string, FieldMessage[]> = {}
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors'
    const msg = fieldMessage(issue, field)
    const list = (fields[field] ??= [])
    if (!list.some((m) => JSON.stringify(m) === JSON.stringify(msg))) list.push(msg)
  }
  return new Invalid(fields)
}

function fieldMessage(i: IssueLike, field: string): FieldMessage {
  if (i.code === 'invalid_type' && i.input === undefined) return 'required'
  if (i.code === 'too_small' && i.origin === 'string' && i.minimum === 1) return 'required'
  if (i.code === 'too_big' && i.origin === 'string') return { key: 'tooLong', params: { field, max: Number(i.maximum) } }
  if (i.code === 'invalid_format' && i.format === 'email') return 'invalidEmail'
  // A day that does not exist (30 February, month 13) in a `Day` field (shared/schemas/common.ts).
  if (i.code === 'invalid_format' && i.format === 'date') return 'invalidDate'
  // A key a strict schema does not know (a configuration file's typo, server/domain/configuration/file.ts).
  if (i.code === 'unknown_key') return 'configurationUnknownKey'
  return 'invalidValue'
}

/** Parse `value` with a zod schema inside a handler (values a route schema cannot describe); failures as {@link invalidFields}. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value ?? {})
  if (r.success) return r.data
  throw invalidFields(r.error.issues as IssueLike[])
}

/**
 * The caller from `Authorization: Bearer <access>` (or a display link's key); 401 when
 * missing, invalid, revoked or expired.
 */
export async function actorOf(domain: Domain, req: FastifyRequest): Promise<Actor> {
  const known = (req as FastifyRequest & { actor?: Actor }).actor
  if (known) return known
  const header = req.headers.authorization
  if (!header?.startsWith('Bearer ')) throw Unauthorized()
  const token = header.slice(7).trim()
  return token.startsWith(DISPLAY_KEY_PREFIX) ? domain.displays.verify(token) : domain.auth.verify(token)
}

/**
 * The only operations a display link's key opens (a read-only credential for the Power view
 * of one installation): which link it is, the resolved access (the relay's ticket check) and the stored
 * hour of power flow the chart starts from. Everything else answers 403 displayReadOnly; the services
 * themselves confine a display to its own installation.
 */
export const DISPLAY_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /api/display/',
  'GET /api/cockpit/installations/:installationId/access',
  'GET /api/statistics/:installationId/flow',
])

/**
 * Sign-in before anything else: on every operation that is not public (`security: []`), the
 * bearer token is checked as the request arrives, so a caller without a valid token gets 401 before its
 * input is validated (a 400 would tell an anonymous caller about the operation's input). The actor is kept
 * for {@link actorOf}.
 */
export function requireSignIn(app: FastifyInstance, domain: Domain): void {
  app.addHook('onRequest', async (req) => {
    const security = (req.routeOptions.schema as { security?: unknown[] } | undefined)?.security
    if (Array.isArray(security) && security.length === 0) return
    // A device key's operations (devicesOnly) check the key themselves (server/api/ingest.ts).
    if (Array.isArray(security) && security.some((s) => (s as { bearerAuth?: string[] }).bearerAuth?.includes('device'))) return
    if (!req.routeOptions.url) return
    const actor = await actorOf(domain, req)
    if (actor.display && !DISPLAY_OPERATIONS.has(`${req.method === 'HEAD' ? 'GET' : req.method} ${req.routeOptions.url}`)) throw Forbidden('displayReadOnly')
    ;(req as FastifyRequest & { actor?: Actor }).actor = actor
  })
}

/**
 * The installation scope: `installation-id` header or `installation` query; 400 "No installationId"
 * when missing or not an id (1..2^31−1, shared/schemas/common.ts `Id`).
 */
export function installationIdOf(req: FastifyRequest): number {
  const raw = req.headers['installation-id'] ?? (req.query as Record<string, unknown> | undefined)?.installation
  const id = Id.safeParse(Array.isArray(raw) ? raw[0] : raw)
  if (!raw || !id.success) throw new AppError(400, 'noInstallationId')
  return id.data
}
