import type { FastifyBaseLogger } from 'fastify'
import { GATEWAY } from '../../../config/defaults.ts'
import type { Clock, ClockTimer } from '../../lib/clock.ts'
import type { Journal } from './journal.ts'
import type { GatewayReading } from './registers.ts'

/** Why a request failed, for the log: fetch's underlying cause (ECONNREFUSED, a timeout) rather than "fetch failed". */
export function reasonOf(err: unknown): string {
  const e = err as Error & { cause?: unknown }
  return e.cause instanceof Error ? e.cause.message : (e?.message ?? String(err))
}

/** The ingestion API's answer (shared/schemas/ingest.ts IngestResult). */
interface IngestAnswer {
  accepted?: number
  duplicates?: number
  rejected?: { index: number; reason: string }[]
}

/**
 * Sends the journal's readings in order to POST {url}/api/ingest/v1/readings with the device key, one
 * batch at a time (at most GATEWAY.batchReadings readings and about GATEWAY.batchBytes), and marks a
 * batch sent only once the portal answered 202. Unreachable portal, 5xx, 429, 401/403 (a key revoked
 * meanwhile: fixed at the portal, the readings wait) and 404: the batch is kept and tried again after
 * a wait on the clock, doubling from GATEWAY.retryMinMs to GATEWAY.retryMaxMs. 413: the batch is
 * halved. Any other 4xx refuses the batch itself (it would be refused forever): it is logged with the
 * answer and skipped. `begin`/`end` mark work under way for the gateway's `settled()`. `onReconnect` is
 * called when a send succeeds after failures (the portal reachable again).
 */
export function createForwarder({ url, key, journal, clock, log, begin, end, onReconnect }: { url: string; key: string; journal: Journal<GatewayReading>; clock: Clock; log: FastifyBaseLogger; begin: () => void; end: () => void; onReconnect?: () => void }) {
  let stopped = false
  let sent = 0
  let batch: number = GATEWAY.batchReadings
  let retryMs: number = GATEWAY.retryMinMs
  let failing = false
  // The loop waits for new readings (wake) or for a retry time (a clock timer); stop ends either.
  let wakeUp: (() => void) | null = null
  let timer: ClockTimer | undefined
  let retrying = false
  // Set by wake(): readings came in since the last look at the journal.
  let dirty = false
  let loop: Promise<void> | null = null

  /**
   * Wait for wake() or stop(), or with `ms` for a retry (then only the timer or stop() end it). The loop
   * counts as idle meanwhile: `end()` before, `begin()` at once when woken (so the work it resumes is
   * already counted when the waker finishes).
   */
  const idle = (ms?: number) =>
    new Promise<void>((resolve) => {
      retrying = ms !== undefined
      end()
      wakeUp = () => {
        wakeUp = null
        retrying = false
        clock.clearTimeout(timer)
        timer = undefined
        begin()
        resolve()
      }
      if (ms !== undefined) timer = clock.setTimeout(() => wakeUp?.(), ms)
    })

  /** One POST; returns what to do next. */
  async function send(readings: GatewayReading[]): Promise<'sent' | 'retry' | 'smaller' | 'skip'> {
    let res: Response
    try {
      res = await fetch(`${url}/api/ingest/v1/readings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ readings }),
        signal: AbortSignal.timeout(GATEWAY.requestTimeoutMs),
      })
    } catch (err) {
      if (!failing) log.warn({ reason: reasonOf(err), pending: journal.pending() }, 'gateway: portal unreachable; readings kept on disk')
      failing = true
      return 'retry'
    }
    const body = (await res.json().catch(() => null)) as IngestAnswer | { detail?: string } | null
    if (res.status === 202 || res.status === 200) {
      const answer = (body ?? {}) as IngestAnswer
      if (answer.rejected?.length) log.warn({ rejected: answer.rejected.length, first: answer.rejected.slice(0, 3).map((r) => ({ ...r, reading: readings[r.index] })) }, 'gateway: the portal refused readings')
      if (failing) {
        log.info({ pending: journal.pending() }, 'gateway: portal reachable again; sending kept readings')
        onReconnect?.()
      }
      failing = false
      return 'sent'
    }
    const detail = (body as { detail?: string } | null)?.detail ?? JSON.stringify(body)
    if (res.status === 413 && readings.length > 1) return 'smaller'
    if (res.status >= 500 || res.status === 429 || res.status === 401 || res.status === 403 || res.status === 404 || res.status === 408) {
      if (!failing) log.warn({ status: res.status, detail, pending: journal.pending() }, res.status === 401 ? 'gateway: GATEWAY_KEY refused (revoked or unknown); readings kept on disk' : 'gateway: portal answered an error; readings kept on disk')
      failing = true
      return 'retry'
    }
    log.error({ status: res.status, detail, readings: readings.length }, 'gateway: the portal refused a batch; skipped')
    return 'skip'
  }

  async function run() {
    begin()
    try {
      while (!stopped) {
        dirty = false
        const { items, lines, next } = await journal.peek(batch, GATEWAY.batchBytes)
        if (!lines) {
          if (dirty) continue
          await idle()
          continue
        }
        const outcome = items.length ? await send(items) : 'sent'
        if (outcome === 'sent' || outcome === 'skip') {
          await journal.ack(next, lines)
          if (outcome === 'sent') sent += items.length
          retryMs = GATEWAY.retryMinMs
          batch = Math.min(GATEWAY.batchReadings, batch * 2)
        } else if (outcome === 'smaller') {
          batch = Math.max(1, Math.floor(items.length / 2))
        } else {
          await idle(retryMs)
          retryMs = Math.min(GATEWAY.retryMaxMs, retryMs * 2)
        }
      }
    } catch (err) {
      log.error({ err }, 'gateway: sending stopped on a disk error')
    } finally {
      end()
    }
  }

  return {
    start() {
      loop ??= run()
    },
    /** New readings are on disk: send now (a wait for a retry is not cut short). */
    wake() {
      dirty = true
      if (!retrying) wakeUp?.()
    },
    async stop() {
      stopped = true
      wakeUp?.()
      await loop
    },
    /** Readings acknowledged by the portal since the start. */
    sent: () => sent,
  }
}
export type Forwarder = ReturnType<typeof createForwarder>
