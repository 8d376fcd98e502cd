import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { EventSource } from 'eventsource'
import type jsonpatch from 'fast-json-patch'
import { addOtherInstallation, AT, auth, login, sleep, startApp, until } from './helpers.ts'
import { createClock } from '../../server/lib/clock.ts'
import { applyUpdate } from '../live-updates.ts'

interface Received {
  id: string
  type: 'snapshot' | 'patch' | 'merge' | 'status'
  data: { topic: string; seq?: number; data?: unknown; ops?: jsonpatch.Operation[]; merge?: Record<string, unknown>; state?: string }
}

/** A real EventSource client that records events and rebuilds each topic's state. */
function connect(url: string, opts: { lastEventId?: string } = {}) {
  const events: Received[] = []
  const state: Record<string, unknown> = {}
  const es = new EventSource(url + (opts.lastEventId ? `&lastEventId=${encodeURIComponent(opts.lastEventId)}` : ''))
  const errors: unknown[] = []
  for (const type of ['snapshot', 'patch', 'merge', 'status'] as const) {
    es.addEventListener(type, (e) => {
      const data = JSON.parse(e.data)
      events.push({ id: e.lastEventId, type, data })
      if (type === 'snapshot') state[data.topic] = data.data
      if (type === 'patch' || type === 'merge') state[data.topic] = applyUpdate(state[data.topic], type, data)
    })
  }
  es.onerror = (e) => errors.push(e)
  return { es, events, state, errors, lastId: () => [...events].reverse().find((e) => e.id)?.id }
}

let app: FastifyInstance
let base: string
let admin: string
let user: string

async function ticket(token: string, installation_id = 1): Promise<string> {
  const r = await request(app.server).post('/live/tickets').set(auth(token)).send({ installation_id }).expect(201)
  expect(r.body.expires_in).toBe(30)
  return r.body.ticket
}

const stationsFromApi = async (token: string) => {
  const r = await request(app.server).get('/api/cockpit/installations/1/charging_stations/?limit=1000').set(auth(token)).expect(200)
  return Object.fromEntries(r.body.results.map((s: { id: number }) => [s.id, s]))
}

beforeAll(async () => {
  ;({ app, url: base } = await startApp({ roles: ['api', 'relay', 'simulator'] }))
  admin = await login(app, 'admin@example.com')
  user = await login(app, 'user@example.com')
  await app.simulator!.tick(app.clock.now())
})
afterAll(async () => app?.close())

describe('tickets', () => {
  it('answer 401 without a token, 403 without access, 404 for an unknown installation', async () => {
    const other = await addOtherInstallation(app)
    await request(app.server).post('/live/tickets').send({ installation_id: 1 }).expect(401)
    await request(app.server).post('/live/tickets').set(auth(user)).send({ installation_id: other.installationId }).expect(403)
    await request(app.server).post('/live/tickets').set(auth(user)).send({ installation_id: 999 }).expect(404)
  })
  it('work once, and only for their installation', async () => {
    const t = await ticket(admin)
    const c = connect(`${base}/live/installations/1?ticket=${t}&topics=info`)
    await until(() => c.events.some((e) => e.type === 'snapshot'), 5000, 'first snapshot')
    c.es.close()
    const again = await fetch(`${base}/live/installations/1?ticket=${t}`)
    expect(again.status).toBe(401)
    const wrong = await fetch(`${base}/live/installations/2?ticket=${await ticket(admin)}`)
    expect(wrong.status).toBe(401)
  })
})

