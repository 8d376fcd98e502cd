import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { EventSource } from 'eventsource'
import { until } from './helpers.ts'
import { startCockpit, startShardProxy, type CockpitProcess, type ShardProxy } from '../scale-out.ts'

// Two relay processes behind the proxy (deploy/nginx.conf run by Debian's nginx, or the Node
// stand-in with the same consistent hashing when nginx is not installed) in front of one API (a stub:
// the relays only speak HTTP to it). Each installation is polled by one relay; when a relay is killed,
// its clients reconnect through the proxy to the other one with their Last-Event-ID and go on from
// the current state: no installation polled twice, no event missing within a stream, no value lost.
// No database is involved: it runs in the PGlite pass only, not again in npm run test:pg.
const skip = Boolean(inject('pgUrl'))

const INSTALLATIONS = 8
const CLIENTS_PER_INSTALLATION = 3
const INTERVAL_MS = 500

/** Upstream polls per installation, per relay account (each relay signs in with its own). */
const polls = new Map<number, { at: number; relay: string }[]>()
/** The upstream's value per installation: the number of polls so far, so every poll is a change. */
const value = new Map<number, number>()
/** Access checks per installation; installation `failing` answers them 500 (the API in trouble). */
const accessChecks = new Map<number, number>()
let failing = 0
const stub = http.createServer((req, res) => {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  let raw = ''
  req.on('data', (b: Buffer) => (raw += b))
  req.on('end', () => {
    const url = req.url ?? ''
    const auth = req.headers.authorization ?? ''
    if (url === '/api/authentication/token/') {
      const email = (JSON.parse(raw) as { email: string }).email
      return send(200, { access: `relay:${email}`, refresh: `refresh:${email}`, installation_id: 1 })
    }
    const access = /^\/api\/cockpit\/installations\/(\d+)\/access$/.exec(url.split('?')[0])
    if (access) {
      const id = Number(access[1])
      accessChecks.set(id, (accessChecks.get(id) ?? 0) + 1)
      if (id === failing) return send(500, { detail: 'boom' })
      const user = /^Bearer viewer-(\d+)$/.exec(auth)?.[1]
      if (!user) return send(401, { detail: 'Token is invalid or expired' })
      return send(200, { user_id: Number(user), installation_id: Number(access[1]), role: 'installation_admin', cost: true, overview: true, stations: 'all', rfids: 'all' })
    }
    if (url === '/api/cockpit/rights-revision') return send(200, { revision: 1 })
    const metrics = /^\/api\/metrics\/\?installation=(\d+)$/.exec(url)
    if (metrics && auth.startsWith('Bearer relay:')) {
      const id = Number(metrics[1])
      const n = (value.get(id) ?? 0) + 1
      value.set(id, n)
      const list = polls.get(id) ?? []
      list.push({ at: performance.now(), relay: auth.slice('Bearer relay:'.length) })
      polls.set(id, list)
      return send(200, { installation_id: id, grid: { power_kw: n }, charging_stations: { power_kw: 0, stations: {} } })
    }
    send(404, { detail: 'Not found.' })
  })
})

interface Client {
  installation: number
  es: EventSource
  /** Events with ids, in order: [epoch, seq, power value after applying it]. */
  seen: { epoch: string; seq: number; type: string; power: number }[]
  /** Last-Event-ID header of every connection attempt (null on the first). */
  resumedWith: (string | null)[]
  power: number | null
}

const relays: Record<string, CockpitProcess> = {}
let proxy: ShardProxy
const clients: Client[] = []

/** Which relay polled installation `id` in [from, to). */
const pollersOf = (id: number, from: number, to = performance.now()) => new Set((polls.get(id) ?? []).filter((p) => p.at >= from && p.at < to).map((p) => p.relay))
/**
 * At most one poll per interval since `from` (polls are on a grid of the interval); two relays polling
 * the same installation, or a round falling due twice, would make more.
 */
const expectOnePollPerInterval = (id: number, from: number) => {
  expect((polls.get(id) ?? []).filter((p) => p.at >= from).length, `polls of installation ${id}`).toBeLessThanOrEqual(Math.floor((performance.now() - from) / INTERVAL_MS) + 1)
}

