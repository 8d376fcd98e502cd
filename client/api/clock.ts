/**
 * The server's clock as this browser sees it (ARCHITECTURE §1 "Time"; docs/decisions.md "Client: the
 * server's clock"). A server started with CLOCK_START shows its facility at that time, and a phone whose
 * own clock is minutes off still labels data "updated 5 s ago" and knows when its token expires. Every
 * "now" of the client comes from {@link clientNow}; client/api/clock.test.ts fails on another read.
 *
 * The offset is learnt from `GET /api/health` (`now`, taken at the middle of the round trip) after the
 * first paint, and from each fresh access token's `iat` (seconds, so ±1 s) until then. It is kept in
 * localStorage, so a reload or another tab has it before its first render (a chart's "today").
 */
const STORE_KEY = 'cockpit.clockOffset'

function stored(): { offsetMs: number; errorMs: number } {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(STORE_KEY) ?? 'null') as { offsetMs?: unknown } | null
    // A stored offset is a starting point only: any fresh sample replaces it.
    if (v && typeof v.offsetMs === 'number' && Number.isFinite(v.offsetMs)) return { offsetMs: v.offsetMs, errorMs: Number.POSITIVE_INFINITY }
  } catch {
    // no storage (private mode, tests): start from the browser's clock
  }
  return { offsetMs: 0, errorMs: Number.POSITIVE_INFINITY }
}

let { offsetMs, errorMs: offsetErrorMs } = stored()

/** The server's current time, ms since the epoch. */
export function clientNow(): number {
  return Date.now() + offsetMs
}

/** The server's current time as a Date. */
export function clientDate(): Date {
  return new Date(clientNow())
}

/**
 * Take a sample of the server's time: `serverMs` was the server's time at some instant between
 * `sentMs` and `receivedMs` (this browser's clock), give or take `resolutionMs` (a JWT's whole seconds).
 * A sample replaces the offset when it is at least as exact, or when it moves it by more than the error
 * of both (the server's clock was set anew, or the device's clock jumped).
 */
export function learnServerTime(serverMs: number, sentMs: number, receivedMs: number, resolutionMs = 0): void {
  if (!Number.isFinite(serverMs) || receivedMs < sentMs) return
  const error = (receivedMs - sentMs) / 2 + resolutionMs
  const offset = serverMs + resolutionMs / 2 - (sentMs + receivedMs) / 2
  if (error <= offsetErrorMs || Math.abs(offset - offsetMs) > error + offsetErrorMs) {
    offsetMs = offset
    offsetErrorMs = error
    try {
      globalThis.localStorage?.setItem(STORE_KEY, JSON.stringify({ offsetMs: Math.round(offset) }))
    } catch {
      // storage full or denied: this page still has it
    }
  }
}

/** Learn from an access token the server has just issued: its `iat` (whole seconds) is the server's now. */
export function learnFromToken(iatSeconds: unknown): void {
  const received = Date.now()
  if (typeof iatSeconds === 'number') learnServerTime(iatSeconds * 1000, received, received, 1000)
}

/** Ask the server its time once (`GET /api/health`); failures leave the offset as it is. */
export async function syncServerClock(fetcher: typeof fetch = fetch): Promise<void> {
  try {
    const sent = Date.now()
    const r = await fetcher('/api/health', { cache: 'no-store' })
    const received = Date.now()
    if (!r.ok) return
    const body = (await r.json()) as { now?: unknown }
    if (typeof body.now === 'string') learnServerTime(Date.parse(body.now), sent, received)
  } catch {
    // offline or an old server: the browser's own clock stands
  }
}
