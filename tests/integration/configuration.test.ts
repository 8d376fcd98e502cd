import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { parse, stringify } from 'yaml'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { createDomain } from '../../server/domain/index.ts'

// Configuration as code (docs/configuration-files.md): export, import, dry run, errors by line and field.
let app: FastifyInstance
let tokens: RoleTokens
const api = () => request(app.server)
const importing = (token: string, yaml: string, dryRun = false) =>
  api().post(`/api/cockpit/configuration/import?dry_run=${dryRun}`).set(auth(token)).set('Content-Type', 'application/yaml').send(yaml)
const count = async (table: 'installations' | 'meters' | 'charging_stations' | 'objects' | 'users' | 'audit_events' | 'tariffs') =>
  Number((await app.domain!.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
const counts = async () => Promise.all((['installations', 'meters', 'charging_stations', 'objects', 'users', 'audit_events', 'tariffs'] as const).map(count))
let demoYaml: string

beforeAll(async () => {
  ;({ app, tokens } = await startWithTokens(['api']))
  demoYaml = (await api().get('/api/cockpit/installations/1/configuration?format=yaml').set(auth(tokens.admin)).expect(200)).text
})
afterAll(async () => app?.close())

/** A small new installation, as an operator writes it. */
const small = (name: string, extra = '') => `cockpit_configuration: 1
installations:
  - name: ${name}
    timezone: Europe/Zurich
    address: { street: Aarstrasse, building_number: "3", zip: "3005", city: Bern, country: CH }
    objects:
      - path: House
        type: building
      - path: House / Flat 1
        type: apartment
    meters:
      - name: Main
        type: main_power
        object: House
        serial: SN-1
      - name: Water flat 1
        type: cold_water
        object: House / Flat 1
${extra}`

describe('export', () => {
  it('writes the demo installation as YAML (Accept or ?format) and JSON otherwise, without any secret', async () => {
    const file = parse(demoYaml)
    expect(file.cockpit_configuration).toBe(1)
    const [inst] = file.installations
    expect(inst).toMatchObject({ name: 'Demo Residence Zürich', timezone: 'Europe/Zurich', currency: 'CHF' })
    expect(inst.objects).toContainEqual({ path: 'Residence Zürich / Common areas / Garage', type: 'garage' })
    expect(inst.meters).toContainEqual(expect.objectContaining({ name: 'PV roof 30 kWp', type: 'pv', object: 'Residence Zürich', capacity: 30 }))
    expect(inst.stations).toHaveLength(7)
    expect(inst.stations).toContainEqual(expect.objectContaining({ name: 'Garage OCPP', ocpp_charge_point_id: 'DEMO-CP-1' }))
    expect(inst.users.map((u: { email: string }) => u.email)).toEqual(['admin@example.com', 'user@example.com'])
    expect(inst.users[1].permissions).toContainEqual({ station: 'Station 1', level: 'read', cost: false, overview: false })
    // No password, hash, token, card or payment data.
    expect(demoYaml).not.toMatch(/password|\$argon2|token|demo_ok|04A1B2C3D4E5|iban_secret/i)
    const byAccept = await api().get('/api/cockpit/installations/1/configuration').set(auth(tokens.admin)).set('Accept', 'application/yaml').expect(200)
    expect(byAccept.headers['content-type']).toMatch(/application\/yaml/)
    expect(byAccept.text).toBe(demoYaml)
    const json = await api().get('/api/cockpit/installations/1/configuration').set(auth(tokens.admin)).expect(200)
    expect(json.body).toEqual(file)
  })

  it('is for admins of the installation and superusers: a resident 403, another installation’s admin 403, an unknown id 404', async () => {
    await api().get('/api/cockpit/installations/1/configuration').set(auth(tokens.user)).expect(403)
    await api().get('/api/cockpit/installations/1/configuration').set(auth(tokens.bern)).expect(403)
    await api().get('/api/cockpit/installations/1/configuration').set(auth(tokens.super)).expect(200)
    await api().get('/api/cockpit/installations/999999/configuration').set(auth(tokens.super)).expect(404)
  })
})

describe('import', () => {
  it('the demo imported into an empty database exports the same file', async () => {
    const database = await openDatabase({ dataDir: '/nonexistent', memory: true })
    try {
      const domain = createDomain({ db: database.db, clock: app.domain!.clock, jwtSecret: new Uint8Array(32) })
      const operator = { id: 0, is_superuser: true }
      const result = await domain.configuration.import(operator, demoYaml, { dryRun: false })
      expect(result.summary).toMatchObject({ updated: 0, unchanged: 0 })
      expect(result.installations).toEqual([{ name: 'Demo Residence Zürich', id: expect.any(Number) }])
      // The charge point gets a new password, shown once in the answer.
      expect(result.ocpp_credentials).toEqual([expect.objectContaining({ station: 'Garage OCPP', charge_point_id: 'DEMO-CP-1', password: expect.any(String) })])
      const again = domain.configuration.toYaml(await domain.configuration.export(operator, result.installations[0].id!))
      expect(again).toBe(demoYaml)
      // Importing it once more changes nothing.
      const twice = await domain.configuration.import(operator, demoYaml, { dryRun: false })
      expect(twice.summary).toMatchObject({ created: 0, updated: 0 })
      // Users from a file have no usable password: they set one through the welcome or reset link.
      const user = await database.db.selectFrom('users').select(['password_hash', 'is_active']).where('email', '=', 'user@example.com').executeTakeFirstOrThrow()
      expect(user.is_active).toBe(true)
      const audit = await database.db.selectFrom('audit_events').select(['entity_type', 'actor_user_id']).execute()
      expect(new Set(audit.map((a) => a.entity_type))).toEqual(new Set(['installation', 'object', 'meter', 'charging_station', 'ocpp_credentials', 'tariff', 'rate', 'user', 'installation_user', 'permission']))
      expect(audit.every((a) => a.actor_user_id === null)).toBe(true)
    } finally {
      await database.close()
    }
  }, 120_000)

  it('a dry run shows what would change and changes nothing; applying then does exactly that, audited', async () => {
    const file = parse(demoYaml)
    file.installations[0].meters.find((m: { name: string }) => m.name === 'PV roof 30 kWp').capacity = 32
    file.installations[0].meters.push({ name: 'Heat pump', type: 'power', object: 'Residence Zürich', serial: 'HP-1' })
    const before = await counts()
    const dry = await importing(tokens.admin, stringify(file), true).expect(200)
    expect(dry.body).toMatchObject({ dry_run: true, installations: [{ name: 'Demo Residence Zürich', id: 1 }], ocpp_credentials: [] })
    expect(dry.body.changes).toContainEqual({ installation: 'Demo Residence Zürich', entity: 'meter', key: 'PV roof 30 kWp', change: 'updated', fields: ['capacity'] })
    expect(dry.body.changes).toContainEqual({ installation: 'Demo Residence Zürich', entity: 'meter', key: 'serial HP-1', change: 'created' })
    expect(dry.body.summary).toMatchObject({ created: 1, updated: 1 })
    expect(await counts()).toEqual(before)
    const pv = () => app.domain!.db.selectFrom('meters').select('capacity').where('installation_id', '=', 1).where('name', '=', 'PV roof 30 kWp').executeTakeFirstOrThrow()
    expect((await pv()).capacity).toBe(30)
    const applied = await importing(tokens.admin, stringify(file)).expect(200)
    expect(applied.body.summary).toEqual(dry.body.summary)
    expect((await pv()).capacity).toBe(32)
    const audit = (await api().get('/api/cockpit/installations/1/audit/?entity_type=meter').set(auth(tokens.admin)).expect(200)).body
    expect(audit.results.slice(0, 2).map((e: { action: string; actor_email: string }) => [e.action, e.actor_email])).toEqual([['create', 'admin@example.com'], ['update', 'admin@example.com']])
  })

  it('a superuser creates new installations from one file; the answer lists each entity', async () => {
    const before = await count('installations')
    const yaml = small('Wohnpark Aare') + small('Wohnpark Emme').split('installations:\n')[1]
    const r = await importing(tokens.super, yaml).expect(200)
    expect(r.body.installations.map((i: { name: string }) => i.name)).toEqual(['Wohnpark Aare', 'Wohnpark Emme'])
    expect(r.body.summary).toEqual({ created: 10, updated: 0, unchanged: 0 })
    expect(await count('installations')).toBe(before + 2)
    const id = r.body.installations[0].id
    const meters = (await api().get(`/api/cockpit/installations/${id}/meters/`).set(auth(tokens.super)).expect(200)).body
    expect(meters.results.map((m: { name: string; unit: string }) => [m.name, m.unit])).toEqual([['Main', 'kWh'], ['Water flat 1', 'm3']])
    // Each new meter has its own audit event, by the importing superuser, with the meter as made.
    const audit = (await api().get(`/api/cockpit/installations/${id}/audit/?entity_type=meter`).set(auth(tokens.super)).expect(200)).body
    expect(audit.results.map((e: { action: string; actor_email: string; entity_id: string; after: { name: string } }) => [e.action, e.actor_email, Number(e.entity_id), e.after.name]).reverse())
      .toEqual(meters.results.map((m: { id: number; name: string }) => ['create', 'super@example.com', m.id, m.name]))
  })

  it('a Modbus meter\'s device settings (source_config) and its maximum power go out in the export and come back in an import', async () => {
    const modbus = `      - name: PV inverter
        type: pv
        object: House
        serial: INV-7
        source: modbus
        source_config: { host: 192.168.1.20, port: 1502, unit_id: 3, model: sunspec, interval_s: 10 }
        max_power_kw: 12.5
`
    const made = await importing(tokens.super, small('Wohnpark Modbus', modbus)).expect(200)
    const id = made.body.installations[0].id
    const exported = parse((await api().get(`/api/cockpit/installations/${id}/configuration?format=yaml`).set(auth(tokens.super)).expect(200)).text)
    const meters = exported.installations[0].meters as Record<string, unknown>[]
    expect(meters.find((m) => m.name === 'PV inverter')).toMatchObject({ source: 'modbus', source_config: { host: '192.168.1.20', port: 1502, unit_id: 3, model: 'sunspec', interval_s: 10 }, max_power_kw: 12.5 })
    // Meters without them keep the file short: no empty settings.
    expect(meters.find((m) => m.name === 'Main')).not.toHaveProperty('source_config')
    expect(meters.find((m) => m.name === 'Main')).not.toHaveProperty('max_power_kw')
    // The exported file imports as no change; a changed interval is an update of source_config alone.
    expect((await importing(tokens.super, stringify(exported)).expect(200)).body.summary).toMatchObject({ created: 0, updated: 0 })
    meters.find((m) => m.name === 'PV inverter')!.source_config = { host: '192.168.1.20', port: 1502, unit_id: 3, model: 'sunspec', interval_s: 30 }
    const changed = await importing(tokens.super, stringify(exported)).expect(200)
    expect(changed.body.changes).toContainEqual({ installation: 'Wohnpark Modbus', entity: 'meter', key: 'serial INV-7', change: 'updated', fields: ['source_config'] })
    const row = await app.domain!.db.selectFrom('meters').select(['source_config', 'max_power_kw']).where('installation_id', '=', id).where('serial', '=', 'INV-7').executeTakeFirstOrThrow()
    expect(row).toEqual({ source_config: { host: '192.168.1.20', port: 1502, unit_id: 3, model: 'sunspec', interval_s: 30 }, max_power_kw: 12.5 })
    // Settings for a meter that is not read over Modbus are refused, naming the line and field.
    const wrong = await importing(tokens.super, small('Wohnpark Modbus', modbus.replace('source: modbus', 'source: ingest'))).expect(400)
    expect(JSON.stringify(wrong.body)).toMatch(/source_config/)
  })

  it('among new meters made together, the first refused one is named: a wrong unit before an unknown object', async () => {
    const before = await counts()
    const both = small('Wohnpark Linth', '      - name: Hot water flat 1\n        type: hot_water\n        object: House / Flat 1\n        unit: kWh\n      - name: Unknown place\n        type: pv\n        object: Garden\n')
    expect((await importing(tokens.super, both).expect(400)).body).toEqual({ 'line 22, installations[0].meters[2].unit': [expect.stringMatching(/m3/)] })
    // The unknown object alone, after two good new meters: 404 naming it.
    const unknown = small('Wohnpark Linth', '      - name: Unknown place\n        type: pv\n        object: Garden\n')
    expect(Object.keys((await importing(tokens.super, unknown).expect(404)).body)).toEqual(['line 21, installations[0].meters[2].object'])
    expect(await counts()).toEqual(before)
  })

  it('a date that does not exist (30 February, month 13, year 0) is refused by its line, not stored or a 500', async () => {
    const before = await counts()
    for (const [day, message] of [['2026-02-30', 'Enter a date that exists, as YYYY-MM-DD.'], ['2026-13-01', 'Enter a date that exists, as YYYY-MM-DD.'], ['0000-01-01', 'The value is not valid.']]) {
      const file = small('Wohnpark Birs', `    tariffs:\n      - name: Winter\n        valid_from: "${day}"\n        basic_rappen: 500\n        high_rappen_per_kwh: 30\n        low_rappen_per_kwh: 20\n`)
      const r = await importing(tokens.super, file).expect(400)
      expect(r.body).toEqual({ 'line 21, installations[0].tariffs[0].valid_from': [message] })
    }
    expect(await counts()).toEqual(before)
  })

  it('a broken file names the line and field and leaves the database unchanged', async () => {
    const before = await counts()
    // A wrong unit for a water meter (schema-valid, refused by the meter service) on line 19.
    const wrongUnit = small('Wohnpark Birs', '        unit: kWh\n')
    const r1 = await importing(tokens.super, wrongUnit).expect(400)
    expect(r1.body).toEqual({ 'line 19, installations[0].meters[1].unit': [expect.stringMatching(/m3/)] })
    // A typo in a key, a missing field and malformed YAML, each by its line.
    const r2 = await importing(tokens.super, small('Wohnpark Birs').replace('        serial: SN-1', '        seriall: SN-1').replace('        type: cold_water\n', '')).expect(400)
    expect(Object.keys(r2.body).sort()).toEqual(['line 15, installations[0].meters[0].seriall', 'line 16, installations[0].meters[1].type'])
    const r3 = await importing(tokens.super, 'cockpit_configuration: 1\ninstallations:\n  - name: [unclosed\n').expect(400)
    expect(Object.keys(r3.body)[0]).toMatch(/^line \d+, yaml$/)
    // An alias bomb is refused as malformed, not expanded.
    const bomb = ['cockpit_configuration: 1', 'a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n')
    expect(Object.keys((await importing(tokens.super, bomb).expect(400)).body)).toEqual(['line 1, yaml'])
    // An OCPP id another installation has: 409 naming it, and the installation made before it in the same transaction is gone.
    const taken = small('Wohnpark Birs', '    stations:\n      - name: Wallbox\n        object: House\n        capacity_kw: 11\n        ocpp_charge_point_id: DEMO-CP-1\n')
    const r4 = await importing(tokens.super, taken).expect(409)
    expect(r4.body).toEqual({ 'line 23, installations[0].stations[0].ocpp_charge_point_id': [expect.any(String)] })
    // A meter on an object the file and the installation lack.
    const r5 = await importing(tokens.super, small('Wohnpark Birs').replace('object: House / Flat 1', 'object: House / Flat 9')).expect(404)
    expect(Object.keys(r5.body)).toEqual(['line 18, installations[0].meters[1].object'])
    expect(await counts()).toEqual(before)
  })

  it('an admin imports only into installations they administer: another installation or a new one is 403, nothing changes', async () => {
    const before = await counts()
    const bern = (await api().get('/api/cockpit/installations/1/configuration').set(auth(tokens.admin)).expect(200)).body
    bern.installations[0].name = 'Other Site Bern'
    await importing(tokens.admin, stringify(bern)).expect(403)
    await importing(tokens.admin, stringify(bern), true).expect(403)
    await importing(tokens.admin, small('Admin’s own new site')).expect(403)
    await importing(tokens.user, demoYaml, true).expect(403)
    await api().post('/api/cockpit/configuration/import').set('Content-Type', 'application/yaml').send(demoYaml).expect(401)
    expect(await counts()).toEqual(before)
  })
})
