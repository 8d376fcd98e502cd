import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const apiFetch = vi.fn()
vi.mock('../api/http.ts', () => ({ apiFetch: (...args: unknown[]) => apiFetch(...args) }))
vi.mock('../session/session.ts', () => ({ onLogout: () => () => {}, onInstallationChange: () => () => {} }))

const { retainStream, closeAllStreams, backoffDelay, reconnectDelay, HIDDEN_CLOSE_MS, RECONNECT_WITHIN_MS, setStreamCredential } = await import('./connection.ts')
const { live, resetLive } = await import('./store.ts')
const { ApiError } = await import('../api/errors.ts')

class FakeEventSource {
  static all: FakeEventSource[] = []
  url: string
  closed = false
  onopen: (() => void) | null = null
  onerror: (() => void) | null = null
  private listeners = new Map<string, Array<(e: { data: string; lastEventId: string }) => void>>()
  constructor(url: string) {
    this.url = url
    FakeEventSource.all.push(this)
  }
  addEventListener(type: string, fn: (e: { data: string; lastEventId: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn])
  }
  close() {
    this.closed = true
  }
  emit(type: string, data: unknown, id = '') {
    for (const fn of this.listeners.get(type) ?? []) fn({ data: JSON.stringify(data), lastEventId: id })
  }
  static last(): FakeEventSource {
    return FakeEventSource.all[FakeEventSource.all.length - 1]
  }
}

function eventTarget() {
  const listeners = new Map<string, Set<() => void>>()
  return {
    addEventListener: (t: string, fn: () => void) => listeners.set(t, (listeners.get(t) ?? new Set()).add(fn)),
    removeEventListener: (t: string, fn: () => void) => listeners.get(t)?.delete(fn),
    dispatch: (t: string) => listeners.get(t)?.forEach((fn) => fn()),
  }
}

const doc = { visibilityState: 'visible', ...eventTarget() }
const win = eventTarget()
let tickets = 0
const flush = () => vi.advanceTimersByTimeAsync(0)
const snapshot = (seq: number) => ({ topic: 'info', seq, data: { online: true, offline_since: null, alerts: [] } })