describe('stream', () => {
  it('sends no-store SSE headers', async () => {
    const r = await fetch(`${base}/live/installations/1?ticket=${await ticket(admin)}&topics=info`)
    expect(r.headers.get('content-type')).toContain('text/event-stream')
    expect(r.headers.get('cache-control')).toBe('no-store')
    expect(r.headers.get('x-accel-buffering')).toBe('no')
    await r.body?.cancel()
  })

  it('snapshot plus patches rebuild the upstream resource exactly', async () => {
    const c = connect(`${base}/live/installations/1?ticket=${await ticket(admin)}&topics=stations,metrics`)
    await until(() => c.state.stations && c.state.metrics, 5000, 'snapshots')
    // Change things upstream: simulator steps and an admin renaming a station and changing a mode.
    for (let i = 1; i <= 3; i++) {
      await app.simulator!.tick(new Date(app.clock.ms() + i * 5000))
      await request(app.server).patch('/api/cockpit/installations/1/charging_stations/3/').set(auth(admin)).send({ name: `Renamed ${i}`, charging_mode: i % 2 ? 'instant' : 'solar' }).expect(200)
      await sleep(400)
    }
    await until(() => c.events.some((e) => (e.type === 'patch' || e.type === 'merge') && e.data.topic === 'stations'), 5000, 'a stations update')
    const upstream = await stationsFromApi(admin)
    await until(async () => JSON.stringify(c.state.stations) === JSON.stringify(upstream), 3000, 'stations to converge')
    expect(c.state.stations).toEqual(upstream)
    // Collections are keyed by id: patch paths and merge keys name records, never array indexes into a list.
    const updates = c.events.filter((e) => e.data.topic === 'stations' && (e.type === 'patch' || e.type === 'merge'))
    for (const u of updates) {
      if (u.type === 'patch') for (const op of u.data.ops!) expect(op.path).toMatch(/^\/\d+\//)
      else for (const key of Object.keys(u.data.merge!)) expect(key).toMatch(/^\d+$/)
    }
    const metrics = await request(app.server).get('/api/metrics/?installation=1').set(auth(admin)).expect(200)
    await until(() => JSON.stringify(c.state.metrics) === JSON.stringify(metrics.body), 3000, 'metrics to converge')
    c.es.close()
  })

  it('resumes with Last-Event-ID without a gap and without a duplicate', async () => {
    const first = connect(`${base}/live/installations/1?ticket=${await ticket(admin)}&topics=stations`)
    await until(() => first.state.stations, 5000, 'snapshot')
    // A change of our own: a simulator step changes the stations only while a car is there, which
    // depends on the time of day the test runs.
    await request(app.server).patch('/api/cockpit/installations/1/charging_stations/2/').set(auth(admin)).send({ name: 'Seen' }).expect(200)
    await until(() => first.events.some((e) => e.type === 'patch' || e.type === 'merge'), 5000, 'an update')
    const lastId = first.lastId()!
    const before = structuredClone(first.state.stations)
    first.es.close()
    // Changes while disconnected.
    for (let i = 0; i < 3; i++) {
      await request(app.server).patch('/api/cockpit/installations/1/charging_stations/2/').set(auth(admin)).send({ name: `Away ${i}` }).expect(200)
      await sleep(400)
    }
    const second = connect(`${base}/live/installations/1?ticket=${await ticket(admin)}&topics=stations`, { lastEventId: lastId })
    second.state.stations = before
    const upstream = await stationsFromApi(admin)
    await until(() => JSON.stringify(second.state.stations) === JSON.stringify(upstream), 5000, 'resumed state to converge')
    // Only updates came: no snapshot was needed, no event at or before the last one seen came again.
    const lastSeq = Number(lastId.split('.')[1])
    const dataEvents = second.events.filter((e) => e.type !== 'status')
    expect(dataEvents.every((e) => e.type === 'patch' || e.type === 'merge')).toBe(true)
    expect(dataEvents.every((e) => e.data.seq! > lastSeq)).toBe(true)
    const seqs = dataEvents.map((e) => e.data.seq)
    expect(new Set(seqs).size).toBe(seqs.length)
    second.es.close()
  })

  it('gives a resume from another relay epoch fresh snapshots', async () => {
    const c = connect(`${base}/live/installations/1?ticket=${await ticket(admin)}&topics=stations`, { lastEventId: 'oldepoch.5' })
    await until(() => c.events.some((e) => e.type === 'snapshot'), 5000, 'snapshot')
    c.es.close()
  })

  it('sends each subscriber only what their permissions allow', async () => {
    const c = connect(`${base}/live/installations/1?ticket=${await ticket(user)}`)
    await until(() => c.state.stations && c.state.metrics && c.state.sessions && 'energy_return' in c.state, 5000, 'snapshots')
    expect(Object.keys(c.state.stations as object)).toEqual(['1', '2'])
    expect(c.state.metrics).toMatchObject({ grid: null, pv: null, battery: null })
    expect(Object.keys((c.state.metrics as { charging_stations: { stations: object } }).charging_stations.stations)).toEqual(['1', '2'])
    expect(c.state.energy_return).toBeNull()
    for (const s of Object.values(c.state.sessions as Record<string, { station_id: number; rfid_id: number | null }>)) {
      expect(s.station_id === 1 || s.station_id === 2 || s.rfid_id === 1).toBe(true)
    }
    c.es.close()
  })

  it('polls upstream once per interval however many subscribers watch', async () => {
    const calls = () => app.relay!.pollers.stats.calls.metrics ?? 0
    const clients = await Promise.all(Array.from({ length: 50 }, async () => connect(`${base}/live/installations/1?ticket=${await ticket(admin)}&topics=metrics`)))
    await until(() => clients.every((c) => c.state.metrics), 10_000, 'all 50 snapshots')
    const start = calls()
    const t0 = performance.now()
    await sleep(3000)
    const polls = calls() - start
    const expected = (performance.now() - t0) / 300
    // At most one poll per 300 ms interval (± timer slack), not one per subscriber (50 would poll 50×).
    // How many rounds fit depends on how fast the API answers on a busy machine; that the loop keeps its
    // interval is tested on fake timers (server/relay/poller.test.ts), here only that it polls at all.
    expect(polls).toBeGreaterThanOrEqual(1)
    expect(polls).toBeLessThanOrEqual(expected + 2)
    // Every subscriber holds the same state.
    await app.simulator!.tick(new Date(app.clock.ms() + 60_000))
    await sleep(800)
    const states = new Set(clients.map((c) => JSON.stringify(c.state.metrics)))
    expect(states.size).toBe(1)
    for (const c of clients) c.es.close()
  })
})

// The sessions topic holds the sessions still open or ended within the 24 hours before the relay's clock
// (shared/live-protocol.ts topicPath): a stream opened just after local midnight still shows last
// evening's sessions, one opened in the evening no longer shows those of the evening before; across the
// spring change the window is 24 real hours, not a local day of 23.
describe.each([
  ['just after local midnight', '2026-03-05T00:05:00+01:00'],
  ['in the evening', AT.evening],
  ['just after the 23-hour day', '2026-03-30T00:05:00+02:00'],
])('the sessions topic of a stream opened %s', (_, at) => {
  let hourApp: FastifyInstance
  let hourBase: string
  beforeAll(async () => {
    ;({ app: hourApp, url: hourBase } = await startApp({ roles: ['api', 'relay'], clock: createClock({ start: new Date(at) }) }))
  })
  afterAll(async () => hourApp?.close())

  it('shows open sessions and those ended in the last 24 hours of the app\'s clock, not older ones', async () => {
    const db = hourApp.domain!.db
    const now = hourApp.clock.ms()
    const station = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).orderBy('id').executeTakeFirstOrThrow()
    const session = async (startHoursAgo: number, endHoursAgo: number | null) => (await db.insertInto('charging_sessions').values({
      installation_id: 1, station_id: station.id, rfid_id: null, user_id: null, start: new Date(now - startHoursAgo * 3600_000), end: endHoursAgo === null ? null : new Date(now - endHoursAgo * 3600_000),
      energy_kwh: 5, high_kwh: 0, low_kwh: 5, price_rappen: 100, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false,
    }).returning('id').executeTakeFirstOrThrow()).id
    const endedYesterday = await session(25, 23)
    const endedBefore = await session(27, 25)
    const open = await session(2, null)
    const token = await login(hourApp, 'admin@example.com')
    const t = (await request(hourApp.server).post('/live/tickets').set(auth(token)).send({ installation_id: 1 }).expect(201)).body.ticket
    const c = connect(`${hourBase}/live/installations/1?ticket=${t}&topics=sessions`)
    try {
      const shown = await until(() => c.state.sessions as Record<string, unknown> | undefined, 5000, 'sessions snapshot')
      const ids = Object.values(shown).map((s) => (s as { id: number }).id)
      expect(ids).toContain(endedYesterday)
      expect(ids).toContain(open)
      expect(ids).not.toContain(endedBefore)
    } finally {
      c.es.close()
    }
  })
})
