import { describe, expect, it, vi } from 'vitest'

vi.mock('../session/session.ts', () => ({ onLogout: () => () => undefined }))

const { shouldRetry, retryDelay, createQueryClient, MAX_RETRIES, MAX_RETRY_DELAY_MS } = await import('./query.ts')
const { ApiError } = await import('./errors.ts')

const answer = (status: number, retryAfter: number | null = null) => new ApiError('/api/x', status, '', null, retryAfter)

describe('read retries', () => {
  it('retries what another try can fix: network errors, timeouts, 5xx, 408 and 429', () => {
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true)
    expect(shouldRetry(0, new DOMException('timed out', 'TimeoutError'))).toBe(true)
    for (const status of [500, 502, 503, 408, 429]) expect(shouldRetry(0, answer(status))).toBe(true)
  })

  it('never retries an answer the server has decided, a lost session or a cancelled request', () => {
    for (const status of [400, 401, 403, 404, 409]) expect(shouldRetry(0, answer(status))).toBe(false)
    const loggedOut = answer(401)
    loggedOut.loggedOut = true
    expect(shouldRetry(0, loggedOut)).toBe(false)
    expect(shouldRetry(0, new DOMException('aborted', 'AbortError'))).toBe(false)
  })

  it(`stops after ${MAX_RETRIES} retries`, () => {
    expect(shouldRetry(MAX_RETRIES - 1, answer(503))).toBe(true)
    expect(shouldRetry(MAX_RETRIES, answer(503))).toBe(false)
  })

  it('backs off exponentially with jitter, capped, and honours Retry-After', () => {
    expect(retryDelay(0, answer(503), () => 0.5)).toBe(500)
    expect(retryDelay(1, answer(503), () => 0.5)).toBe(1000)
    expect(retryDelay(10, answer(503), () => 0.5)).toBe(MAX_RETRY_DELAY_MS)
    expect(retryDelay(0, answer(503), () => 0)).toBe(250)
    expect(retryDelay(0, answer(503), () => 0.999)).toBeLessThanOrEqual(750)
    expect(retryDelay(0, answer(429, 5), () => 0.5)).toBe(5000)
  })
})

describe('query client', () => {
  it('shares one request between concurrent readers of a key and keeps the answer cached', async () => {
    const client = createQueryClient()
    let calls = 0
    const fetcher = async () => (calls++, { value: 42 })
    const [a, b] = await Promise.all([
      client.fetchQuery({ queryKey: ['x'], queryFn: fetcher }),
      client.fetchQuery({ queryKey: ['x'], queryFn: fetcher }),
    ])
    expect([a, b, calls]).toEqual([{ value: 42 }, { value: 42 }, 1])
    await client.fetchQuery({ queryKey: ['x'], queryFn: fetcher })
    expect(calls).toBe(1)
    await client.invalidateQueries({ queryKey: ['x'] })
    await client.fetchQuery({ queryKey: ['x'], queryFn: fetcher })
    expect(calls).toBe(2)
  })

  it('retries a 503 and then succeeds, but gives up at once on a 404', async () => {
    const client = createQueryClient()
    client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retryDelay: 1 } })
    let n = 0
    const flaky = async () => {
      n++
      if (n < 3) throw answer(503)
      return 'ok'
    }
    await expect(client.fetchQuery({ queryKey: ['flaky'], queryFn: flaky, retry: shouldRetry })).resolves.toBe('ok')
    expect(n).toBe(3)
    let m = 0
    const missing = async () => {
      m++
      throw answer(404)
    }
    await expect(client.fetchQuery({ queryKey: ['missing'], queryFn: missing, retry: shouldRetry })).rejects.toBeInstanceOf(ApiError)
    expect(m).toBe(1)
  })
})
