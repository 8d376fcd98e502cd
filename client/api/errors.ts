/**
 * API errors and the one place that turns any error into a user message (SPEC §8).
 */

/** Fixed status texts (SPEC §8); HTTP/2 answers carry none of their own. */
const STATUS_TEXTS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

/** A non-2xx answer: url, status, status text and parsed body (JSON, else text). */
export class ApiError extends Error {
  readonly url: string
  readonly status: number
  readonly statusText: string
  readonly body: unknown
  /** Seconds from a Retry-After header (429), when given. */
  readonly retryAfter: number | null
  /** Set when this 401 ended the session (the user is being sent to login): callers stay quiet. */
  loggedOut = false

  constructor(url: string, status: number, statusText: string, body: unknown, retryAfter: number | null = null) {
    const text = STATUS_TEXTS[status] ?? statusText
    super(
      STATUS_TEXTS[status] ?? `Generic Error: ${status}; ${statusText}; ${typeof body === 'string' ? body : JSON.stringify(body)}`,
    )
    this.name = 'ApiError'
    this.url = url
    this.status = status
    this.statusText = text
    this.body = body
    this.retryAfter = retryAfter
  }
}

/** Build an ApiError from a failed fetch Response (reads the body). */
export async function apiErrorFrom(res: Response): Promise<ApiError> {
  const raw = await res.text().catch(() => '')
  let body: unknown = raw
  if (raw) {
    try {
      body = JSON.parse(raw)
    } catch {
      // not JSON: keep the text
    }
  }
  const retry = Number(res.headers.get('Retry-After'))
  return new ApiError(res.url, res.status, res.statusText, body, Number.isFinite(retry) && retry > 0 ? retry : null)
}

/** A request abandoned after its timeout (AbortSignal.timeout), as opposed to cancelled by the page. */
export function isTimeoutError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'TimeoutError'
}

/** A request cancelled by the page (navigation, unmount), which nobody needs to be told about. */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError'
}

function firstString(value: unknown): string | null {
  if (typeof value === 'string') return value || null
  if (Array.isArray(value) && value.length > 0) return firstString(value[0])
  return null
}

/**
 * The text to show for a body of a 4xx answer (SPEC §8 message extraction): the first entry of
 * `detail` or `detail` itself; else the first entry of an array body; else the first message of
 * the first field of an object body; else the raw body. Null when nothing usable is there.
 */
export function extractMessage(body: unknown): string | null {
  if (Array.isArray(body)) return firstString(body)
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>
    if ('detail' in record) return firstString(record.detail) ?? (record.detail == null ? null : String(record.detail))
    const first = Object.values(record)[0]
    return firstString(first)
  }
  if (typeof body === 'string') return body.trim() || null
  return null
}

type Translate = (key: string, options?: Record<string, unknown>) => string

/**
 * The user message for any error (SPEC §8): 5xx → the status text or "Server error"; other API
 * errors → {@link extractMessage}; aborted → "The operation was canceled."; timed out → "The server did
 * not answer in time."; anything else →
 * "Something went wrong.". `t` is a translator bound to the common namespace.
 */
export function errorMessage(err: unknown, t: Translate): string {
  if (isAbortError(err)) return t('errors.canceled')
  if (isTimeoutError(err)) return t('errors.timeout')
  if (err instanceof ApiError) {
    if (err.status >= 500) return STATUS_TEXTS[err.status] ? t(`errors.http${err.status}`) : t('errors.server')
    return extractMessage(err.body) ?? (STATUS_TEXTS[err.status] ? t(`errors.http${err.status}`) : t('errors.generic'))
  }
  return t('errors.generic')
}

/** Per-field first messages of a 400 validation body `{"field": ["message"]}`; empty when none. */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || err.status !== 400) return {}
  const body = err.body
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {}
  const out: Record<string, string> = {}
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    if (field === 'detail' || field === 'non_field_errors') continue
    const message = firstString(value)
    if (message) out[field] = message
  }
  return out
}
