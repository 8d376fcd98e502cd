import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { message } from '../../server/lib/messages.ts'
import { sleep, startApp, until } from './helpers.ts'
import { adminAccess, metricsBody, ok, startStubUpstream } from './stub-upstream.ts'

// The relay's /live/metrics needs METRICS_TOKEN (docs/decisions.md "Metrics: a token").
const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef0123'

// A herd of new streams (2,000 arriving, or a killed relay's subscribers moving) must not
// send one unbounded access call each to the API. A stub API whose access check is slow shows what the
// relay sends upstream: how many at once, in which order, and for which callers.
const ACCESS_DELAY_MS = 600
const CONCURRENCY = 2
// Long enough for ten callers to queue one after the other on a loaded machine before any is refused.
const MAX_WAIT_MS = 4000
/** While set, access checks wait for the test to release them (in call order) instead of ACCESS_DELAY_MS. */
let hold = false
const held: (() => void)[] = []

let active = 0
let maxActive = 0
const calls: { token: string; lang: string }[] = []
const revoked = new Set<string>()
let stub: Awaited<ReturnType<typeof startStubUpstream>>

let app: FastifyInstance
let base: string

beforeAll(async () => {
  stub = await startStubUpstream({
    access: async (token, _installationId, req) => {
      calls.push({ token, lang: String(req.headers['accept-language'] ?? '') })
      active++
      maxActive = Math.max(maxActive, active)
      if (hold) await new Promise<void>((release) => held.push(release))
      else await sleep(ACCESS_DELAY_MS)
      active--
      return revoked.has(token) ? { status: 403, body: { detail: 'forbidden' } } : adminAccess(Number(/\d+/.exec(token)?.[0] ?? 1))
    },
    metrics: () => ok(metricsBody(3)),
  })
  ;({ app, url: base } = await startApp({
    roles: ['relay'], upstreamUrl: stub.upstreamUrl, relayUpstream: { email: 'relay@example.com', password: 'x' },
    intervals: { metrics: 500, stations: 60_000 }, relay: { accessConcurrency: CONCURRENCY, accessMaxWaitMs: MAX_WAIT_MS },
    metricsToken: METRICS_TOKEN,
  }))
})
afterAll(async () => {
  await app?.close()
  await stub?.close()
})

const reset = () => {
  calls.length = 0
  maxActive = 0
}

/** A value of the relay's Prometheus text (NaN when absent). */
async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${base}/live/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
}

/** Open a stream with `headers` (or a ticket in `query`): its status, and whether a snapshot arrived. */
async function openStream(query: string, headers: Record<string, string> = {}) {
  const ac = new AbortController()
  const r = await fetch(`${base}/live/installations/1?topics=metrics${query}`, { headers, signal: ac.signal })
  if (r.status !== 200) return { status: r.status, snapshot: false, close: () => ac.abort() }
  const reader = r.body!.getReader()
  let text = ''
  const end = performance.now() + 10_000
  while (!text.includes('event: snapshot') && performance.now() < end) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  return { status: 200, snapshot: text.includes('event: snapshot'), close: () => ac.abort() }
}

