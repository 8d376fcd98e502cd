import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { auth, sleep, startWithTokens, until, type RoleTokens } from './helpers.ts'
import { watchStream as watch } from '../live-updates.ts'

let env: Awaited<ReturnType<typeof startWithTokens>>
let tokens: RoleTokens
const server = () => env.app.server

beforeAll(async () => {
  env = await startWithTokens(['api', 'relay', 'simulator'])
  tokens = env.tokens
  await env.app.simulator!.tick(env.app.clock.now())
})
afterAll(async () => env?.app.close())

const keyOf = (url: string) => url.slice(url.indexOf('#') + 1)

async function createLink(token: string, installationId = 1, body: Record<string, unknown> = { name: 'Lobby' }) {
  const r = await request(server()).post(`/api/cockpit/installations/${installationId}/displays`).set(auth(token)).send(body).expect(201)
  return r.body as { id: number; name: string; url: string; valid_until: string | null }
}


describe('display links API', () => {
  it('an admin creates a link with a long key in the url fragment; only its hash is stored; the list shows no key', async () => {
    const link = await createLink(tokens.admin, 1, { name: 'Lobby screen' })
    expect(link.name).toBe('Lobby screen')
    expect(link.url).toMatch(/\/display#cdk_[A-Za-z0-9_-]{43}$/)
    const key = keyOf(link.url)
    const row = await env.app.domain!.db.selectFrom('displays').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(key.slice(4))
    const list = await request(server()).get('/api/cockpit/installations/1/displays').set(auth(tokens.admin)).expect(200)
    expect(list.body.results.map((d: { id: number }) => d.id)).toContain(link.id)
    expect(JSON.stringify(list.body)).not.toContain('cdk_')
    // Superusers too (SPEC §6); two links never share a key.
    const other = await createLink(tokens.super, 1)
    expect(keyOf(other.url)).not.toBe(key)
  })

  it('refuses residents, admins of another installation, display keys themselves, and an end date in the past', async () => {
    const link = await createLink(tokens.admin)
    for (const token of [tokens.user, tokens.bern, keyOf(link.url)]) {
      const res = await request(server()).post('/api/cockpit/installations/1/displays').set(auth(token)).send({ name: 'x' })
      expect(res.status).toBe(403)
      expect((await request(server()).get('/api/cockpit/installations/1/displays').set(auth(token))).status).toBe(403)
      expect((await request(server()).delete(`/api/cockpit/installations/1/displays/${link.id}`).set(auth(token))).status).toBe(403)
    }
    await request(server()).post('/api/cockpit/installations/1/displays').set(auth(tokens.admin)).send({ name: 'x', valid_until: '2020-01-01T00:00:00Z' }).expect(400)
    await request(server()).post('/api/cockpit/installations/1/displays').set(auth(tokens.admin)).send({ name: '' }).expect(400)
    // A link of installation 1 cannot be revoked through the other installation's path.
    await request(server()).delete(`/api/cockpit/installations/${env.other.installationId}/displays/${link.id}`).set(auth(tokens.bern)).expect(404)
  })

  it('a display key reads its installation and the stored power flow, and nothing of another installation', async () => {
    const key = keyOf((await createLink(tokens.admin)).url)
    const self = await request(server()).get('/api/display/').set(auth(key)).expect(200)
    expect(self.body.installation).toMatchObject({ id: 1, timezone: 'Europe/Zurich' })
    expect(self.body.installation.operator).toBeUndefined()
    const access = await request(server()).get('/api/cockpit/installations/1/access').set(auth(key)).expect(200)
    expect(access.body).toMatchObject({ installation_id: 1, cost: false, overview: true, stations: 'all', rfids: [] })
    const range = `start=${new Date(env.app.clock.ms() - 3600_000).toISOString()}&end=${env.app.clock.now().toISOString()}&granularity=fifteen_minutes`
    const flow = await request(server()).get(`/api/statistics/1/flow?${range}`).set(auth(key)).expect(200)
    expect(Object.keys(flow.body.series)).toContain('grid_flow')
    const other = env.other.installationId
    expect((await request(server()).get(`/api/cockpit/installations/${other}/access`).set(auth(key))).status).toBe(403)
    expect((await request(server()).get(`/api/statistics/${other}/flow?${range}`).set(auth(key))).status).toBe(403)
    // A person's token is not a display.
    expect((await request(server()).get('/api/display/').set(auth(tokens.admin))).status).toBe(403)
    // A made-up key of the right shape is refused as a bad token.
    expect((await request(server()).get('/api/display/').set(auth(`cdk_${'A'.repeat(43)}`))).status).toBe(401)
  })

  it('opens the live streams of its installation without a login: no cost, no card, every station', async () => {
    const key = keyOf((await createLink(tokens.admin)).url)
    const t = await request(server()).post('/live/tickets').set(auth(key)).send({ installation_id: 1 }).expect(201)
    await request(server()).post('/live/tickets').set(auth(key)).send({ installation_id: env.other.installationId }).expect(403)
    const w = watch(`${env.url}/live/installations/1?ticket=${t.body.ticket}&topics=metrics,stations,info`)
    try {
      await until(() => w.state.stations && w.state.metrics && w.state.info, 5000, 'snapshots')
      const stations = Object.values(w.state.stations as Record<string, { rfid: unknown; pending_rfid: unknown }>)
      expect(stations.length).toBeGreaterThanOrEqual(2)
      expect(stations.every((s) => s.rfid === null && s.pending_rfid === null)).toBe(true)
      expect((w.state.metrics as { grid: unknown }).grid).not.toBeNull()
    } finally {
      w.es.close()
    }
  })

  it('revoking closes its streams within one relay poll and refuses the key afterwards', async () => {
    const link = await createLink(tokens.admin)
    const key = keyOf(link.url)
    const t = (await request(server()).post('/live/tickets').set(auth(key)).send({ installation_id: 1 }).expect(201)).body.ticket
    const w = watch(`${env.url}/live/installations/1?ticket=${t}&topics=stations`)
    await until(() => w.state.stations, 5000, 'snapshot')
    await request(server()).delete(`/api/cockpit/installations/1/displays/${link.id}`).set(auth(tokens.admin)).expect(204)
    // Stations (and rights) are polled every 300 ms in tests.
    await until(() => !w.isOpen(), 2000, 'the stream to end')
    await request(server()).get('/api/display/').set(auth(key)).expect(401)
    await request(server()).post('/live/tickets').set(auth(key)).send({ installation_id: 1 }).expect(401)
    const list = await request(server()).get('/api/cockpit/installations/1/displays').set(auth(tokens.admin)).expect(200)
    expect(list.body.results.map((d: { id: number }) => d.id)).not.toContain(link.id)
  })

  it('a link given an end date closes its stream once the date passes, without any rights change', async () => {
    const link = await createLink(tokens.admin, 1, { name: 'Event', valid_until: new Date(env.app.clock.ms() + 60_000).toISOString() })
    const key = keyOf(link.url)
    const t = (await request(server()).post('/live/tickets').set(auth(key)).send({ installation_id: 1 }).expect(201)).body.ticket
    const w = watch(`${env.url}/live/installations/1?ticket=${t}&topics=stations`)
    await until(() => w.state.stations, 5000, 'snapshot')
    // Past the re-check of streams that just joined (every 300 ms in tests): only the end date can close it now.
    await sleep(1000)
    expect(w.isOpen()).toBe(true)
    // As time passing would: the end date moves into the past and the rights revision stays as it is.
    const before = await request(server()).get('/api/cockpit/rights-revision').set(auth(tokens.super)).expect(200)
    await env.app.domain!.db.updateTable('displays').set({ valid_until: new Date(env.app.clock.ms() - 1000) }).where('id', '=', link.id).execute()
    expect((await request(server()).get('/api/cockpit/rights-revision').set(auth(tokens.super))).body).toEqual(before.body)
    await until(() => !w.isOpen(), 2000, 'the stream to end')
    await request(server()).get('/api/display/').set(auth(key)).expect(401)
  })
})
