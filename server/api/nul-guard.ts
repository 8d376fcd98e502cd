import type { FastifyReply, FastifyRequest } from 'fastify'
import { Invalid } from '../lib/errors.ts'

const ENCODED_NUL = /%00/i

/** The path of the first string (or key) in `value` that holds a NUL character, '' for the value itself; null when none does. */
function nulAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (typeof value !== 'object' || value === null || depth > 64) return null
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key
    if (key.includes('\u0000')) return at
    const found = nulAt(v, at, depth + 1)
    if (found !== null) return found
  }
  return null
}

/**
 * preValidation hook for every /api route: a NUL character in the URL (raw or %00),
 * a header or a parsed body answers 400 `{field: ["The value is not valid."]}` ("non_field_errors" when
 * it is not in a body field). PostgreSQL refuses U+0000 in text (SQLSTATE 22021), so without this guard
 * any text a schema forgot to check was a 500; no legitimate input contains it.
 */
export async function refuseNulBytes(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const url = req.raw.url ?? ''
  if (url.includes('\u0000') || ENCODED_NUL.test(url)) throw new Invalid({ non_field_errors: ['invalidValue'] })
  for (const value of Object.values(req.headers)) {
    if (nulAt(value, '') !== null) throw new Invalid({ non_field_errors: ['invalidValue'] })
  }
  const at = nulAt(req.body, '')
  if (at !== null) throw new Invalid({ [at || 'non_field_errors']: ['invalidValue'] })
}
