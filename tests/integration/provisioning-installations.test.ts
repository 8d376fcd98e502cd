import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

let app: FastifyInstance
let tokens: RoleTokens
let demoId: number
let bernId: number

beforeAll(async () => {
  const started = await startWithTokens()
  ;({ app, tokens } = started)
  bernId = started.other.installationId
  const db = app.domain!.db
  demoId = started.demoInstallationId
  // Billing history, as a running demo has it from its simulator: one paid charging session.
  const station = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', demoId).orderBy('id').executeTakeFirstOrThrow()
  const now = app.clock.ms()
  await db.insertInto('charging_sessions').values({ installation_id: demoId, station_id: station.id, rfid_id: null, user_id: null, start: new Date(now - 7200_000), end: new Date(now - 3600_000), energy_kwh: 10, high_kwh: 10, low_kwh: 0, price_rappen: 300, fee_rappen: 0, status: 'paid', paid_on: new Date(now - 3000_000), set_by_timer: false }).execute()
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const BASE = '/api/cockpit/installations'
const ADDRESS = { street: 'Bahnhofstrasse', building_number: '12a', zip: '3011', city: 'Bern', country: 'CH' }
const OPERATOR = { name: 'Energie Bern AG', street: 'Marktgasse', building_number: '1', zip: '3011', city: 'Bern', country: 'CH', iban: 'CH93 0076 2011 6238 5295 7', vat_number: null, vat_rate: 8.1 }
const installationCount = async () => Number((await app.domain!.db.selectFrom('installations').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
const audit = async (installationId: number, entityType = 'installation') =>
  (await api().get(`${BASE}/${installationId}/audit/?entity_type=${entityType}`).set(auth(tokens.super)).expect(200)).body.results

describe('POST /api/cockpit/installations/ (superusers)', () => {
  it('creates an installation a superuser then sees in the list, in status/ and in the audit trail', async () => {
    const r = await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'Wohnpark Aare', timezone: 'europe/zurich', address: ADDRESS, operator: OPERATOR }).expect(201)
    expect(r.body).toMatchObject({
      name: 'Wohnpark Aare', timezone: 'Europe/Zurich', currency: 'CHF', latitude: 46.8182, longitude: 8.2275, role: 'superuser', archived_at: null,
      address: ADDRESS, operator: { iban: 'CH9300762011623852957' },
    })
    const id = r.body.id as number
    const list = await api().get(`${BASE}/`).set(auth(tokens.super)).expect(200)
    expect(list.body.results.map((i: { id: number }) => i.id)).toContain(id)
    const status = await api().get(`${BASE}/status/?q=aare`).set(auth(tokens.super)).expect(200)
    expect(status.body).toMatchObject({ count: 1, results: [{ id, name: 'Wohnpark Aare', city: 'Bern', online: false, alert_count: 0, last_data_at: null, stations_total: 0, stations_charging: 0, archived_at: null }] })
    const [event] = await audit(id)
    expect(event).toMatchObject({ action: 'create', entity_type: 'installation', entity_id: String(id), actor_email: 'super@example.com', before: null, after: { name: 'Wohnpark Aare', address: ADDRESS } })
  })

  it('is refused to an installation admin and a resident (403) and to nobody signed in (401)', async () => {
    const body = { name: 'Not mine', timezone: 'Europe/Zurich', address: ADDRESS }
    for (const token of [tokens.admin, tokens.bern, tokens.user]) await api().post(`${BASE}/`).set(auth(token)).send(body).expect(403)
    await api().post(`${BASE}/`).send(body).expect(401)
    expect((await api().get(`${BASE}/status/?q=Not%20mine`).set(auth(tokens.super)).expect(200)).body.count).toBe(0)
  })

  it('names the field of bad input and creates nothing: unknown time zone, wrong IBAN check digit, NUL bytes, missing address', async () => {
    const before = await installationCount()
    const tz = await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X', timezone: 'Mars/Olympus_Mons', address: ADDRESS }).expect(400)
    expect(tz.body).toEqual({ timezone: ['Unknown time zone. Use an IANA name such as Europe/Zurich.'] })
    const de = await api().post(`${BASE}/`).set(auth(tokens.super)).set('Accept-Language', 'de').send({ name: 'X', timezone: 'Nowhere', address: ADDRESS }).expect(400)
    expect(de.body.timezone[0]).toMatch(/Zeitzone/)
    const iban = await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X', timezone: 'Europe/Zurich', address: ADDRESS, operator: { ...OPERATOR, iban: 'CH94 0076 2011 6238 5295 7' } }).expect(400)
    expect(Object.keys(iban.body)).toEqual(['operator.iban'])
    await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X\u0000', timezone: 'Europe/Zurich', address: ADDRESS }).expect(400)
    await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X', timezone: 'Europe/Zurich', address: { ...ADDRESS, city: 'Be\u0000rn' } }).expect(400)
    expect(Object.keys((await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X', timezone: 'Europe/Zurich' }).expect(400)).body)).toContain('address')
    await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X', timezone: 'Europe/Zurich', address: { ...ADDRESS, country: 'DE' } }).expect(400)
    expect(Object.keys((await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X', timezone: 'Europe/Zurich', address: { ...ADDRESS, street: ' ' } }).expect(400)).body)).toEqual(['address.street'])
    await api().post(`${BASE}/`).set(auth(tokens.super)).send({ name: 'X', timezone: 'Europe/Zurich', address: ADDRESS, latitude: 91 }).expect(400)
    expect(await installationCount()).toBe(before)
  })
})

describe('PATCH /api/cockpit/installations/{id}/ (admins)', () => {
  it('an admin changes name, time zone and address of their installation; the audit shows before and after', async () => {
    const r = await api().patch(`${BASE}/${demoId}/`).set(auth(tokens.admin)).send({ name: 'Residenz Zürich', address: { ...ADDRESS, city: 'Zürich', zip: '8001' }, timezone: 'Europe/Zurich' }).expect(200)
    expect(r.body).toMatchObject({ name: 'Residenz Zürich', address: { city: 'Zürich' }, role: 'installation_admin' })
    const [event] = await audit(demoId)
    expect(event).toMatchObject({ action: 'update', actor_email: 'admin@example.com', before: { name: 'Demo Residence Zürich', address: { city: '' } }, after: { name: 'Residenz Zürich', address: { city: 'Zürich' } } })
    // The admin reads their installation's trail; the other installation's admin does not.
    await api().get(`${BASE}/${demoId}/audit/`).set(auth(tokens.admin)).expect(200)
    await api().get(`${BASE}/${demoId}/audit/`).set(auth(tokens.bern)).expect(403)
    await api().get(`/api/cockpit/audit/?installation_id=${demoId}`).set(auth(tokens.bern)).expect(403)
  })

  it("refuses another installation's admin (403), a resident (403), an unknown time zone (400) and huge ids (400)", async () => {
    await api().patch(`${BASE}/${demoId}/`).set(auth(tokens.bern)).send({ name: 'Mine now' }).expect(403)
    await api().patch(`${BASE}/${demoId}/`).set(auth(tokens.user)).send({ name: 'Mine now' }).expect(403)
    expect((await api().patch(`${BASE}/${demoId}/`).set(auth(tokens.admin)).send({ timezone: 'Europe/Atlantis' }).expect(400)).body).toHaveProperty('timezone')
    await api().patch(`${BASE}/99999999999999999999/`).set(auth(tokens.super)).send({ name: 'X' }).expect(400)
    await api().patch(`${BASE}/2147483647/`).set(auth(tokens.super)).send({ name: 'X' }).expect(404)
    expect((await api().get(`${BASE}/${demoId}/`).set(auth(tokens.admin)).expect(200)).body.name).toBe('Residenz Zürich')
  })
})

describe('archive, unarchive and delete (superusers)', () => {
  it('an archived installation is read-only (409 saying so), left out of the list unless asked for, and comes back', async () => {
    await api().post(`${BASE}/${bernId}/archive`).set(auth(tokens.bern)).expect(403)
    const r = await api().post(`${BASE}/${bernId}/archive`).set(auth(tokens.super)).expect(200)
    expect(r.body.archived_at).toEqual(expect.any(String))
    const patch = await api().patch(`${BASE}/${bernId}/`).set(auth(tokens.bern)).send({ name: 'Changed' }).expect(409)
    expect(patch.body.detail).toMatch(/archived/)
    await api().post(`${BASE}/${bernId}/objects/`).set(auth(tokens.super)).send({ description: 'Haus', parent_object_id: null, object_type: 'building' }).expect(409)
    const ids = async (q = '') => (await api().get(`${BASE}/${q}`).set(auth(tokens.bern)).expect(200)).body.results.map((i: { id: number }) => i.id)
    expect(await ids()).not.toContain(bernId)
    expect(await ids('?include_archived=true')).toContain(bernId)
    const status = await api().get(`${BASE}/status/?q=Other%20Site`).set(auth(tokens.super)).expect(200)
    expect(status.body.results[0]).toMatchObject({ id: bernId, archived_at: r.body.archived_at, stations_total: 1 })
    // Still readable while archived.
    await api().get(`${BASE}/${bernId}/`).set(auth(tokens.bern)).expect(200)
    expect((await api().post(`${BASE}/${bernId}/unarchive`).set(auth(tokens.super)).expect(200)).body.archived_at).toBeNull()
    await api().patch(`${BASE}/${bernId}/`).set(auth(tokens.bern)).send({ name: 'Other Site Bern' }).expect(200)
    expect((await audit(bernId)).map((e: { action: string }) => e.action).slice(0, 3)).toEqual(['update', 'unarchive', 'archive'])
  })

  it('refuses to delete an installation with billing history (409: archive it instead), deletes one without and keeps its trail', async () => {
    await api().delete(`${BASE}/${demoId}/`).set(auth(tokens.admin)).expect(403)
    const refused = await api().delete(`${BASE}/${demoId}/`).set(auth(tokens.super)).expect(409)
    expect(refused.body.detail).toMatch(/Archive it instead/)
    await api().get(`${BASE}/${demoId}/`).set(auth(tokens.super)).expect(200)
    // The other installation has a station and a meter but never billed.
    await api().delete(`${BASE}/${bernId}/`).set(auth(tokens.bern)).expect(403)
    await api().delete(`${BASE}/${bernId}/`).set(auth(tokens.super)).expect(204)
    await api().get(`${BASE}/${bernId}/`).set(auth(tokens.super)).expect(404)
    const [event] = (await api().get(`/api/cockpit/audit/?installation_id=${bernId}`).set(auth(tokens.super)).expect(200)).body.results
    expect(event).toMatchObject({ action: 'delete', entity_type: 'installation', before: { name: 'Other Site Bern' }, after: null })
    await api().delete(`${BASE}/2147483647/`).set(auth(tokens.super)).expect(404)
    await api().delete(`${BASE}/1e99/`).set(auth(tokens.super)).expect(400)
  })
})
