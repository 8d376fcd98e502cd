import { apiFetch } from '../api/http.ts'
import { ApiError } from '../api/errors.ts'
import { onInstallationChange, onLogout } from '../session/session.ts'
import { applyEvent, clearResume, ensureInstallation, markSeen, resetLive, setConnection } from './store.ts'
import { isStalled } from './freshness.ts'
import { clientNow } from '../api/clock.ts'
import { clearSavedLive, saveLive, scheduleSave } from './persist.ts'

/** Close the stream after the tab has been hidden this long. */
export const HIDDEN_CLOSE_MS = 30_000
/**
 * A server that answers again is tried within this long (reconnect within 3 s; it was
 * up to 30 s). The back-off is capped below it; jitter still spreads a fleet of clients over the window.
 */
export const RECONNECT_WITHIN_MS = 3_000
const BACKOFF_MIN_MS = 500
const BACKOFF_MAX_MS = 2_000
/** Longest Retry-After honoured (s): a wrong header must not park a stream for hours. */
const RETRY_AFTER_MAX_S = 120
/** A ticket request that hangs (a proxy in front of a restarting server) is given up after this. */
const TICKET_TIMEOUT_MS = 5_000
const EVENT_TYPES = ['snapshot', 'patch', 'merge', 'status'] as const
/** How often an open stream is checked for a stall (client/live/freshness.ts). */
const STALL_CHECK_MS = 5_000

interface Stream {
  installationId: number
  users: number
  source: EventSource | null
  retryTimer: ReturnType<typeof setTimeout> | null
  hiddenTimer: ReturnType<typeof setTimeout> | null
  /** Checks the open stream for silence: a stalled one is closed and opened anew. */
  stallTimer: ReturnType<typeof setInterval> | null
  attempt: number
  /** Bumped on every (re)connect and on close, so late answers of an old attempt are dropped. */
  generation: number
  stopped: boolean
}

const streams = new Map<number, Stream>()

/**
 * Reconnect delay (ms) for the n-th failed attempt: exponential from 0.5 s, capped at 2 s, each a random
 * 50–100 % of that (jitter), so always below {@link RECONNECT_WITHIN_MS}.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(attempt, 20))
  return Math.round(base * (0.5 + random() / 2))
}

/**
 * Delay (ms) before asking again after a failed ticket request: a relay that answered 503 or 429 with
 * Retry-After (RFC 9110 §10.2.3; the relay's access-check queue was full) is given that
 * long, times 1–1.5 at random so a refused herd does not come back together; otherwise
 * {@link backoffDelay}, which keeps "reconnect within 3 s of the server answering again".
 */
export function reconnectDelay(attempt: number, err: unknown, random: () => number = Math.random): number {
  if (err instanceof ApiError && (err.status === 503 || err.status === 429) && err.retryAfter) {
    return Math.round(Math.min(err.retryAfter, RETRY_AFTER_MAX_S) * 1000 * (1 + random() / 2))
  }
  return backoffDelay(attempt, random)
}

/** A display link's key, used instead of the signed-in session to ask for tickets. */
let credential: string | null = null

/** Ask for stream tickets with a display link's key (the display view), or with the session again (null). */
export function setStreamCredential(key: string | null): void {
  credential = key
}

/**
 * POST /live/tickets → a single-use ticket for the stream URL (the access token never goes in a URL).
 * The installation is in the query too, for the proxy: with several relays (deploy/nginx.conf) the
 * ticket must come from the relay that serves the installation's stream.
 */
async function requestTicket(installationId: number): Promise<string> {
  const res = await apiFetch<{ ticket: string; expires_in: number }>(`/live/tickets?installation=${installationId}`, {
    method: 'POST',
    body: { installation_id: installationId },
    signal: AbortSignal.timeout(TICKET_TIMEOUT_MS),
    ...(credential ? { credential } : {}),
  })
  return res.ticket
}

function streamUrl(installationId: number, ticket: string, lastEventId: string | null): string {
  const params = new URLSearchParams({ ticket })
  if (lastEventId) params.set('lastEventId', lastEventId)
  return `/live/installations/${installationId}?${params.toString()}`
}

function closeSource(stream: Stream): void {
  stream.generation++
  if (stream.source) {
    stream.source.close()
    stream.source = null
  }
  if (stream.retryTimer) {
    clearTimeout(stream.retryTimer)
    stream.retryTimer = null
  }
  if (stream.stallTimer) {
    clearInterval(stream.stallTimer)
    stream.stallTimer = null
  }
}

function scheduleReconnect(stream: Stream, err?: unknown): void {
  closeSource(stream)
  if (stream.stopped) return
  setConnection(stream.installationId, 'reconnecting')
  const delay = reconnectDelay(stream.attempt++, err)
  stream.retryTimer = setTimeout(() => {
    stream.retryTimer = null
    void connect(stream)
  }, delay)
}

