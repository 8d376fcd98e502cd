import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

// A meter's source settings (migration 0173, shared/schemas/meters.ts ModbusSourceConfig): the Modbus
// device a facility gateway reads, set through the provisioning API's create and PATCH.
let app: FastifyInstance
let tokens: RoleTokens
let other: { installationId: number }
let object1: number

beforeAll(async () => {
  const started = await startWithTokens(['api'])
  ;({ app, tokens, other } = started)
  object1 = (await app.domain!.db.selectFrom('objects').select('id').where('installation_id', '=', 1).orderBy('id').executeTakeFirstOrThrow()).id
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const meters = (inst = 1) => `/api/cockpit/installations/${inst}/meters/`
const device = { host: '192.168.1.20', port: 1502, unit_id: 3, model: 'sdm630', interval_s: 10 }

describe('meter source settings', () => {
  it('creates a Modbus meter with its device, filling the defaults, and lists it with them', async () => {
    const r = await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'main_power', name: 'Grid SDM630', source: 'modbus', source_config: { host: 'sdm630.local', model: 'sdm630' } }).expect(201)
    expect(r.body.source_config).toEqual({ host: 'sdm630.local', port: 502, unit_id: 1, model: 'sdm630', interval_s: 5 })
    const listed = (await api().get(`${meters()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body.results
    expect(listed.find((m: { id: number }) => m.id === r.body.id).source_config).toEqual(r.body.source_config)
    // Other meters have none.
    expect(listed.filter((m: { source: string }) => m.source !== 'modbus').every((m: { source_config: unknown }) => m.source_config === null)).toBe(true)
  })

  it('changes the device by PATCH; switching the source away from Modbus drops it, and the audit shows before and after', async () => {
    const m = (await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'pv', name: 'PV inverter', source: 'modbus', source_config: { ...device, model: 'sunspec' } }).expect(201)).body
    const r = await api().patch(`${meters()}${m.id}/`).set(auth(tokens.admin)).send({ source_config: { ...device, host: '10.0.0.7' } }).expect(200)
    expect(r.body.source_config).toEqual({ ...device, host: '10.0.0.7' })
    // A PATCH of another field keeps the device.
    expect((await api().patch(`${meters()}${m.id}/`).set(auth(tokens.admin)).send({ name: 'PV roof' }).expect(200)).body.source_config).toEqual({ ...device, host: '10.0.0.7' })
    expect((await api().patch(`${meters()}${m.id}/`).set(auth(tokens.admin)).send({ source: 'mqtt' }).expect(200)).body).toMatchObject({ source: 'mqtt', source_config: null })
    const audit = await app.domain!.db.selectFrom('audit_events').selectAll().where('entity_type', '=', 'meter').where('entity_id', '=', m.id).orderBy('id').execute()
    expect(audit.length).toBe(4)
  })

  it('refuses bad device settings with 400 naming the field, and writes nothing', async () => {
    const before = (await api().get(`${meters()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body.count
    const bad: [Record<string, unknown>, string][] = [
      [{ ...device, port: 70000 }, 'port'],
      [{ ...device, port: 0 }, 'port'],
      [{ ...device, unit_id: 248 }, 'unit_id'],
      [{ ...device, model: 'sdm120' }, 'model'],
      [{ ...device, interval_s: 0 }, 'interval_s'],
      [{ ...device, host: 'http://192.168.1.20/' }, 'host'],
      [{ ...device, host: '' }, 'host'],
      [{ ...device, extra: 1 }, 'source_config'],
      [{ port: 502, model: 'sdm630' }, 'host'],
    ]
    for (const [source_config, field] of bad) {
      const r = await api().post(meters()).set(auth(tokens.admin)).set('Accept-Language', 'en').send({ object_id: object1, meter_type: 'main_power', name: 'Bad', source: 'modbus', source_config }).expect(400)
      expect(JSON.stringify(Object.keys(r.body)), `${JSON.stringify(source_config)} → ${JSON.stringify(r.body)}`).toContain(field)
    }
    // Settings for a source that has none.
    const r = await api().post(meters()).set(auth(tokens.admin)).set('Accept-Language', 'de').send({ object_id: object1, meter_type: 'main_power', name: 'Bad', source: 'mqtt', source_config: device }).expect(400)
    expect(r.body.source_config[0]).toMatch(/Modbus/)
    expect((await api().get(`${meters()}?limit=1000`).set(auth(tokens.admin)).expect(200)).body.count).toBe(before)
  })

  it('lets neither a resident nor the other installation\'s admin set a device', async () => {
    const m = (await api().post(meters()).set(auth(tokens.admin)).send({ object_id: object1, meter_type: 'heat', name: 'Heat', source: 'modbus', source_config: device }).expect(201)).body
    await api().patch(`${meters()}${m.id}/`).set(auth(tokens.user)).send({ source_config: { ...device, host: 'evil.example' } }).expect(403)
    await api().patch(`${meters()}${m.id}/`).set(auth(tokens.bern)).send({ source_config: { ...device, host: 'evil.example' } }).expect(403)
    await api().patch(`${meters(other.installationId)}${m.id}/`).set(auth(tokens.bern)).send({ source_config: { ...device, host: 'evil.example' } }).expect(404)
    const row = await app.domain!.db.selectFrom('meters').select('source_config').where('id', '=', m.id).executeTakeFirstOrThrow()
    expect(row.source_config).toEqual(device)
  })
})
