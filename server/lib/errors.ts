import type { MessageKey } from './messages.ts'

/**
 * Typed errors thrown by domain services and routes; one error handler (server/app.ts) turns them into
 * the ARCHITECTURE §3 shapes in the caller's language: `{"detail": "…"}` or `{"field": ["…"]}`.
 */
export class AppError extends Error {
  readonly status: number
  readonly key: MessageKey
  readonly params: Record<string, string | number>
  readonly headers: Record<string, string>
  constructor(status: number, key: MessageKey, params: Record<string, string | number> = {}, headers: Record<string, string> = {}) {
    super(key)
    this.status = status
    this.key = key
    this.params = params
    this.headers = headers
  }
}

/** A field message: its key, or its key with `{{placeholder}}` values (e.g. tooLong's field and max). */
export type FieldMessage = MessageKey | { key: MessageKey; params: Record<string, string | number> }

/**
 * 400 with field errors: `{ field: [message, …] }`; `params` fill the {{placeholders}} of plain keys.
 * `status` answers another 4xx in the same field shape when the field's value is the cause: 404 (it names
 * something not found here), 409 (it conflicts with what exists), 422 (well-formed but not allowed, e.g.
 * an object made its own ancestor).
 */
export class Invalid extends AppError {
  readonly fields: Record<string, FieldMessage[]>
  constructor(fields: Record<string, FieldMessage[]>, params: Record<string, string | number> = {}, status: 400 | 404 | 409 | 422 = 400) {
    super(status, 'invalidValue', params)
    this.fields = fields
  }
}

export const BadRequest = (key: MessageKey) => new AppError(400, key)
export const Unauthorized = (key: MessageKey = 'notAuthenticated') => new AppError(401, key)
export const Forbidden = (key: MessageKey = 'forbidden') => new AppError(403, key)
export const NotFound = () => new AppError(404, 'notFound')
/** 503: the server is shutting down (or a dependency is down); the client may retry shortly. */
export const ServiceUnavailable = () => new AppError(503, 'upstreamUnavailable')
export const TooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'tooManyAttempts', { minutes: Math.ceil(retryAfterSeconds / 60) }, { 'Retry-After': String(retryAfterSeconds) })
