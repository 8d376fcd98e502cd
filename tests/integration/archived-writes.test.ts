import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

// docs/decisions.md "Provisioning: archived installations": an archived installation is read-only on
// every write route, not only the provisioning ones.
let app: FastifyInstance
let tokens: RoleTokens
let demoId: number
let ids: { station: number; rfid: number; timer: number; rate: number; object: number; meter: number; user: number }

beforeAll(async () => {
  const started = await startWithTokens()
  ;({ app, tokens } = started)
  demoId = started.demoInstallationId
  const db = app.domain!.db
  const first = async (table: 'charging_stations' | 'rfids' | 'timers' | 'rates' | 'objects' | 'meters') =>
    (await db.selectFrom(table).select('id').where('installation_id', '=', demoId).orderBy('id').executeTakeFirstOrThrow()).id
  const user = await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()
  const meter = await db.selectFrom('meters').select('id').where('installation_id', '=', demoId).where('meter_type', '=', 'pv').executeTakeFirstOrThrow()
  ids = { station: await first('charging_stations'), rfid: await first('rfids'), timer: await first('timers'), rate: await first('rates'), object: await first('objects'), meter: meter.id, user: user.id }
  await request(app.server).post(`/api/cockpit/installations/${demoId}/archive`).set(auth(tokens.super)).expect(200)
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const inst = () => `/api/cockpit/installations/${demoId}`

describe('an archived installation refuses every older write', () => {
  const GERMAN = 'Diese Anlage ist archiviert und schreibgeschützt. Holen Sie sie aus dem Archiv, um sie zu ändern.'
  const writes: [string, () => request.Test][] = [
    ['a station’s mode', () => api().patch(`${inst()}/charging_stations/${ids.station}/`).send({ charging_mode: 'solar' })],
    ['a station by its global id', () => api().patch(`/api/ladestation/${ids.station}/`).send({ name: 'Renamed' })],
    ['an RFID card', () => api().patch(`/api/rfids/${ids.rfid}/`).send({ description: 'Changed' })],
    ['a new RFID card (installation in the header)', () => api().post('/api/rfids/').set('installation-id', String(demoId)).send({ tag: '04AABBCCDDEEFF', description: 'New' })],
    ['a timer', () => api().patch(`${inst()}/timers/${ids.timer}/`).send({ description: 'Changed' })],
    ['a rate', () => api().patch(`${inst()}/rates/power/${ids.rate}/`).send({ name: 'Changed' })],
    ['an object', () => api().patch(`${inst()}/objects/${ids.object}/`).send({ description: 'Changed' })],
    ['a meter', () => api().patch(`${inst()}/meters/${ids.meter}/`).send({ name: 'Changed' })],
    ['a permission entry', () => api().put(`${inst()}/permissions`).send({ user_id: ids.user, object_type: 'charging_station', object_id: ids.station, level: 'write' })],
    ['a user’s role', () => api().put(`/api/cockpit/users/${ids.user}/installations/${demoId}`).send({ role: 'installation_admin' })],
    ['the ZEV settings', () => api().put('/api/zev/settings/').set('installation-id', String(demoId)).send({ model: 'flat', flat_percent: 10 })],
  ]
  it.each(writes)('%s: 409 in the caller’s language, nothing changed', async (_what, send) => {
    const r = await send().set(auth(tokens.admin)).set('Accept-Language', 'de-CH').expect(409)
    expect(r.body.detail).toBe(GERMAN)
  })

  it('tells nothing to a caller without a role there (403), and 404 for an unknown installation', async () => {
    await api().patch(`${inst()}/timers/${ids.timer}/`).set(auth(tokens.bern)).send({ description: 'x' }).expect(403)
    await api().patch(`/api/rfids/${ids.rfid}/`).set(auth(tokens.bern)).send({ description: 'x' }).expect(403)
    await api().patch(`/api/cockpit/installations/2147483647/timers/1/`).set(auth(tokens.super)).send({ description: 'x' }).expect(404)
  })

  it('keeps reads, withdrawing access and unarchiving open; writes work again afterwards', async () => {
    const before = await app.domain!.db.selectFrom('rfids').select('description').where('id', '=', ids.rfid).executeTakeFirstOrThrow()
    expect(before.description).not.toBe('Changed')
    await api().get(`${inst()}/timers/`).set(auth(tokens.admin)).expect(200)
    await api().delete(`${inst()}/permissions?user_id=${ids.user}&object_type=charging_station&object_id=${ids.station}`).set(auth(tokens.admin)).expect(204)
    await api().post(`${inst()}/unarchive`).set(auth(tokens.super)).expect(200)
    const r = await api().patch(`/api/rfids/${ids.rfid}/`).set(auth(tokens.admin)).send({ description: 'Changed' }).expect(200)
    expect(r.body.description).toBe('Changed')
  })
})
