import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import net from 'node:net'
import type { FastifyInstance } from 'fastify'
import { EventSource } from 'eventsource'
import { startApp, until, sleep } from './helpers.ts'
import { adminAccess, metricsBody, ok, startStubUpstream } from './stub-upstream.ts'

// The relay's /live/metrics needs METRICS_TOKEN (docs/decisions.md "Metrics: a token").
const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef0123'

/**
 * Relay limits against a stub upstream whose stations payload is large and changes on every
 * poll, so that a subscriber that stops reading falls behind quickly.
 */
let tick = 0
let stub: Awaited<ReturnType<typeof startStubUpstream>>

let app: FastifyInstance
let base: string
let port: number

beforeAll(async () => {
  stub = await startStubUpstream({
    access: (token) => adminAccess(Number(/^u(\d+)/.exec(token)?.[1] ?? 1)),
    metrics: () => ok(metricsBody(1, { tick: ++tick })),
    other: (req) => {
      if (!req.url?.startsWith('/api/cockpit/installations/1/charging_stations/')) return undefined
      tick++
      // ~64 KB per poll, all of it changing: a non-reading client's socket fills within a few polls.
      return ok({ count: 200, next: null, previous: null, results: Array.from({ length: 200 }, (_, i) => ({ id: i + 1, note: `${tick}-${'x'.repeat(300)}` })) })
    },
  })
  ;({ app, url: base } = await startApp({
    roles: ['relay'],
    upstreamUrl: stub.upstreamUrl,
    relayUpstream: { email: 'relay@example.com', password: 'x' },
    intervals: { stations: 100, metrics: 100 },
    relay: { maxStreamsPerUser: 3, maxStreamsPerIp: 50, maxBufferedBytes: 256 * 1024, maxBlockedMs: 1500, sweepMs: 200, replayMs: 1000 },
    metricsToken: METRICS_TOKEN,
  }))
  port = Number(new URL(base).port)
})
afterAll(async () => {
  await app?.close()
  await stub?.close()
})

function watcher(user: number, lastEventId?: string, topics = 'stations') {
  const events: { type: string; id: string; seq: number }[] = []
  const es = new EventSource(`${base}/live/installations/1?topics=${topics}${lastEventId ? `&lastEventId=${lastEventId}` : ''}`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer u${user}` } }),
  })
  for (const type of ['snapshot', 'patch', 'merge']) es.addEventListener(type, (e) => events.push({ type, id: e.lastEventId, seq: JSON.parse(e.data).seq }))
  return { es, events }
}

/** A raw client that sends the request and then never reads: its socket buffers fill up. */
function stalledClient(user: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /live/installations/1?topics=stations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer u${user}\r\nAccept: text/event-stream\r\n\r\n`)
      socket.once('data', () => {
        socket.pause()
        resolve(socket)
      })
    })
  })
}

describe('relay limits', () => {
  it('answer 429 past the per-user cap, and free the slot when a stream closes', async () => {
    const open = [watcher(7), watcher(7), watcher(7)]
    await until(() => open.every((w) => w.events.length), 5000, 'three streams')
    const fourth = await fetch(`${base}/live/installations/1?topics=stations`, { headers: { authorization: 'Bearer u7' } })
    expect(fourth.status).toBe(429)
    expect(fourth.headers.get('retry-after')).toBe('30')
    expect((await fourth.json()).detail).toMatch(/Too many live connections/)
    open[0].es.close()
    await until(async () => {
      const r = await fetch(`${base}/live/installations/1?topics=stations`, { headers: { authorization: 'Bearer u7' } })
      await r.body?.cancel()
      return r.status === 200
    }, 5000, 'a freed slot')
    for (const w of open) w.es.close()
  })

  it('drops a subscriber that stops reading, while the others keep receiving', async () => {
    const healthy = watcher(21)
    const droppedBefore = app.relay!.hub.stats.dropped
    const stalled = await stalledClient(22)
    await until(() => app.relay!.hub.stats.dropped > droppedBefore, 20_000, 'the stalled subscriber to be dropped')
    stalled.destroy()
    const received = healthy.events.length
    await sleep(500)
    expect(healthy.events.length).toBeGreaterThan(received)
    healthy.es.close()
  }, 30_000)

  it('replays exactly inside the ring and sends snapshots outside it', async () => {
    const first = watcher(31, undefined, 'metrics')
    await until(() => first.events.filter((e) => e.type !== 'snapshot').length >= 2, 5000, 'updates')
    const last = first.events.at(-1)!
    first.es.close()
    // Inside the ring (replayMs 1 s): only the missed updates, continuing right after the last seq.
    await sleep(300)
    const inside = watcher(31, last.id, 'metrics')
    await until(() => inside.events.length >= 2, 5000, 'replayed events')
    expect(inside.events[0].type).not.toBe('snapshot')
    expect(inside.events[0].seq).toBeGreaterThan(last.seq)
    const seqs = inside.events.map((e) => e.seq)
    expect(new Set(seqs).size).toBe(seqs.length)
    const resumedAt = inside.events.at(-1)!
    inside.es.close()
    // Outside the ring: a snapshot.
    await sleep(1600)
    const outside = watcher(31, resumedAt.id, 'metrics')
    await until(() => outside.events.length >= 1, 5000, 'a snapshot')
    expect(outside.events[0].type).toBe('snapshot')
    outside.es.close()
  })

  it('serves Prometheus text at /live/metrics', async () => {
    const text = await (await fetch(`${base}/live/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
    for (const name of ['cockpit_relay_subscribers', 'cockpit_relay_installations', 'cockpit_relay_polled_topics', 'cockpit_relay_events_sent_total',
      'cockpit_relay_bytes_sent_total', 'cockpit_relay_dropped_subscribers_total', 'cockpit_relay_replay_hits_total']) expect(text).toContain(name)
    expect(text).toMatch(/cockpit_relay_upstream_calls_total\{topic="stations"\} [1-9]/)
    expect(Number(/cockpit_relay_dropped_subscribers_total (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(1)
  })

  it('on shutdown tells every stream to retry soon and closes it', async () => {
    const w = watcher(41)
    await until(() => w.events.length, 5000, 'a first event')
    const raw = await fetch(`${base}/live/installations/1?topics=stations`, { headers: { authorization: 'Bearer u42' } })
    const reader = raw.body!.getReader()
    let text = ''
    const done = (async () => {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        text += new TextDecoder().decode(value)
      }
    })()
    // A client that never closes its side of the connection must not hold the shutdown up.
    const halfOpen = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    let halfOpenText = ''
    halfOpen.on('data', (b) => (halfOpenText += b))
    const halfOpenEnded = new Promise((r) => halfOpen.once('end', r))
    halfOpen.write(`GET /live/installations/1?topics=stations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer u43\r\nAccept: text/event-stream\r\n\r\n`)
    await until(() => halfOpenText.includes('event: snapshot'), 5000, 'the half-open client streaming')
    w.es.close()
    const started = performance.now()
    await app.close()
    await done
    await halfOpenEnded
    halfOpen.destroy()
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(text.trimEnd()).toMatch(/retry: \d+$/)
    expect(halfOpenText.trimEnd()).toMatch(/retry: \d+$/)
  })
})
