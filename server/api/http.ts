import type { FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { AppError, Invalid, Unauthorized } from '../lib/errors.ts'
import type { MessageKey } from '../lib/messages.ts'
import type { Actor } from '../domain/auth/service.ts'
import type { Domain } from '../domain/index.ts'

/**
 * Parse `value` with a zod schema; failures become a 400 `{ field: [message] }` in the SPEC §5 wording
 * ("The field is required.", "The field is not a valid email address", else "The value is not valid.").
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value ?? {})
  if (r.success) return r.data
  const fields: Record<string, MessageKey[]> = {}
  for (const issue of r.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : 'non_field_errors'
    const missing = issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined
    const empty = issue.code === 'too_small' && (issue as { origin?: string }).origin === 'string' && (issue as { minimum?: unknown }).minimum === 1
    const key: MessageKey = missing || empty ? 'required' : issue.code === 'invalid_format' && (issue as { format?: string }).format === 'email' ? 'invalidEmail' : 'invalidValue'
    ;(fields[field] ??= []).includes(key) || fields[field].push(key)
  }
  throw new Invalid(fields)
}

/** The caller from `Authorization: Bearer <access>`; 401 when missing, invalid or expired. */
export async function actorOf(domain: Domain, req: FastifyRequest): Promise<Actor> {
  const header = req.headers.authorization
  if (!header?.startsWith('Bearer ')) throw Unauthorized()
  return domain.auth.verify(header.slice(7).trim())
}

/** The installation scope: `installation-id` header or `installation` query; 400 "No installationId". */
export function installationIdOf(req: FastifyRequest): number {
  const raw = req.headers['installation-id'] ?? (req.query as Record<string, unknown> | undefined)?.installation
  const id = Number(Array.isArray(raw) ? raw[0] : raw)
  if (!raw || !Number.isInteger(id) || id <= 0) throw new AppError(400, 'noInstallationId')
  return id
}