beforeAll(async () => {
  if (skip) return
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r))
  const upstream = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/api`
  await Promise.all(['a', 'b'].map(async (name) => {
    relays[`relay-${name}@test.invalid`] = await startCockpit({
      ROLES: 'relay', UPSTREAM_URL: upstream, RELAY_UPSTREAM_EMAIL: `relay-${name}@test.invalid`, RELAY_UPSTREAM_PASSWORD: 'x',
      METRICS_INTERVAL_MS: String(INTERVAL_MS), TRUST_PROXY: '127.0.0.1',
    })
  }))
  proxy = await startShardProxy({ relays: Object.values(relays).map((r) => r.address), apis: [`127.0.0.1:${(stub.address() as AddressInfo).port}`] })
})

afterAll(async () => {
  for (const c of clients) c.es.close()
  await proxy?.close()
  await Promise.all(Object.values(relays).map((r) => r.kill()))
  if (!skip) stub.close()
})

function connect(installation: number, user: number): Client {
  const client: Client = { installation, seen: [], resumedWith: [], power: null, es: null as unknown as EventSource }
  client.es = new EventSource(`${proxy.url}/live/installations/${installation}?topics=metrics`, {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers)
      client.resumedWith.push(headers.get('last-event-id'))
      headers.set('authorization', `Bearer viewer-${user}`)
      return fetch(input, { ...init, headers })
    },
  })
  const on = (type: string, power: (data: Record<string, unknown>) => number | undefined) =>
    client.es.addEventListener(type, (e) => {
      const data = JSON.parse(e.data) as Record<string, unknown>
      const p = power(data)
      if (p !== undefined) client.power = p
      const [epoch, seq] = e.lastEventId.split('.')
      client.seen.push({ epoch, seq: Number(seq), type, power: client.power! })
    })
  on('snapshot', (d) => (d.data as { grid: { power_kw: number } }).grid.power_kw)
  on('merge', (d) => (d.merge as { grid?: { power_kw: number } }).grid?.power_kw)
  on('patch', (d) => (d.ops as { path: string; value: number }[]).find((o) => o.path === '/grid/power_kw')?.value)
  return client
}

describe.skipIf(skip)('relay failover behind the proxy', () => {
  it('lets the relay of an installation redeem the ticket the browser asked for through the proxy', async () => {
    // The web client asks POST /live/tickets?installation={id} (client/live/connection.ts), then opens the
    // stream: both must reach the same relay, which alone knows its single-use tickets.
    for (let i = 1; i <= INSTALLATIONS; i++) {
      const headers = { authorization: `Bearer viewer-${i}`, 'content-type': 'application/json' }
      const t = await fetch(`${proxy.url}/live/tickets?installation=${i}`, { method: 'POST', headers, body: JSON.stringify({ installation_id: i }) })
      expect(t.status).toBe(201)
      const { ticket } = (await t.json()) as { ticket: string }
      const stream = await fetch(`${proxy.url}/live/installations/${i}?topics=metrics&ticket=${encodeURIComponent(ticket)}`)
      expect(stream.status, `installation ${i} (proxy: ${proxy.kind})`).toBe(200)
      await stream.body?.cancel()
    }
  })

  it('leaves a stream the relay refused for the API\'s trouble (503) on that relay, not retried on the other', async () => {
    // Retrying it elsewhere would make two relays poll the installation and count the relay as failed,
    // moving all its installations for a while (nginx max_fails): only a relay that is down is skipped.
    failing = 1
    const r = await fetch(`${proxy.url}/live/installations/1?topics=metrics`, { headers: { authorization: 'Bearer viewer-1' } })
    expect(r.status).toBe(503)
    await r.body?.cancel()
    failing = 0
    expect(accessChecks.get(1), `access checks behind ${proxy.kind}`).toBe(2) // the ticket test's and this one
  })

  it('moves a killed relay\'s clients to the other relay, which resumes them from their Last-Event-ID without loss, polling each installation once', async () => {
    for (let i = 1; i <= INSTALLATIONS; i++) for (let k = 0; k < CLIENTS_PER_INSTALLATION; k++) clients.push(connect(i, i * 100 + k))
    await until(() => clients.every((c) => c.seen.length >= 3), 30_000, 'every client streaming')

    // Sharded: each installation is polled by exactly one relay, once per interval.
    const t0 = performance.now()
    await new Promise((r) => setTimeout(r, 8 * INTERVAL_MS))
    const owner = new Map<number, string>()
    for (let i = 1; i <= INSTALLATIONS; i++) {
      const by = pollersOf(i, t0)
      expect(by.size, `installation ${i} polled by ${[...by]}`).toBe(1)
      owner.set(i, [...by][0])
      expectOnePollPerInterval(i, t0)
    }
    // Kill the relay that holds the most installations (a crash: no goodbye to its clients).
    const counts = Object.keys(relays).map((r) => [r, [...owner.values()].filter((o) => o === r).length] as const).sort((a, b) => b[1] - a[1])
    const [victim] = counts[0]
    const [survivor] = counts[1]
    const moved = [...owner].filter(([, r]) => r === victim).map(([i]) => i)
    expect(moved.length).toBeGreaterThan(0)
    const before = new Map(clients.map((c) => [c, c.seen.length]))
    const lastIdBefore = new Map(clients.map((c) => [c, `${c.seen.at(-1)!.epoch}.${c.seen.at(-1)!.seq}`]))
    const killedAt = performance.now()
    await relays[victim].kill('SIGKILL')

    // Every moved client reconnects through the proxy with its last id and streams again from the survivor.
    const movedClients = clients.filter((c) => moved.includes(c.installation))
    await until(() => movedClients.every((c) => c.resumedWith.length >= 2 && c.seen.length - before.get(c)! >= 3), 30_000, 'moved clients streaming again')
    // The relay's retry hint is 3 s; the proxy takes the survivor at the first refused connection.
    expect(performance.now() - killedAt).toBeLessThan(10_000)
    for (const c of movedClients) {
      // (An event may still have arrived between taking lastIdBefore and the kill.)
      const oldEpoch = lastIdBefore.get(c)!.split('.')[0]
      const firstNew = c.seen.findIndex((e) => e.epoch !== oldEpoch)
      const lastOld = c.seen[firstNew - 1]
      expect(c.resumedWith[1]).toBe(`${lastOld.epoch}.${lastOld.seq}`)
      // Another relay's id is not its own: it answers with the current state (a snapshot), then changes.
      expect(c.seen[firstNew].type).toBe('snapshot')
    }
    // The clients of the surviving relay were not disturbed.
    for (const c of clients.filter((x) => !moved.includes(x.installation))) expect(c.resumedWith).toEqual([null])

    // No loss: within each connection the ids follow each other without a gap, every value the stream
    // carried is one more than the one before, and across the move the value never goes back.
    for (const c of clients) {
      for (let j = 1; j < c.seen.length; j++) {
        const [a, b] = [c.seen[j - 1], c.seen[j]]
        expect(b.power, `installation ${c.installation}: value went back`).toBeGreaterThanOrEqual(a.power)
        if (a.epoch === b.epoch) {
          expect(b.seq, `installation ${c.installation}: event id gap`).toBe(a.seq + 1)
          expect(b.power).toBe(a.power + 1)
        }
      }
    }

    // Still one poller per installation, the moved ones now on the survivor; one poll per interval in total.
    const t1 = performance.now()
    await new Promise((r) => setTimeout(r, 8 * INTERVAL_MS))
    for (let i = 1; i <= INSTALLATIONS; i++) {
      expect([...pollersOf(i, t1)]).toEqual([moved.includes(i) ? survivor : owner.get(i)])
      expectOnePollPerInterval(i, t1)
    }
    // Every client ends on the upstream's current value (within one poll).
    await until(() => clients.every((c) => value.get(c.installation)! - c.power! <= 1), 5000, 'clients on the current value')
  }, 120_000)
})
