import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, login, startApp, until } from './helpers.ts'
import { watchStream as watch } from '../live-updates.ts'

let app: FastifyInstance
let base: string

beforeAll(async () => {
  ;({ app, url: base } = await startApp({ roles: ['api', 'relay', 'simulator'] }))
  await app.simulator!.tick(app.clock.now())
})
afterAll(async () => app?.close())


describe('rights of open streams', () => {
  it('a permission change reaches the stream within one poll, and deactivation ends it', async () => {
    const user = await login(app, 'user@example.com')
    const t = (await request(app.server).post('/live/tickets').set(auth(user)).send({ installation_id: 1 }).expect(201)).body.ticket
    const w = watch(`${base}/live/installations/1?ticket=${t}&topics=stations`)
    await until(() => w.state.stations, 5000, 'snapshot')
    expect(Object.keys(w.state.stations as object)).toEqual(['1', '2'])

    await app.domain!.db.insertInto('permissions').values({ user_id: 3, installation_id: 1, object_type: 'charging_station', object_id: 3, level: 'read', cost: false, overview: false }).execute()
    // Stations are polled every 300 ms in tests: the new station shows within about one poll.
    await until(() => Object.keys(w.state.stations as object).includes('3'), 3000, 'station 3 to appear')
    expect(Object.keys(w.state.stations as object)).toEqual(['1', '2', '3'])

    await app.domain!.db.deleteFrom('permissions').where('user_id', '=', 3).where('object_id', '=', 1).execute()
    await until(() => !Object.keys(w.state.stations as object).includes('1'), 3000, 'station 1 to disappear')

    await app.domain!.db.updateTable('users').set({ is_active: false }).where('id', '=', 3).execute()
    await until(() => !w.isOpen(), 3000, 'the stream to end')
    await app.domain!.db.updateTable('users').set({ is_active: true }).where('id', '=', 3).execute()
  })

  it('only a superuser may read other users’ rights', async () => {
    const admin = await login(app, 'admin@example.com')
    await request(app.server).get('/api/cockpit/installations/1/accesses?user_ids=3').set(auth(admin)).expect(403)
    const sup = await login(app, 'super@example.com')
    const r = await request(app.server).get('/api/cockpit/installations/1/accesses?user_ids=2,3,999').set(auth(sup)).expect(200)
    expect(r.body.results.map((a: { user_id: number; role: string }) => [a.user_id, a.role])).toEqual([[2, 'installation_admin'], [3, 'installation_user']])
  })
})

describe('personal data on the live sessions topic (ARCHITECTURE §4)', () => {
  it('a resident receives their own running session only, with card and user; a superuser both', async () => {
    const db = app.domain!.db
    // Card 2 (parking space 2, readable station of the resident) belongs to the admin (user 2).
    await db.updateTable('rfids').set({ user_id: 2 }).where('id', '=', 2).execute()
    const mine = await app.domain!.sessions.start({ installationId: 1, stationId: 1, rfidId: 1, userId: 3, at: app.clock.now() })
    const theirs = await app.domain!.sessions.start({ installationId: 1, stationId: 2, rfidId: 2, userId: 2, at: app.clock.now() })
    try {
      const streams = []
      for (const email of ['user@example.com', 'super@example.com']) {
        const t = (await request(app.server).post('/live/tickets').set(auth(await login(app, email))).send({ installation_id: 1 }).expect(201)).body.ticket
        streams.push(watch(`${base}/live/installations/1?ticket=${t}&topics=sessions`))
      }
      const [resident, sup] = streams
      type S = Record<string, { rfid_id: number | null; rfid_tag: string | null; user_id: number | null }>
      await until(() => (sup.state.sessions as S | undefined)?.[theirs] && (sup.state.sessions as S)[mine], 5000, 'both sessions on the superuser’s stream')
      await until(() => (resident.state.sessions as S | undefined)?.[mine], 5000, 'their own session on the resident’s stream')
      expect((resident.state.sessions as S)[mine]).toMatchObject({ rfid_id: 1, rfid_tag: '04A1B2C3D4E501', user_id: 3 })
      // A neighbour's session at a station they read is not on their stream at all (no cost switch).
      expect((resident.state.sessions as S)[theirs]).toBeUndefined()
      expect((sup.state.sessions as S)[theirs]).toMatchObject({ rfid_id: 2, rfid_tag: '04A1B2C3D4E502', user_id: 2 })
      for (const w of streams) w.es.close()
    } finally {
      for (const id of [mine, theirs]) await app.domain!.sessions.finish(id, app.clock.now())
      await db.updateTable('rfids').set({ user_id: null }).where('id', '=', 2).execute()
    }
  })
})

describe('ending sessions', () => {
  it('a password change refuses older access tokens at once and closes the user’s other live streams', async () => {
    const other = await login(app, 'admin@example.com')
    const t = (await request(app.server).post('/live/tickets').set(auth(other)).send({ installation_id: 1 }).expect(201)).body.ticket
    const w = watch(`${base}/live/installations/1?ticket=${t}&topics=info`)
    await until(() => w.state.info, 5000, 'snapshot')
    // JWT iat has whole seconds: make sure the change happens in a later second than the old token.
    await new Promise((r) => setTimeout(r, 1100))
    const mine = await login(app, 'admin@example.com')
    const r = await request(app.server).put('/api/users/password/').set(auth(mine)).send({ old_password: 'Cockpit-2026!', new_password: 'Another-2026!' }).expect(200)
    await request(app.server).get('/api/users/2/').set(auth(other)).expect(401)
    await until(() => !w.isOpen(), 3000, 'the other stream to end')
    // The session that changed the password continues with the fresh pair it was given.
    await request(app.server).get('/api/users/2/').set(auth(r.body.access)).expect(200)
  })
})

describe('re-checking rights at scale', () => {
  it('costs one revision call per interval while nothing changes, not one call per watching user', async () => {
    const tokens = [await login(app, 'super@example.com'), await login(app, 'user@example.com')]
    const streams: ReturnType<typeof watch>[] = []
    for (const token of tokens) {
      for (let i = 0; i < 3; i++) {
        const t = (await request(app.server).post('/live/tickets').set(auth(token)).send({ installation_id: 1 }).expect(201)).body.ticket
        streams.push(watch(`${base}/live/installations/1?ticket=${t}&topics=info`))
      }
    }
    await until(() => streams.every((s) => s.state.info), 5000, 'snapshots')
    // The joiners are checked once; afterwards, with no rights change, no access calls are made.
    await new Promise((r) => setTimeout(r, 1000))
    const settled = app.relay!.hub.stats.accessChecks
    await new Promise((r) => setTimeout(r, 1500))
    expect(app.relay!.hub.stats.accessChecks).toBe(settled)
    // A change moves the revision: the next interval re-checks every open stream.
    await app.domain!.db.insertInto('permissions').values({ user_id: 3, installation_id: 1, object_type: 'charging_station', object_id: 4, level: 'read', cost: false, overview: false }).execute()
    await until(() => app.relay!.hub.stats.accessChecks > settled, 3000, 'a re-check after the change')
    for (const s of streams) s.es.close()
  })
})
