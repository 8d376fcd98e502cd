import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, connectChargePoint, startWithTokens, until, type ChargePoint, type RoleTokens } from './helpers.ts'

// Meters and charging stations made through the provisioning API (server/api/provisioning-devices.ts),
// with a real OCPP 1.6J client (ocpp-rpc, strict mode) connecting with the credentials shown once.
let app: FastifyInstance
let url: string
let tokens: RoleTokens
let other: { installationId: number; stationId: number }
let object1: number
let otherObject: number
const open: ChargePoint[] = []

beforeAll(async () => {
  const started = await startWithTokens(['api', 'ocpp'])
  ;({ app, url, tokens, other } = started)
  const db = app.domain!.db
  object1 = (await db.selectFrom('objects').select('id').where('installation_id', '=', 1).orderBy('id').executeTakeFirstOrThrow()).id
  otherObject = (await db.insertInto('objects').values({ installation_id: other.installationId, parent_object_id: null, description: 'Bern house', object_type: 'building' }).returning('id').executeTakeFirstOrThrow()).id
})
afterEach(async () => {
  for (const cp of open.splice(0)) await cp.close({ force: true })
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const meters = (inst = 1) => `/api/cockpit/installations/${inst}/meters/`
const stations = (inst = 1) => `/api/cockpit/installations/${inst}/charging_stations/`
const count = async (table: 'meters' | 'charging_stations' | 'ocpp_charge_points') => Number((await app.domain!.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
/** Connect as charge point `id` with `password`: the client, or the HTTP status that refused the upgrade. */
const connect = (id: string, password: string) =>
  connectChargePoint(url, id, password).then(
    (cp) => (open.push(cp), cp),
    (err: { code?: number }) => err.code ?? -1,
  )
const measurementsOf = async (meterId: number) => Number((await app.domain!.db.selectFrom('measurements').select((eb) => eb.fn.countAll<string>().as('n')).where('meter_id', '=', meterId).executeTakeFirstOrThrow()).n)

describe('meters', () => {
  it('creates a meter of each type with the unit of its type and the source asked for; the simulator takes only simulator meters', async () => {
    const types = ['main_power', 'pv', 'battery', 'hot_water', 'cold_water', 'heat', 'power'] as const
    const made: Record<string, { id: number; unit: string; source: string }> = {}
    for (const [i, meter_type] of types.entries()) {
      const r = await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type, name: `New ${meter_type}`, serial: `SN-${i}`, ...(meter_type === 'battery' ? { capacity: 13.5, source: 'simulator' } : {}) }).expect(201)
      expect(r.body).toMatchObject({ meter_type, object_id: object1, serial: `SN-${i}`, archived_at: null, source: meter_type === 'battery' ? 'simulator' : 'ingest', unit: meter_type.endsWith('water') ? 'm3' : 'kWh' })
      made[meter_type] = r.body
    }
    expect(made.battery).toMatchObject({ capacity: 13.5 })
    const listed = (await api().get(`${meters()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body
    for (const m of Object.values(made)) expect(listed.results).toContainEqual(expect.objectContaining({ id: m.id }))
    // What the simulator reads every step: the simulator meter, not the ones waiting for a real device.
    const eq = await app.domain!.devices.equipment(1)
    expect(eq.meters.map((m) => m.id)).toContain(made.battery.id)
    expect(eq.meters.map((m) => m.id)).not.toContain(made.main_power.id)
    // The object tree shows the new meters in their sections.
    const node = (await api().get(`/api/cockpit/installations/1/objects/${object1}/`).set(auth(tokens.admin)).expect(200)).body
    expect(node.water_meters.map((m: { id: number }) => m.id)).toContain(made.cold_water.id)
  })

  it('refuses bad input naming the field, and creates nothing', async () => {
    const before = await count('meters')
    const wrongUnit = await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'cold_water', name: 'Cold', unit: 'kWh' }).expect(400)
    expect(wrongUnit.body.unit[0]).toMatch(/m3/)
    const foreign = await api().post(meters()).set(auth(tokens.admin)).send({ object_id: otherObject, meter_type: 'heat', name: 'Heat' }).expect(404)
    expect(foreign.body).toHaveProperty('object_id')
    await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'charging_station', name: 'x' }).expect(400)
    await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'pv', name: 'PV', capacity: -5 }).expect(400)
    await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'pv', name: 'PV', source: 'carrier-pigeon' }).expect(400)
    await api().post(meters()).set(auth(tokens.admin)).send({ object_id: 2147483648, meter_type: 'pv', name: 'PV' }).expect(400)
    await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'heat', name: 'Heat A', serial: 'DUP-1' }).expect(201)
    const dup = await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'heat', name: 'Heat B', serial: 'DUP-1' }).expect(409)
    expect(dup.body).toHaveProperty('serial')
    // The same serial in another installation is another meter.
    await api().post(meters(other.installationId)).set(auth(tokens.bern)).send({ object_id: otherObject, meter_type: 'heat', name: 'Heat Bern', serial: 'DUP-1' }).expect(201)
    expect(await count('meters')).toBe(before + 2)
  })

  it('changes a meter; a unit that does not fit the type is 400; a station meter is managed through its station (409)', async () => {
    const m = (await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'power', name: 'Flat 1 power' }).expect(201)).body
    const r = await api().patch(`${meters()}${m.id}/`).set(auth(tokens.admin)).send({ name: 'Flat 1 electricity', serial: 'EL-77', source: 'modbus' }).expect(200)
    expect(r.body).toMatchObject({ id: m.id, name: 'Flat 1 electricity', serial: 'EL-77', source: 'modbus', unit: 'kWh' })
    // A new type takes its unit.
    expect((await api().patch(`${meters()}${m.id}/`).set(auth(tokens.admin)).send({ meter_type: 'hot_water' }).expect(200)).body.unit).toBe('m3')
    expect((await api().patch(`${meters()}${m.id}/`).set(auth(tokens.admin)).send({ unit: 'kWh' }).expect(400)).body).toHaveProperty('unit')
    expect((await api().patch(`${meters()}${m.id}/`).set(auth(tokens.admin)).send({ object_id: otherObject }).expect(404)).body).toHaveProperty('object_id')
    const stationMeter = (await app.domain!.db.selectFrom('charging_stations').select('meter_id').where('installation_id', '=', 1).orderBy('id').executeTakeFirstOrThrow()).meter_id
    await api().patch(`${meters()}${stationMeter}/`).set(auth(tokens.admin)).send({ name: 'x' }).expect(409)
    await api().delete(`${meters()}${stationMeter}/`).set(auth(tokens.admin)).expect(409)
  })

  it('DELETE archives the meter and keeps its measurements; ?purge=true removes them', async () => {
    const at = app.clock.now()
    const make = async (name: string) => {
      const m = (await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'heat', name, source: 'simulator' }).expect(201)).body
      await app.domain!.measurements.record([{ meter_id: m.id, ts: new Date(at.getTime() - 3600_000), power_kw: 2, energy_in_kwh: 0.5 }, { meter_id: m.id, ts: at, power_kw: 2, energy_in_kwh: 0.5 }])
      return m.id as number
    }
    const kept = await make('Heat kept')
    const purged = await make('Heat purged')
    expect(await measurementsOf(kept)).toBe(2)

    await api().delete(`${meters()}${kept}/`).set(auth(tokens.admin)).expect(204)
    expect(await measurementsOf(kept)).toBe(2)
    const list = (await api().get(`${meters()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body
    expect(list.results.map((m: { id: number }) => m.id)).not.toContain(kept)
    const all = (await api().get(`${meters()}?limit=1000&include_archived=true`).set(auth(tokens.admin)).expect(200)).body
    expect(all.results.find((m: { id: number }) => m.id === kept).archived_at).toBeTruthy()
    // Gone from the object tree, the heat list and the simulator; a second delete finds nothing.
    const node = (await api().get(`/api/cockpit/installations/1/objects/${object1}/`).set(auth(tokens.admin)).expect(200)).body
    expect(node.heating_meters.map((m: { id: number }) => m.id)).not.toContain(kept)
    expect((await app.domain!.devices.equipment(1)).meters.map((m) => m.id)).not.toContain(kept)
    await api().patch(`${meters()}${kept}/`).set(auth(tokens.admin)).send({ name: 'back' }).expect(404)
    await api().delete(`${meters()}${kept}/`).set(auth(tokens.admin)).expect(404)

    await api().delete(`${meters()}${purged}/?purge=true`).set(auth(tokens.admin)).expect(204)
    expect(await measurementsOf(purged)).toBe(0)
    const rollups = await app.domain!.db.selectFrom('measurements_15m').select('meter_id').where('meter_id', '=', purged).execute()
    expect(rollups).toEqual([])
    const audit = (await api().get('/api/cockpit/installations/1/audit/?entity_type=meter&limit=50').set(auth(tokens.admin)).expect(200)).body
    expect(audit.results).toContainEqual(expect.objectContaining({ action: 'archive', entity_id: String(kept) }))
    expect(audit.results).toContainEqual(expect.objectContaining({ action: 'purge', entity_id: String(purged) }))
  })

  it('is for admins: a resident is refused (403), another installation’s admin too, and its meter ids are not found (404)', async () => {
    await api().get(meters()).set(auth(tokens.user)).expect(403)
    await api().post(meters()).set(auth(tokens.user)).send({ object_id: object1, meter_type: 'heat', name: 'x' }).expect(403)
    await api().get(meters()).set(auth(tokens.bern)).expect(403)
    await api().post(meters()).set(auth(tokens.bern)).send({ object_id: object1, meter_type: 'heat', name: 'x' }).expect(403)
    const mine = (await app.domain!.db.selectFrom('meters').select('id').where('installation_id', '=', 1).where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()).id
    await api().patch(`${meters(other.installationId)}${mine}/`).set(auth(tokens.bern)).send({ name: 'stolen' }).expect(404)
    await api().delete(`${meters(other.installationId)}${mine}/?purge=true`).set(auth(tokens.bern)).expect(404)
    await api().delete(`${meters(other.installationId)}2147483647/`).set(auth(tokens.bern)).expect(404)
    // The superuser may.
    await api().get(meters(other.installationId)).set(auth(tokens.super)).expect(200)
  })
})

describe('charging stations', () => {
  it('creates a station bound to an OCPP id with the password shown once; that charge point connects, a wrong password is refused', async () => {
    const r = await api().post(stations()).set(auth(tokens.admin)).send({ name: 'Garage 9', object_id: object1, capacity_kw: 22, phases: 3, ocpp_charge_point_id: 'WALLBOX-0009' }).expect(201)
    expect(r.headers['cache-control']).toBe('no-store')
    expect(r.body).toMatchObject({ name: 'Garage 9', object_id: object1, capacity_kw: 22, phases: 3, charging_mode: 'instant' })
    expect(r.body.ocpp).toMatchObject({ charge_point_id: 'WALLBOX-0009', url: 'ws://localhost:3000/ocpp/WALLBOX-0009' })
    expect(r.body.ocpp.password.length).toBeGreaterThanOrEqual(16)
    const id = r.body.id as number
    // Stored hashed; never shown again.
    const row = await app.domain!.db.selectFrom('ocpp_charge_points').select('password_hash').where('id', '=', 'WALLBOX-0009').executeTakeFirstOrThrow()
    expect(row.password_hash).not.toContain(r.body.ocpp.password)
    const binding = (await api().get(`${stations()}${id}/ocpp`).set(auth(tokens.admin)).expect(200)).body
    expect(binding).not.toHaveProperty('password')
    // Its own meter, listed with the installation's meters.
    const list = (await api().get(`${meters()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body
    expect(list.results).toContainEqual(expect.objectContaining({ meter_type: 'charging_station', name: 'Garage 9', capacity: 22 }))

    const cp = await connect('WALLBOX-0009', r.body.ocpp.password)
    expect(typeof cp).not.toBe('number')
    const boot = await (cp as ChargePoint).call('BootNotification', { chargePointVendor: 'Elinta', chargePointModel: 'CityCharge' })
    expect(boot).toMatchObject({ status: 'Accepted' })
    await (cp as ChargePoint).call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: app.clock.now().toISOString() })
    await until(async () => (await api().get(`${stations()}${id}/`).set(auth(tokens.admin))).body.status === 'noCar', 5000, 'station Available')
    expect(await connect('WALLBOX-0009', 'not-the-password-1234')).toBe(401)
    // The simulator leaves a station with a real charge point alone.
    expect((await app.domain!.devices.equipment(1)).stations.map((s) => s.id)).not.toContain(id)
  })

  it('rotating the password refuses the old one (and drops its connection) and accepts the new one; the audit trail records it without the password', async () => {
    const made = (await api().post(stations()).set(auth(tokens.admin)).send({ name: 'Garage 10', object_id: object1, capacity_kw: 11, phases: 1, ocpp_charge_point_id: 'WALLBOX-0010' }).expect(201)).body
    const first = (await connect('WALLBOX-0010', made.ocpp.password)) as ChargePoint
    const closed = new Promise<number>((resolve) => first.once('close', ({ code }: { code: number }) => resolve(code)))
    const r = await api().post(`${stations()}${made.id}/ocpp/password`).set(auth(tokens.admin)).expect(200)
    expect(r.body).toMatchObject({ charge_point_id: 'WALLBOX-0010', url: 'ws://localhost:3000/ocpp/WALLBOX-0010' })
    expect(r.body.password).not.toBe(made.ocpp.password)
    expect(await closed).toBe(1008)
    expect(await connect('WALLBOX-0010', made.ocpp.password)).toBe(401)
    expect(typeof (await connect('WALLBOX-0010', r.body.password))).not.toBe('number')
    // A station without a charge point has no password to rotate.
    const plain = (await api().post(stations()).set(auth(tokens.admin)).send({ name: 'Plain', object_id: object1, capacity_kw: 11, phases: 3 }).expect(201)).body
    expect(plain.ocpp).toBeNull()
    await api().post(`${stations()}${plain.id}/ocpp/password`).set(auth(tokens.admin)).expect(404)
    const audit = (await api().get('/api/cockpit/installations/1/audit/?entity_type=ocpp_credentials&limit=50').set(auth(tokens.admin)).expect(200)).body
    expect(audit.results).toContainEqual(expect.objectContaining({ action: 'rotate_password', entity_id: 'WALLBOX-0010' }))
    const text = JSON.stringify(audit)
    expect(text).not.toContain(r.body.password)
    expect(text).not.toContain(made.ocpp.password)
  })

  it('a station without an OCPP id is run by the simulator, like the demo stations', async () => {
    const made = (await api().post(stations()).set(auth(tokens.admin)).send({ name: 'Simulated', object_id: object1, capacity_kw: 7.4, phases: 1, description: 'left of the door' }).expect(201)).body
    expect(made).toMatchObject({ status: 'noCar', description: 'left of the door', phases: 1, ocpp: null })
    const eq = await app.domain!.devices.equipment(1)
    expect(eq.stations).toContainEqual(expect.objectContaining({ id: made.id, capacity_kw: 7.4 }))
    const listed = (await api().get(`${stations()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body
    expect(listed.results.map((s: { id: number }) => s.id)).toContain(made.id)
  })

  it('refuses a duplicate OCPP id across installations (409), another installation’s object (404), capacity and phases out of range (400), creating nothing', async () => {
    const before = { meters: await count('meters'), stations: await count('charging_stations'), cps: await count('ocpp_charge_points') }
    await api().post(stations()).set(auth(tokens.admin)).send({ name: 'One', object_id: object1, capacity_kw: 22, phases: 3, ocpp_charge_point_id: 'SHARED-ID' }).expect(201)
    const dup = await api().post(stations(other.installationId)).set(auth(tokens.bern)).send({ name: 'Two', object_id: otherObject, capacity_kw: 22, phases: 3, ocpp_charge_point_id: 'shared-id' }).expect(409)
    expect(dup.body).toHaveProperty('ocpp_charge_point_id')
    // The demo's own charge point id is taken too.
    expect((await api().post(stations()).set(auth(tokens.admin)).send({ name: 'Three', object_id: object1, capacity_kw: 22, phases: 3, ocpp_charge_point_id: 'DEMO-CP-1' }).expect(409)).body).toHaveProperty('ocpp_charge_point_id')
    expect((await api().post(stations()).set(auth(tokens.admin)).send({ name: 'Four', object_id: otherObject, capacity_kw: 22, phases: 3 }).expect(404)).body).toHaveProperty('object_id')
    for (const bad of [{ capacity_kw: 0 }, { capacity_kw: 351 }, { phases: 2 }, { ocpp_charge_point_id: 'has space' }, { name: '' }]) {
      const r = await api().post(stations()).set(auth(tokens.admin)).send({ name: 'Bad', object_id: object1, capacity_kw: 22, phases: 3, ...bad }).expect(400)
      expect(Object.keys(r.body)).toContain(Object.keys(bad)[0])
    }
    expect(await count('charging_stations')).toBe(before.stations + 1)
    expect(await count('meters')).toBe(before.meters + 1)
    expect(await count('ocpp_charge_points')).toBe(before.cps + 1)
  })

  it('DELETE is refused while a session is open (409), then archives the station: its sessions stay, it leaves lists and the simulator, its charge point is refused and its id is free', async () => {
    const made = (await api().post(stations()).set(auth(tokens.admin)).send({ name: 'To go', object_id: object1, capacity_kw: 22, phases: 3, ocpp_charge_point_id: 'WALLBOX-GONE' }).expect(201)).body
    const db = app.domain!.db
    const now = app.clock.ms()
    const done = await db.insertInto('charging_sessions').values({ installation_id: 1, station_id: made.id, rfid_id: null, user_id: null, start: new Date(now - 7200_000), end: new Date(now - 3600_000), energy_kwh: 5, high_kwh: 5, low_kwh: 0, price_rappen: 150, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false }).returning('id').executeTakeFirstOrThrow()
    const running = await db.insertInto('charging_sessions').values({ installation_id: 1, station_id: made.id, rfid_id: null, user_id: null, start: new Date(now - 600_000), end: null, energy_kwh: 1, high_kwh: 1, low_kwh: 0, price_rappen: 0, fee_rappen: 0, status: 'charging', paid_on: null, set_by_timer: false }).returning('id').executeTakeFirstOrThrow()
    const refused = await api().delete(`${stations()}${made.id}/`).set(auth(tokens.admin)).expect(409)
    expect(refused.body.detail).toMatch(/session/)
    await api().get(`${stations()}${made.id}/`).set(auth(tokens.admin)).expect(200)

    await db.updateTable('charging_sessions').set({ end: new Date(now), status: 'unpaid' }).where('id', '=', running.id).execute()
    const cp = (await connect('WALLBOX-GONE', made.ocpp.password)) as ChargePoint
    const closed = new Promise<number>((resolve) => cp.once('close', ({ code }: { code: number }) => resolve(code)))
    await api().delete(`${stations()}${made.id}/`).set(auth(tokens.admin)).expect(204)
    expect(await closed).toBe(1008)
    await api().get(`${stations()}${made.id}/`).set(auth(tokens.admin)).expect(404)
    await api().delete(`${stations()}${made.id}/`).set(auth(tokens.admin)).expect(404)
    const listed = (await api().get(`${stations()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body
    expect(listed.results.map((s: { id: number }) => s.id)).not.toContain(made.id)
    expect((await app.domain!.devices.equipment(1)).stations.map((s) => s.id)).not.toContain(made.id)
    // Its sessions are still there, in the sessions list too.
    const kept = await db.selectFrom('charging_sessions').select('id').where('station_id', '=', made.id).orderBy('id').execute()
    expect(kept.map((s) => s.id)).toEqual([done.id, running.id])
    expect((await api().get(`/api/rfids-charge/${done.id}/`).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ id: done.id, station_id: made.id })
    expect(await connect('WALLBOX-GONE', made.ocpp.password)).toBe(401)
    await api().post(stations()).set(auth(tokens.admin)).send({ name: 'New one', object_id: object1, capacity_kw: 22, phases: 3, ocpp_charge_point_id: 'WALLBOX-GONE' }).expect(201)
  })

  it('is for admins: a resident gets 403, another installation’s admin 403 here and 404 for these station ids on their own installation', async () => {
    const station = (await app.domain!.db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).where('archived_at', 'is', null).orderBy('id').executeTakeFirstOrThrow()).id
    const body = { name: 'x', object_id: object1, capacity_kw: 11, phases: 3 }
    await api().post(stations()).set(auth(tokens.user)).send(body).expect(403)
    await api().post(`${stations()}${station}/ocpp/password`).set(auth(tokens.user)).expect(403)
    await api().delete(`${stations()}${station}/`).set(auth(tokens.user)).expect(403)
    await api().post(stations()).set(auth(tokens.bern)).send(body).expect(403)
    await api().delete(`${stations(other.installationId)}${station}/`).set(auth(tokens.bern)).expect(404)
    await api().post(`${stations(other.installationId)}${station}/ocpp/password`).set(auth(tokens.bern)).expect(404)
    await api().get(`${stations()}${station}/`).set(auth(tokens.admin)).expect(200)
  })
})

it('an archived installation is read-only: creating, changing and deleting its meters and stations is 409, nothing changes', async () => {
  const db = app.domain!.db
  const meter = (await api().post(meters(other.installationId)).set(auth(tokens.bern)).send({ object_id: otherObject, meter_type: 'pv', name: 'PV before archiving' }).expect(201)).body
  const station = (await api().post(stations(other.installationId)).set(auth(tokens.bern)).send({ name: 'Before archiving', object_id: otherObject, capacity_kw: 11, phases: 3, ocpp_charge_point_id: 'ARCHIVE-CP-1' }).expect(201)).body
  await api().post(`/api/cockpit/installations/${other.installationId}/archive`).set(auth(tokens.super)).expect(200)
  try {
    const [m, s] = [await count('meters'), await count('charging_stations')]
    for (const token of [tokens.bern, tokens.super]) {
      const created = await api().post(meters(other.installationId)).set(auth(token)).send({ object_id: otherObject, meter_type: 'pv', name: 'PV after' }).expect(409)
      expect(created.body.detail).toMatch(/archived/i)
      await api().patch(`${meters(other.installationId)}${meter.id}/`).set(auth(token)).send({ name: 'renamed' }).expect(409)
      await api().delete(`${meters(other.installationId)}${meter.id}/`).set(auth(token)).expect(409)
      await api().post(stations(other.installationId)).set(auth(token)).send({ name: 'After', object_id: otherObject, capacity_kw: 11, phases: 3 }).expect(409)
      await api().post(`${stations(other.installationId)}${station.id}/ocpp/password`).set(auth(token)).expect(409)
      await api().delete(`${stations(other.installationId)}${station.id}/`).set(auth(token)).expect(409)
    }
    expect([await count('meters'), await count('charging_stations')]).toEqual([m, s])
    expect((await db.selectFrom('meters').select(['name', 'archived_at']).where('id', '=', meter.id).executeTakeFirstOrThrow())).toEqual({ name: 'PV before archiving', archived_at: null })
  } finally {
    await api().post(`/api/cockpit/installations/${other.installationId}/unarchive`).set(auth(tokens.super)).expect(200)
  }
})

it('the OpenAPI document lists the provisioning operations', async () => {
  const doc = (await api().get('/api/swagger.json').expect(200)).body
  const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
  for (const op of [
    'GET /api/cockpit/installations/{installationId}/meters/',
    'POST /api/cockpit/installations/{installationId}/meters/',
    'PATCH /api/cockpit/installations/{installationId}/meters/{meterId}/',
    'DELETE /api/cockpit/installations/{installationId}/meters/{meterId}/',
    'POST /api/cockpit/installations/{installationId}/charging_stations/',
    'POST /api/cockpit/installations/{installationId}/charging_stations/{stationId}/ocpp/password',
    'DELETE /api/cockpit/installations/{installationId}/charging_stations/{stationId}/',
  ]) expect(ops).toContain(op)
})