async function connect(stream: Stream): Promise<void> {
  closeSource(stream)
  if (stream.stopped) return
  const generation = stream.generation
  const { installationId } = stream
  const inst = ensureInstallation(installationId)
  setConnection(installationId, inst.topics.metrics.loaded ? 'reconnecting' : 'connecting')
  let ticket: string
  try {
    ticket = await requestTicket(installationId)
  } catch (err) {
    if (generation !== stream.generation || stream.stopped) return
    if (err instanceof ApiError && err.loggedOut) return
    // A display key that was revoked or passed its end date answers 401: as final as a 403.
    if (err instanceof ApiError && (err.status === 403 || err.status === 404 || (credential && err.status === 401))) {
      // No access to this installation's stream: retrying will not help.
      setConnection(installationId, 'failed', err.status === 404 ? 'notFound' : 'forbidden')
      return
    }
    scheduleReconnect(stream, err)
    return
  }
  if (generation !== stream.generation || stream.stopped) return

  // Our own reconnect (fresh ticket + lastEventId) replaces EventSource's, which would reuse a spent ticket.
  const source = new EventSource(streamUrl(installationId, ticket, ensureInstallation(installationId).lastEventId))
  stream.source = source
  source.onopen = () => {
    if (stream.source !== source) return
    stream.attempt = 0
    const openedAt = clientNow()
    setConnection(installationId, 'open')
    // A socket can stay open while nothing comes through (a stalled proxy or relay): the heartbeat
    // (ARCHITECTURE §5) stops too, and after STALL_MS the stream is opened anew with lastEventId.
    if (stream.stallTimer) clearInterval(stream.stallTimer)
    stream.stallTimer = setInterval(() => {
      const heard = Math.max(ensureInstallation(installationId).lastSeen ?? 0, openedAt)
      if (stream.source === source && isStalled(heard, clientNow())) scheduleReconnect(stream)
    }, STALL_CHECK_MS)
  }
  source.onerror = () => {
    if (stream.source !== source) return
    scheduleReconnect(stream)
  }
  // The relay's heartbeat is an event (not an SSE comment, which EventSource never shows): it
  // confirms that the stream and the data it carries are current.
  source.addEventListener('heartbeat', () => {
    if (stream.source === source) markSeen(installationId)
  })
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (e) => {
      if (stream.source !== source) return
      markSeen(installationId)
      const msg = e as MessageEvent<string>
      const result = applyEvent(installationId, type, msg.data, msg.lastEventId || null)
      if (result === 'applied') scheduleSave(installationId)
      if (result === 'resync') {
        clearResume(installationId)
        void connect(stream)
      }
    })
  }
}

function onVisibility(): void {
  const hidden = document.visibilityState === 'hidden'
  for (const stream of streams.values()) {
    if (hidden) {
      stream.hiddenTimer ??= setTimeout(() => {
        stream.hiddenTimer = null
        closeSource(stream)
        setConnection(stream.installationId, 'paused')
      }, HIDDEN_CLOSE_MS)
    } else {
      if (stream.hiddenTimer) {
        clearTimeout(stream.hiddenTimer)
        stream.hiddenTimer = null
      }
      // Resume with a fresh ticket and lastEventId (paused, or waiting out a back-off).
      if (!stream.source) {
        stream.attempt = 0
        void connect(stream)
      }
    }
  }
}

// Keep the newest state for the next page load of this tab (persist.ts).
function onPageHide(): void {
  for (const stream of streams.values()) saveLive(stream.installationId)
}

// Back online: try at once rather than waiting out the back-off.
function onOnline(): void {
  for (const stream of streams.values()) {
    if (!stream.source && stream.retryTimer) {
      stream.attempt = 0
      void connect(stream)
    }
  }
}

let listening = false
function listen(): void {
  if (listening) return
  listening = true
  document.addEventListener('visibilitychange', onVisibility)
  window.addEventListener('online', onOnline)
  window.addEventListener('pagehide', onPageHide)
}

function stop(stream: Stream): void {
  saveLive(stream.installationId)
  stream.stopped = true
  closeSource(stream)
  if (stream.hiddenTimer) clearTimeout(stream.hiddenTimer)
  streams.delete(stream.installationId)
  if (streams.size === 0 && listening) {
    listening = false
    document.removeEventListener('visibilitychange', onVisibility)
    window.removeEventListener('online', onOnline)
    window.removeEventListener('pagehide', onPageHide)
  }
}

/**
 * Use the live stream of an installation: one per tab and installation, shared by all callers
 * (reference counted). Returns the release function. The data stays in the store after release,
 * so a later stream resumes from lastEventId.
 */
export function retainStream(installationId: number): () => void {
  let stream = streams.get(installationId)
  if (!stream) {
    stream = {
      installationId,
      users: 0,
      source: null,
      retryTimer: null,
      hiddenTimer: null,
      stallTimer: null,
      attempt: 0,
      generation: 0,
      stopped: false,
    }
    streams.set(installationId, stream)
    listen()
    void connect(stream)
  }
  stream.users++
  const s = stream
  let released = false
  return () => {
    if (released) return
    released = true
    s.users--
    if (s.users <= 0 && !s.stopped) {
      stop(s)
      setConnection(installationId, 'idle')
    }
  }
}

/**
 * Start the installation's stream ahead of the page that will use it (the ticket is asked
 * for while the page's chunk and the installation list are still loading). Held for `ms`; a page that
 * retains the stream in the meantime keeps it open.
 */
export function prewarmStream(installationId: number, ms = 10_000): void {
  const release = retainStream(installationId)
  setTimeout(release, ms)
}

/** Close every stream (logout). */
export function closeAllStreams(): void {
  for (const stream of [...streams.values()]) stop(stream)
}

// SPEC §4: logout clears all installation data; an installation change resets the previous one's.
onLogout(() => {
  closeAllStreams()
  resetLive()
  clearSavedLive()
})
onInstallationChange((previous, next) => {
  const s = previous === null ? undefined : streams.get(previous)
  if (s) stop(s)
  resetLive(next)
})