async function askTicket(token: string) {
  const startedAt = performance.now()
  const r = await fetch(`${base}/live/tickets`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' }, body: JSON.stringify({ installation_id: 1 }) })
  return { token, status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { ticket?: string; detail?: string }, tookMs: performance.now() - startedAt }
}

describe('access checks of joining streams', () => {
  it('runs at most N upstream at once, in arrival order; over-waiting ones get 503 + Retry-After before any upstream call; all stream in the end', async () => {
    reset()
    hold = true
    const tokens = Array.from({ length: 10 }, (_, i) => `u${i + 1}`)
    const answers: Promise<Awaited<ReturnType<typeof askTicket>>>[] = []
    // Arrival order is the order sent: each caller has reached the relay (its upstream call started, or
    // it waits in the queue) before the next one is sent, however slow the machine.
    for (const [i, t] of tokens.entries()) {
      answers.push(askTicket(t))
      if (i < CONCURRENCY) await until(() => calls.length === i + 1, 10_000, `${t}'s upstream call`)
      else await until(async () => (await metric('cockpit_relay_access_queue_length')) === i + 1 - CONCURRENCY, 10_000, `${t} in the queue`)
    }
    expect(maxActive).toBe(CONCURRENCY)
    expect(calls.map((c) => c.token)).toEqual(tokens.slice(0, CONCURRENCY))
    // A slot freed goes to the caller waiting longest.
    for (const k of [CONCURRENCY, CONCURRENCY + 1]) {
      held.shift()!()
      await until(() => calls.length === k + 1, 10_000, `the call of ${tokens[k]}`)
      expect(calls[k].token).toBe(tokens[k])
    }
    // The rest wait behind the two held calls until the bound, and are refused without an upstream call.
    const refused = await Promise.all(answers.slice(CONCURRENCY + 2))
    expect(calls).toHaveLength(CONCURRENCY + 2)
    hold = false
    for (const release of held.splice(0)) release()
    const served = await Promise.all(answers.slice(0, CONCURRENCY + 2))

    expect(maxActive).toBe(CONCURRENCY)
    expect(served.map((a) => [a.token, a.status])).toEqual(tokens.slice(0, CONCURRENCY + 2).map((t) => [t, 201]))
    for (const a of refused) {
      expect(a.status).toBe(503)
      expect(a.body.detail).toBe(message('upstreamUnavailable', 'en'))
      expect(a.retryAfter).toMatch(/^[1-9]\d*$/)
      // Answered at the bound, not after an upstream call.
      expect(a.tookMs).toBeGreaterThanOrEqual(MAX_WAIT_MS - 50)
    }
    expect(await metric('cockpit_relay_access_queue_refused_total')).toBe(refused.length)
    expect(await metric('cockpit_relay_access_queue_length')).toBe(0)

    // The refused come back after their Retry-After, as the web client does, and all get a stream.
    const tickets = new Map(served.map((a) => [a.token, a.body.ticket!]))
    await Promise.all(refused.map(async (a) => {
      let answer = a
      for (let attempt = 0; answer.status !== 201 && attempt < 5; attempt++) {
        await sleep(Number(answer.retryAfter ?? 1) * 1000)
        answer = await askTicket(a.token)
      }
      expect(answer.status).toBe(201)
      tickets.set(a.token, answer.body.ticket!)
    }))
    const streams = await Promise.all(tokens.map((t) => openStream(`&ticket=${encodeURIComponent(tickets.get(t)!)}`)))
    expect(streams.map((s) => s.snapshot)).toEqual(tokens.map(() => true))
    for (const s of streams) s.close()
    expect(await metric('cockpit_relay_access_checks_started_total')).toBeGreaterThanOrEqual(tokens.length)
  }, 60_000)

  it('identical checks in flight share one upstream call; the next one asks again (rights changes take effect)', async () => {
    reset()
    const same = { authorization: 'Bearer u42', 'accept-language': 'de' }
    const opened = await Promise.all([
      ...Array.from({ length: 5 }, () => openStream('', same)),
      openStream('', { ...same, 'accept-language': 'fr' }),
      openStream('', { authorization: 'Bearer u43', 'accept-language': 'de' }),
    ])
    expect(opened.map((s) => [s.status, s.snapshot])).toEqual(opened.map(() => [200, true]))
    expect(calls.map((c) => `${c.token} ${c.lang}`).sort()).toEqual(['u42 de', 'u42 fr', 'u43 de'])
    expect(await metric('cockpit_relay_access_checks_coalesced_total')).toBe(4)
    for (const s of opened) s.close()

    // No answer is kept beyond its call: a right removed upstream refuses the very next stream.
    revoked.add('u42')
    const again = await openStream('', same)
    expect(again.status).toBe(403)
    expect(calls.filter((c) => c.token === 'u42' && c.lang === 'de')).toHaveLength(2)
    await until(async () => (await metric('cockpit_relay_subscribers')) === 0, 5000, 'streams closed')
  }, 30_000)
})
