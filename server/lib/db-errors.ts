import type { MessageKey } from './messages.ts'

/**
 * A PostgreSQL error as both drivers throw it: PGlite's and node-postgres' DatabaseError carry the
 * SQLSTATE in `code` (five characters) and a `severity`; Node system errors (`ECONNRESET`, …) have no
 * severity.
 */
interface PgError {
  code: string
  severity: string
  routine?: string
}

function isPgError(err: unknown): err is PgError {
  if (typeof err !== 'object' || err === null) return false
  const { code, severity } = err as Partial<PgError>
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string'
}

/**
 * The answer to a database error caused by the request's data, or null for any other error (a real
 * 500). A backstop behind the schemas: a value a schema forgot to bound must not
 * become "Something went wrong.".
 * - SQLSTATE class 22 (data exception: 22P02 invalid text representation, 22003 numeric out of range,
 *   22007/22008 bad or overflowing date/time, 22021 invalid byte sequence such as NUL, 22001 string too
 *   long, …) → 400 "The value is not valid.";
 * - 23503 foreign key violation (the body names something that does not exist) and 23514 check
 *   violation → 400 "The value is not valid.";
 * - 23505 unique violation → 409 "An entry with these values already exists.".
 * Integrity errors a service should have prevented (23502 not null, …) stay 500.
 */
export function dbErrorAnswer(err: unknown): { status: number; key: MessageKey; code: string } | null {
  if (!isPgError(err)) return null
  const { code } = err
  if (code.startsWith('22') || code === '23503' || code === '23514') return { status: 400, key: 'invalidValue', code }
  if (code === '23505') return { status: 409, key: 'alreadyExists', code }
  return null
}
