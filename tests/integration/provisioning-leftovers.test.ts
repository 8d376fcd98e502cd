import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

// A station's capacity and phases, the paged status list and a dry run that takes no ids
// (docs/decisions.md "Provisioning: a station's capacity and phases", "Configuration files: a dry run takes no ids").
let app: FastifyInstance
let tokens: RoleTokens
let demoId: number
let bernStation: number
const api = () => request(app.server)
const BASE = '/api/cockpit/installations'

beforeAll(async () => {
  const started = await startWithTokens()
  ;({ app, tokens } = started)
  demoId = started.demoInstallationId
  bernStation = started.other.stationId
})
afterAll(async () => app?.close())

describe('PATCH a station’s capacity and phases (admins)', () => {
  const station = async () => app.domain!.db.selectFrom('charging_stations').select(['id', 'capacity_kw', 'phases', 'meter_id', 'charging_mode']).where('installation_id', '=', demoId).where('name', '=', 'Station 2').executeTakeFirstOrThrow()

  it('changes both, its meter’s capacity follows, the change is in the audit trail', async () => {
    const s = await station()
    const r = await api().patch(`${BASE}/${demoId}/charging_stations/${s.id}/`).set(auth(tokens.admin)).send({ capacity_kw: 22, phases: 1, charging_mode: 'solar' }).expect(200)
    expect(r.body).toMatchObject({ id: s.id, capacity_kw: 22, phases: 1, charging_mode: 'solar' })
    const meter = await app.domain!.db.selectFrom('meters').select('capacity').where('id', '=', s.meter_id).executeTakeFirstOrThrow()
    expect(meter.capacity).toBe(22)
    const audit = await api().get(`${BASE}/${demoId}/audit/?entity_type=charging_station`).set(auth(tokens.admin)).expect(200)
    expect(audit.body.results[0]).toMatchObject({ action: 'update', entity_id: String(s.id), before: { capacity_kw: 11, phases: 3 }, after: { capacity_kw: 22, phases: 1 } })
  })

  it('refuses a capacity out of 1–350 or 2 phases naming the field, a resident (403) and another installation’s admin (403)', async () => {
    const s = await station()
    const over = await api().patch(`${BASE}/${demoId}/charging_stations/${s.id}/`).set(auth(tokens.admin)).send({ capacity_kw: 351 }).expect(400)
    expect(JSON.stringify(over.body)).toMatch(/capacity_kw/)
    const phases = await api().patch(`${BASE}/${demoId}/charging_stations/${s.id}/`).set(auth(tokens.admin)).send({ phases: 2 }).expect(400)
    expect(JSON.stringify(phases.body)).toMatch(/phases/)
    // The resident may change Station 1's mode (a write permission), never its capacity.
    const one = await app.domain!.db.selectFrom('charging_stations').select('id').where('installation_id', '=', demoId).where('name', '=', 'Station 1').executeTakeFirstOrThrow()
    await api().patch(`${BASE}/${demoId}/charging_stations/${one.id}/`).set(auth(tokens.user)).send({ capacity_kw: 50 }).expect(403)
    await api().patch(`${BASE}/${demoId}/charging_stations/${s.id}/`).set(auth(tokens.bern)).send({ capacity_kw: 50 }).expect(403)
    // Another installation's station through this one's path: not found.
    await api().patch(`${BASE}/${demoId}/charging_stations/${bernStation}/`).set(auth(tokens.admin)).send({ capacity_kw: 50 }).expect(404)
    expect(await station()).toMatchObject({ capacity_kw: 22, phases: 1 })
  })
})

describe('GET …/installations/status/ pages of at most 500', () => {
  it('refuses limit 501, links next and previous pages, and documents the bound', async () => {
    await api().get(`${BASE}/status/?limit=501`).set(auth(tokens.super)).expect(400)
    const first = await api().get(`${BASE}/status/?limit=1`).set(auth(tokens.super)).expect(200)
    expect(first.body.count).toBeGreaterThanOrEqual(3)
    expect(first.body.results).toHaveLength(1)
    expect(first.body.previous).toBeNull()
    expect(first.body.next).toBe(`${BASE}/status/?limit=1&offset=1`)
    const second = await api().get(first.body.next).set(auth(tokens.super)).expect(200)
    expect(second.body.results[0].id).not.toBe(first.body.results[0].id)
    expect(second.body.previous).toBe(`${BASE}/status/?limit=1&offset=0`)
    const last = await api().get(`${BASE}/status/?limit=500&offset=${first.body.count - 1}`).set(auth(tokens.super)).expect(200)
    expect(last.body.next).toBeNull()
    const doc = await api().get('/api/swagger.json').expect(200)
    const limit = doc.body.paths['/api/cockpit/installations/status/'].get.parameters.find((p: { name: string }) => p.name === 'limit')
    expect(limit.schema.maximum).toBe(500)
  })
})

describe('a dry run takes no ids', () => {
  const file = `cockpit_configuration: 1
installations:
  - name: Seequartier Thun
    timezone: Europe/Zurich
    address: { street: Seestrasse, building_number: "1", zip: "3600", city: Thun, country: CH }
    objects:
      - path: House
        type: building
    meters:
      - name: Main
        type: main_power
        object: House
`
  const lastIds = async () => {
    const db = app.domain!.db
    const max = async (t: 'installations' | 'objects' | 'meters' | 'audit_events') => (await db.selectFrom(t).select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow()).m as number
    return { installation: await max('installations'), object: await max('objects'), meter: await max('meters'), audit: await max('audit_events') }
  }

  it('a dry run then the import gives the ids the import alone would', async () => {
    const before = await lastIds()
    const dry = await api().post('/api/cockpit/configuration/import?dry_run=true').set(auth(tokens.super)).set('Content-Type', 'application/yaml').send(file).expect(200)
    expect(dry.body.summary.created).toBeGreaterThan(0)
    const real = await api().post('/api/cockpit/configuration/import?dry_run=false').set(auth(tokens.super)).set('Content-Type', 'application/yaml').send(file).expect(200)
    const id = real.body.installations[0].id
    expect(id).toBe(before.installation + 1)
    const made = await app.domain!.db.selectFrom('objects').select('id').where('installation_id', '=', id).executeTakeFirstOrThrow()
    expect(made.id).toBe(before.object + 1)
    const meter = await app.domain!.db.selectFrom('meters').select('id').where('installation_id', '=', id).executeTakeFirstOrThrow()
    expect(meter.id).toBe(before.meter + 1)
  })
})