describe('live connection', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    FakeEventSource.all = []
    tickets = 0
    apiFetch.mockReset()
    apiFetch.mockImplementation(async () => ({ ticket: `t${++tickets}`, expires_in: 30 }))
    doc.visibilityState = 'visible'
    vi.stubGlobal('EventSource', FakeEventSource)
    vi.stubGlobal('document', doc)
    vi.stubGlobal('window', win)
    resetLive()
  })
  afterEach(() => {
    closeAllStreams()
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('opens one stream per installation with a fresh ticket, never the access token', async () => {
    const release1 = retainStream(4)
    const release2 = retainStream(4)
    await flush()
    expect(apiFetch).toHaveBeenCalledTimes(1)
    expect(apiFetch).toHaveBeenCalledWith('/live/tickets?installation=4', expect.objectContaining({ method: 'POST', body: { installation_id: 4 } }))
    expect(apiFetch.mock.calls[0][1].credential).toBeUndefined()
    expect(FakeEventSource.all.map((s) => s.url)).toEqual(['/live/installations/4?ticket=t1'])
    const es = FakeEventSource.last()
    es.onopen?.()
    expect(live.installations['4'].connection).toBe('open')
    es.emit('snapshot', snapshot(1), 'ep.1')
    expect(live.installations['4'].topics.info.data?.online).toBe(true)
    release1()
    expect(es.closed).toBe(false)
    release2()
    expect(es.closed).toBe(true)
  })

  it('on error closes the stream and reconnects itself with a new ticket and lastEventId', async () => {
    retainStream(4)
    await flush()
    const first = FakeEventSource.last()
    first.emit('snapshot', snapshot(7), 'ep.7')
    first.onerror?.()
    expect(first.closed).toBe(true)
    expect(live.installations['4'].connection).toBe('reconnecting')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(FakeEventSource.all).toHaveLength(2)
    expect(FakeEventSource.last().url).toBe('/live/installations/4?ticket=t2&lastEventId=ep.7')
  })

  it('an open stream that goes silent (no event, no heartbeat) is opened anew; heartbeats keep it', async () => {
    retainStream(4)
    await flush()
    const first = FakeEventSource.last()
    first.onopen?.()
    first.emit('snapshot', snapshot(7), 'ep.7')
    // A quiet facility: no changes, only the relay's heartbeat every 15 s for ten minutes.
    for (let i = 0; i < 40; i++) {
      await vi.advanceTimersByTimeAsync(15_000)
      first.emit('heartbeat', {})
    }
    expect(FakeEventSource.all).toHaveLength(1)
    expect(live.installations['4'].connection).toBe('open')
    // The socket stays open but nothing comes through: within a minute the stream is replaced.
    await vi.advanceTimersByTimeAsync(50_000)
    expect(first.closed).toBe(true)
    expect(live.installations['4'].connection).toBe('reconnecting')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(FakeEventSource.all).toHaveLength(2)
    expect(FakeEventSource.last().url).toBe('/live/installations/4?ticket=t2&lastEventId=ep.7')
  })

  it('backs off exponentially with jitter, capped so a returning server is tried again within 3 s', () => {
    expect(backoffDelay(0, () => 1)).toBe(500)
    expect(backoffDelay(1, () => 1)).toBe(1000)
    expect(backoffDelay(10, () => 1)).toBe(2000)
    expect(backoffDelay(10, () => 0)).toBe(1000)
    expect(RECONNECT_WITHIN_MS).toBeLessThanOrEqual(3000)
    for (let attempt = 0; attempt < 50; attempt++) expect(backoffDelay(attempt)).toBeLessThan(RECONNECT_WITHIN_MS)
  })

  it('reconnects within 3 s of the server answering again after a long outage', async () => {
    retainStream(4)
    await flush()
    FakeEventSource.last().onerror?.()
    // The server is down for 5 minutes: every ticket request fails.
    let down = true
    apiFetch.mockImplementation(async () => {
      if (down) throw new TypeError('network')
      return { ticket: `t${++tickets}`, expires_in: 30 }
    })
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(FakeEventSource.all).toHaveLength(1)
    down = false
    await vi.advanceTimersByTimeAsync(3000)
    expect(FakeEventSource.all).toHaveLength(2)
  })

  it('tries at once when the browser comes back online or the page is shown, without waiting out the back-off', async () => {
    retainStream(4)
    await flush()
    apiFetch.mockImplementation(async () => {
      throw new TypeError('network')
    })
    FakeEventSource.last().onerror?.()
    await vi.advanceTimersByTimeAsync(20_000)
    const calls = apiFetch.mock.calls.length
    apiFetch.mockImplementation(async () => ({ ticket: `t${++tickets}`, expires_in: 30 }))
    win.dispatch('online')
    await flush()
    expect(apiFetch.mock.calls.length).toBe(calls + 1)
    expect(FakeEventSource.all).toHaveLength(2)
    // A stream that errors while the page is hidden is retried the moment it is shown.
    apiFetch.mockImplementation(async () => {
      throw new TypeError('network')
    })
    FakeEventSource.last().onerror?.()
    await vi.advanceTimersByTimeAsync(20_000)
    apiFetch.mockImplementation(async () => ({ ticket: `t${++tickets}`, expires_in: 30 }))
    doc.dispatch('visibilitychange')
    await flush()
    expect(FakeEventSource.all).toHaveLength(3)
  })

  it('asks for tickets with a display key when one is set', async () => {
    setStreamCredential('cdk_key')
    try {
      retainStream(4)
      await flush()
      expect(apiFetch.mock.calls[0][1].credential).toBe('cdk_key')
    } finally {
      setStreamCredential(null)
    }
  })

  it('closes after 30 s hidden and resumes when shown again', async () => {
    retainStream(4)
    await flush()
    const es = FakeEventSource.last()
    es.emit('snapshot', snapshot(3), 'ep.3')
    doc.visibilityState = 'hidden'
    doc.dispatch('visibilitychange')
    await vi.advanceTimersByTimeAsync(HIDDEN_CLOSE_MS - 1000)
    expect(es.closed).toBe(false)
    await vi.advanceTimersByTimeAsync(1000)
    expect(es.closed).toBe(true)
    expect(live.installations['4'].connection).toBe('paused')
    doc.visibilityState = 'visible'
    doc.dispatch('visibilitychange')
    await flush()
    expect(FakeEventSource.last().url).toBe('/live/installations/4?ticket=t2&lastEventId=ep.3')
  })

  it('a short hide keeps the stream', async () => {
    retainStream(4)
    await flush()
    const es = FakeEventSource.last()
    doc.visibilityState = 'hidden'
    doc.dispatch('visibilitychange')
    await vi.advanceTimersByTimeAsync(10_000)
    doc.visibilityState = 'visible'
    doc.dispatch('visibilitychange')
    await vi.advanceTimersByTimeAsync(60_000)
    expect(es.closed).toBe(false)
    expect(FakeEventSource.all).toHaveLength(1)
  })

  it('restarts without lastEventId when a patch cannot be applied', async () => {
    retainStream(4)
    await flush()
    FakeEventSource.last().emit('patch', { topic: 'stations', seq: 5, ops: [] }, 'ep.5')
    await flush()
    expect(FakeEventSource.all).toHaveLength(2)
    expect(FakeEventSource.last().url).toBe('/live/installations/4?ticket=t2')
  })

  it('gives up when the ticket is refused with 403', async () => {
    apiFetch.mockRejectedValueOnce(new ApiError('/live/tickets', 403, 'Forbidden', { detail: 'no' }))
    retainStream(4)
    await flush()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(FakeEventSource.all).toHaveLength(0)
    expect(live.installations['4'].connection).toBe('failed')
    expect(live.installations['4'].connectionError).toBe('forbidden')
  })

  it('waits out a busy relay’s Retry-After on a 503, jittered, instead of the 2 s back-off', async () => {
    apiFetch.mockRejectedValueOnce(new ApiError('/live/tickets', 503, 'Service Unavailable', { detail: 'busy' }, 8))
    retainStream(4)
    await flush()
    // Not before the 8 s the relay asked for, although the back-off would have tried within 3 s.
    await vi.advanceTimersByTimeAsync(7_900)
    expect(apiFetch).toHaveBeenCalledTimes(1)
    expect(FakeEventSource.all).toHaveLength(0)
    // Within 8–12 s (jitter of up to half the Retry-After).
    await vi.advanceTimersByTimeAsync(4_200)
    expect(apiFetch).toHaveBeenCalledTimes(2)
    expect(FakeEventSource.all).toHaveLength(1)
  })

  it('spreads a refused herd over Retry-After × 1–1.5; without Retry-After keeps the back-off below 3 s', () => {
    const busy = new ApiError('/live/tickets', 503, 'Service Unavailable', null, 10)
    expect(reconnectDelay(0, busy, () => 0)).toBe(10_000)
    expect(reconnectDelay(0, busy, () => 1)).toBe(15_000)
    const delays = new Set(Array.from({ length: 50 }, () => reconnectDelay(0, busy)))
    expect(delays.size).toBeGreaterThan(10)
    // A 503 without Retry-After (the API answering again after an outage) and network errors: as before.
    for (const err of [new ApiError('/live/tickets', 503, 'Service Unavailable', null), new TypeError('network')]) {
      for (let attempt = 0; attempt < 20; attempt++) expect(reconnectDelay(attempt, err)).toBeLessThan(RECONNECT_WITHIN_MS)
    }
    // A silly header does not park the stream for a day.
    expect(reconnectDelay(0, new ApiError('/live/tickets', 503, '', null, 86_400), () => 0)).toBe(120_000)
  })

  it('retries when the ticket request fails otherwise', async () => {
    apiFetch.mockRejectedValueOnce(new TypeError('network'))
    retainStream(4)
    await flush()
    expect(FakeEventSource.all).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(FakeEventSource.all).toHaveLength(1)
  })
})
