import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { EventSource } from 'eventsource'
import { login, sleep, startApp, until } from './helpers.ts'
import { adminAccess, metricsBody, ok, startStubUpstream } from './stub-upstream.ts'

// A stub API: the relay only speaks HTTP to it, so any backend with the same contract works.
let failing = false
let delayMs = 0
let power = 1
let stub: Awaited<ReturnType<typeof startStubUpstream>>

let app: FastifyInstance
let base: string

beforeAll(async () => {
  stub = await startStubUpstream({
    access: (token) => (token === 'viewer' ? adminAccess(9) : { status: 401, body: { detail: 'Token is invalid or expired' } }),
    metrics: async () => {
      if (failing) return { status: 500, body: { detail: 'boom' } }
      // The body as it is when the poll arrives, sent after the delay.
      const body = metricsBody(power)
      if (delayMs) await sleep(delayMs)
      return ok(body)
    },
  })
  ;({ app, url: base } = await startApp({ roles: ['relay'], upstreamUrl: stub.upstreamUrl, relayUpstream: { email: 'relay@example.com', password: 'x' }, intervals: { metrics: 200 }, relay: { upstreamTimeoutMs: 400 } }))
})
afterAll(async () => {
  await app?.close()
  await stub?.close()
})

describe('relay on its own in front of an upstream', () => {
  it('refuses a stream whose bearer token the upstream refuses', async () => {
    const r = await fetch(`${base}/live/installations/1?topics=metrics`, { headers: { authorization: 'Bearer bad' } })
    expect(r.status).toBe(401)
  })

  it('reports stale then down on 5xx and timeouts, keeps the last state, and recovers with the change', async () => {
    const events: { type: string; data: { state?: string; data?: unknown; ops?: unknown[]; merge?: unknown } }[] = []
    const es = new EventSource(`${base}/live/installations/1?topics=metrics`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization: 'Bearer viewer' } }),
    })
    for (const type of ['snapshot', 'patch', 'merge', 'status']) es.addEventListener(type, (e) => events.push({ type, data: JSON.parse(e.data) }))
    await until(() => events.some((e) => e.type === 'snapshot'), 5000, 'snapshot')
    failing = true
    await until(() => events.some((e) => e.data.state === 'stale'), 5000, 'stale')
    await until(() => events.some((e) => e.data.state === 'down'), 10_000, 'down')
    const dataEventsWhileDown = events.filter((e) => e.type !== 'status').length
    expect(dataEventsWhileDown).toBe(1)
    power = 7
    failing = false
    const downAt = events.findIndex((e) => e.data.state === 'down')
    await until(() => events.slice(downAt).some((e) => e.data.state === 'live'), 15_000, 'live again')
    // One field changed: the merge patch is the smallest encoding.
    await until(() => events.some((e) => e.type === 'merge'), 5000, 'the change as a merge patch')
    const update = events.find((e) => e.type === 'merge')!
    expect(update.data.merge).toEqual({ grid: { power_kw: 7 } })

    // Slow answers inside the timeout are fine; answers past it count as failures.
    const mark = events.length
    delayMs = 150
    power = 8
    await until(() => events.slice(mark).some((e) => e.type === 'merge'), 5000, 'a slow but timely answer')
    expect(events.slice(mark).some((e) => e.data.state === 'stale')).toBe(false)
    delayMs = 1000
    power = 9
    await until(() => events.slice(mark).some((e) => e.data.state === 'stale'), 5000, 'stale after timeouts')
    expect(events.slice(mark).filter((e) => e.type === 'merge')).toHaveLength(1)
    delayMs = 0
    await until(() => events.slice(mark).some((e) => e.type === 'merge' && JSON.stringify(e.data.merge).includes('9')), 10_000, 'recovery after timeouts')
    es.close()
  }, 40_000)

})

describe('relays started apart (compose.yaml)', () => {
  it('an API process given RELAY_UPSTREAM_* provisions the relay account, which can then sign in', async () => {
    const { app: api } = await startApp({ roles: ['api'], relayUpstream: { email: 'relay@cockpit.internal', password: 'Relay-secret-42' } })
    try {
      await login(api, 'relay@cockpit.internal', 'Relay-secret-42')
    } finally {
      await api.close()
    }
    // A whole API start with its demo seed: as long as the other files' beforeAll on a loaded machine.
  }, 180_000)
})
