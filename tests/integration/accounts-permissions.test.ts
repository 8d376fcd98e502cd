import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, auth, login, startApp } from './helpers.ts'

let app: FastifyInstance
const ids: Record<string, number> = {}
const tokens: Record<string, string> = {}
let other: { installationId: number; stationId: number }
let stations: number[]
let objects: number[]
const api = () => request(app.server)

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
  other = await addOtherInstallation(app)
  const db = app.domain!.db
  for (const [k, email] of Object.entries({ super: 'super@example.com', admin: 'admin@example.com', user: 'user@example.com', bern: 'bern-admin@example.com' })) {
    ids[k] = (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
    tokens[k] = await login(app, email)
  }
  stations = (await db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).orderBy('id').execute()).map((s) => s.id)
  objects = (await db.selectFrom('objects').select('id').where('installation_id', '=', 1).orderBy('id').execute()).map((o) => o.id)
})
afterAll(async () => {
  await app?.close()
})

const access = async (token: string) => (await api().get('/api/cockpit/installations/1/access').set(auth(token)).expect(200)).body

describe('permissions', () => {
  it('an admin grants, changes and removes a station permission; the user\'s access follows', async () => {
    expect((await access(tokens.user)).stations).toEqual([stations[0], stations[1]])
    const set = await api().put('/api/cockpit/installations/1/permissions').set(auth(tokens.admin))
      .send({ user_id: ids.user, object_type: 'charging_station', object_id: stations[4], level: 'rw', cost: true })
      .expect(200)
    expect(set.body).toMatchObject({ user_id: ids.user, object_type: 'charging_station', object_id: stations[4], level: 'read_and_write', cost: true, overview: false })
    expect((await access(tokens.user))).toMatchObject({ stations: [stations[0], stations[1], stations[4]], cost: true })
    // Read on stations 1 and 2, read_and_write on the new one: the client offers a form only for that one.
    expect((await access(tokens.user))).toMatchObject({ writable_stations: [stations[4]] })
    const list = await api().get(`/api/cockpit/installations/1/permissions?user_id=${ids.user}`).set(auth(tokens.admin)).expect(200)
    expect(list.body.map((e: { object_id: number }) => e.object_id)).toEqual([stations[0], stations[1], stations[4]])
    // PATCH keeps the switches it does not name.
    const patched = await api().patch('/api/cockpit/installations/1/permissions').set(auth(tokens.admin))
      .send({ user_id: ids.user, object_type: 'charging_station', object_id: stations[4], level: 'read' }).expect(200)
    expect(patched.body).toMatchObject({ level: 'read', cost: true })
    // Setting none deletes the entry (SPEC §5); an unknown level counts as none (SPEC §6).
    const none = await api().put('/api/cockpit/installations/1/permissions').set(auth(tokens.admin))
      .send({ user_id: ids.user, object_type: 'charging_station', object_id: stations[4], level: 'admin-ish' }).expect(200)
    expect(none.body).toEqual({ deleted: true })
    expect((await access(tokens.user)).stations).toEqual([stations[0], stations[1]])
    await api().delete(`/api/cockpit/installations/1/permissions?user_id=${ids.user}&object_type=charging_station&object_id=${stations[1]}`).set(auth(tokens.admin)).expect(204)
    expect((await access(tokens.user)).stations).toEqual([stations[0]])
    await api().delete(`/api/cockpit/installations/1/permissions?user_id=${ids.user}&object_type=charging_station&object_id=${stations[1]}`).set(auth(tokens.admin)).expect(404)
  })

  it('all stations (object_id 0), object inheritance and the overview switch', async () => {
    await api().put('/api/cockpit/installations/1/permissions').set(auth(tokens.admin)).send({ user_id: ids.user, object_type: 'charging_station', object_id: 0, level: 'read' }).expect(200)
    expect((await access(tokens.user)).stations).toEqual(stations)
    await api().delete('/api/cockpit/installations/1/permissions').set(auth(tokens.admin)).send({ user_id: ids.user, object_type: 'charging_station', object_id: 0 }).expect(204)
    // Read on the building node, inherited down to the garage's stations, with the overview switch.
    const building = objects[0]
    const r = await api().put(`/api/cockpit/installations/1/objects/${building}/permissions`).set(auth(tokens.admin)).send({ user_id: ids.user, level: 'read', overview: true }).expect(200)
    expect(r.body).toMatchObject({ object_type: 'object', object_id: building, overview: true })
    expect(await access(tokens.user)).toMatchObject({ stations, overview: true })
    const objs = await api().get('/api/cockpit/installations/1/objects/permissions').set(auth(tokens.admin)).expect(200)
    expect(objs.body.map((e: { object_id: number }) => e.object_id)).toEqual([building])
    await api().delete(`/api/cockpit/installations/1/objects/${building}/permissions?user_id=${ids.user}`).set(auth(tokens.admin)).expect(204)
    expect(await access(tokens.user)).toMatchObject({ stations: [stations[0]], overview: false })
  })

  it('bad input answers 400 in the caller\'s language; unknown users and objects 404', async () => {
    const r = await api().put('/api/cockpit/installations/1/permissions').set(auth(tokens.admin)).set('Accept-Language', 'de').send({ object_type: 'lamp' }).expect(400)
    expect(r.body).toMatchObject({ user_id: ['Das Feld ist erforderlich.'], object_type: ['Der Wert ist ungültig.'], level: ['Das Feld ist erforderlich.'] })
    // Bern's admin is not a member of installation 1; Bern's station is not in installation 1.
    await api().put('/api/cockpit/installations/1/permissions').set(auth(tokens.admin)).send({ user_id: ids.bern, object_type: 'charging_station', object_id: stations[0], level: 'read' }).expect(404)
    await api().put('/api/cockpit/installations/1/permissions').set(auth(tokens.admin)).send({ user_id: ids.user, object_type: 'charging_station', object_id: other.stationId, level: 'read' }).expect(404)
    await api().put('/api/cockpit/installations/1/objects/0/permissions').set(auth(tokens.admin)).send({ user_id: ids.user, level: 'read' }).expect(400)
  })

  it('authorization matrix: only the installation\'s admins and superusers, never across installations', async () => {
    const body = { user_id: ids.user, object_type: 'charging_station', object_id: stations[2], level: 'read' }
    const inst = (n: number) => `/api/cockpit/installations/${n}/permissions`
    const cases: [string, string, number, number][] = [
      // [who, method, installation, expected]
      ['user', 'get', 1, 403], ['user', 'put', 1, 403], ['user', 'delete', 1, 403],
      ['bern', 'get', 1, 403], ['bern', 'put', 1, 403], ['bern', 'delete', 1, 403],
      ['admin', 'get', other.installationId, 403], ['admin', 'put', other.installationId, 403],
      ['admin', 'get', 999, 404],
      ['super', 'get', 1, 200], ['super', 'put', 1, 200], ['super', 'delete', 1, 204],
      ['admin', 'put', 1, 200], ['admin', 'get', 1, 200], ['admin', 'delete', 1, 204],
    ]
    for (const [who, method, n, status] of cases) {
      const call = method === 'get' ? api().get(inst(n)) : method === 'put' ? api().put(inst(n)).send(body) : api().delete(inst(n)).send(body)
      const r = await call.set(auth(tokens[who]))
      expect(r.status, `${who} ${method} installation ${n}`).toBe(status)
    }
    for (const path of [`/api/cockpit/installations/1/objects/${objects[0]}/permissions`, '/api/cockpit/installations/1/objects/permissions']) {
      expect((await api().get(path).set(auth(tokens.user))).status).toBe(403)
      expect((await api().get(path).set(auth(tokens.bern))).status).toBe(403)
      expect((await api().get(path)).status).toBe(401)
    }
  })
})
