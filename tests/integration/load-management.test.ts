import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { parse, stringify } from 'yaml'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

// GET/PUT …/installations/{id}/load_management: who may, what a bad circuit tree answers, what is stored.
let app: FastifyInstance
let tokens: RoleTokens
let other: { installationId: number; stationId: number }
let demo: number
let stations: number[]

beforeAll(async () => {
  const started = await startWithTokens(['api'])
  ;({ app, tokens, other } = started)
  demo = started.demoInstallationId
  stations = (await app.domain!.db.selectFrom('charging_stations').select('id').where('installation_id', '=', demo).orderBy('id').execute()).map((s) => s.id)
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const path = (inst = demo) => `/api/cockpit/installations/${inst}/load_management`
const valid = () => ({
  enabled: true,
  grid_limit_a: 63,
  grid_limit_kw: 40,
  circuits: [
    { id: 'garage', name: 'Garage distribution', parent_id: null, limit_a: 50, station_ids: stations.slice(0, 2) },
    { id: 'row-b', name: 'Row B', parent_id: 'garage', limit_a: 32, station_ids: stations.slice(2, 4) },
  ],
})

describe('load management settings', () => {
  it('shows the defaults and every station to admins and superusers; residents and other installations\' admins get 403', async () => {
    const r = await api().get(path()).set(auth(tokens.admin)).expect(200)
    expect(r.body).toMatchObject({ enabled: false, grid_limit_a: null, grid_limit_kw: null, circuits: [], peak_shaving: { enabled: false, peak_kw: null }, battery_command: null, effective_grid_limit_a: null, updated_at: null })
    expect(r.body.stations.map((s: { id: number }) => s.id)).toEqual(stations)
    // The demo's 11 kW three-phase stations: 6 A to 15.9 A per phase, on no circuit.
    expect(r.body.stations[0]).toMatchObject({ phases: 3, min_current_a: 6, max_current_a: 15.9, circuit_id: null, limit_a: null })
    expect(r.body.stations[0].reason).toMatchObject({ code: expect.any(String), text: expect.any(String), until: null })
    await api().get(path()).set(auth(tokens.super)).expect(200)
    await api().get(path(other.installationId)).set(auth(tokens.bern)).expect(200)
    for (const who of ['user', 'bern'] as const) {
      const refused = await api().get(path()).set(auth(tokens[who])).expect(403)
      expect(refused.body.detail).toBe('You do not have permission to perform this action.')
      await api().put(path()).set(auth(tokens[who])).send(valid()).expect(403)
    }
    await api().get(path()).expect(401)
    await api().get(path(999_999)).set(auth(tokens.super)).expect(404)
    await api().get('/api/cockpit/installations/99999999999/load_management').set(auth(tokens.super)).expect(400)
    // Nothing was stored by the refused writes.
    expect((await api().get(path()).set(auth(tokens.admin)).expect(200)).body.updated_at).toBeNull()
  })

  it('stores the switch, both limits and the circuit tree, answers the limit in force, and records an audit event', async () => {
    const r = await api().put(path()).set(auth(tokens.admin)).send(valid()).expect(200)
    // 40 kW at 3 × 230 V is 57.9 A per phase: tighter than 63 A.
    expect(r.body).toMatchObject({ enabled: true, grid_limit_a: 63, grid_limit_kw: 40, effective_grid_limit_a: 57.9, circuits: valid().circuits })
    expect(r.body.stations.find((s: { id: number }) => s.id === stations[2]).circuit_id).toBe('row-b')
    expect(r.body.stations.find((s: { id: number }) => s.id === stations[5]).circuit_id).toBeNull()
    const again = await api().get(path()).set(auth(tokens.super)).expect(200)
    expect(again.body.circuits).toEqual(valid().circuits)
    const audit = await api().get(`/api/cockpit/installations/${demo}/audit/?entity_type=load_management`).set(auth(tokens.admin)).expect(200)
    expect(audit.body.results[0]).toMatchObject({ action: 'update', entity_type: 'load_management', entity_id: String(demo), after: { enabled: true, grid_limit_a: 63 } })

    // A PUT replaces the whole tree: a station moved, a circuit gone.
    const moved = { ...valid(), circuits: [{ ...valid().circuits[0], station_ids: [stations[5]] }] }
    const r2 = await api().put(path()).set(auth(tokens.admin)).send(moved).expect(200)
    expect(r2.body.circuits).toEqual(moved.circuits)
    expect(r2.body.stations.filter((s: { circuit_id: string | null }) => s.circuit_id !== null).map((s: { id: number }) => s.id)).toEqual([stations[5]])
    // The other installation's settings are its own.
    expect((await api().get(path(other.installationId)).set(auth(tokens.bern)).expect(200)).body.circuits).toEqual([])
  })

  it('refuses a bad tree with 400 naming the field, in the caller\'s language, and stores nothing', async () => {
    const before = (await api().get(path()).set(auth(tokens.admin)).expect(200)).body
    const c = valid().circuits
    const cases: [unknown, string, string][] = [
      [{ ...valid(), circuits: [c[0], { ...c[1], parent_id: 'nowhere' }] }, 'circuits.1.parent_id', 'No circuit with this id'],
      [{ ...valid(), circuits: [{ ...c[0], parent_id: 'row-b' }, c[1]] }, 'circuits.0.parent_id', 'A circuit cannot feed itself'],
      [{ ...valid(), circuits: [{ ...c[0], parent_id: 'garage' }] }, 'circuits.0.parent_id', 'A circuit cannot feed itself'],
      [{ ...valid(), circuits: [c[0], { ...c[1], id: 'garage' }] }, 'circuits.1.id', 'Another circuit already has this id.'],
      [{ ...valid(), circuits: [c[0], { ...c[1], station_ids: [stations[0]] }] }, 'circuits.1.station_ids', `Charging station ${stations[0]} is already on another circuit`],
      [{ ...valid(), circuits: [{ ...c[0], station_ids: [other.stationId] }] }, 'circuits.0.station_ids', `Charging station ${other.stationId} is not a charging station of this installation.`],
      [{ ...valid(), circuits: [{ ...c[0], limit_a: 0 }] }, 'circuits.0.limit_a', 'The value is not valid.'],
      [{ ...valid(), grid_limit_a: -63 }, 'grid_limit_a', 'The value is not valid.'],
      [{ ...valid(), grid_limit_kw: 1e9 }, 'grid_limit_kw', 'The value is not valid.'],
      [{ enabled: true, circuits: [] }, 'grid_limit_a', 'The field is required.'],
      [{ ...valid(), circuits: [{ ...c[0], id: 'bad id!' }] }, 'circuits.0.id', 'The value is not valid.'],
      [{ grid_limit_a: 63 }, 'enabled', 'The field is required.'],
      [{ ...valid(), peak_shaving: { enabled: true } }, 'peak_shaving.peak_kw', 'The field is required.'],
      [{ ...valid(), peak_shaving: { enabled: true, peak_kw: -5 } }, 'peak_shaving.peak_kw', 'The value is not valid.'],
    ]
    for (const [body, field, text] of cases) {
      const r = await api().put(path()).set(auth(tokens.admin)).send(body as object)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body[field]?.[0], JSON.stringify(r.body)).toContain(text)
    }
    const de = await api().put(path()).set(auth(tokens.admin)).set('Accept-Language', 'de').send({ ...valid(), circuits: [c[0], { ...c[1], parent_id: 'nowhere' }] }).expect(400)
    expect(de.body['circuits.1.parent_id'][0]).toContain('Kein Stromkreis mit dieser ID')
    const fr = await api().put(path()).set(auth(tokens.admin)).set('Accept-Language', 'fr').send({ ...valid(), peak_shaving: { enabled: true, peak_kw: null } }).expect(400)
    expect(Object.keys(fr.body)).toEqual(['peak_shaving.peak_kw'])
    expect((await api().get(path()).set(auth(tokens.admin)).expect(200)).body).toEqual(before)
  })

  it('stores peak shaving (on, and its peak in kW) with the settings, in the audit trail; a PUT without it switches it off', async () => {
    const r = await api().put(path()).set(auth(tokens.admin)).send({ ...valid(), peak_shaving: { enabled: true, peak_kw: 30 } }).expect(200)
    expect(r.body).toMatchObject({ peak_shaving: { enabled: true, peak_kw: 30 }, battery_command: null })
    const audit = await api().get(`/api/cockpit/installations/${demo}/audit/?entity_type=load_management`).set(auth(tokens.admin)).expect(200)
    expect(audit.body.results[0].after).toMatchObject({ peak_shaving: { enabled: true, peak_kw: 30 } })
    expect(audit.body.results[0].after).not.toHaveProperty('battery_command')
    // Residents and other installations' admins change nothing.
    for (const who of ['user', 'bern'] as const) await api().put(path()).set(auth(tokens[who])).send({ ...valid(), peak_shaving: { enabled: false, peak_kw: null } }).expect(403)
    expect((await api().get(path()).set(auth(tokens.super)).expect(200)).body.peak_shaving).toEqual({ enabled: true, peak_kw: 30 })
    // Off keeps the peak typed in; left out, it is off (a PUT replaces the settings).
    expect((await api().put(path()).set(auth(tokens.admin)).send({ ...valid(), peak_shaving: { enabled: false, peak_kw: 30 } }).expect(200)).body.peak_shaving).toEqual({ enabled: false, peak_kw: 30 })
    expect((await api().put(path()).set(auth(tokens.admin)).send(valid()).expect(200)).body.peak_shaving).toEqual({ enabled: false, peak_kw: null })
  })

  it('is part of the configuration file: exported with stations by key, imported with the settings\' checks by line and field', async () => {
    await api().put(path()).set(auth(tokens.admin)).send(valid()).expect(200)
    const exported = parse((await api().get(`/api/cockpit/installations/${demo}/configuration?format=yaml`).set(auth(tokens.admin)).expect(200)).text)
    const lm = exported.installations[0].load_management
    expect(lm).toEqual({
      enabled: true, grid_limit_a: 63, grid_limit_kw: 40,
      circuits: [
        { id: 'garage', name: 'Garage distribution', parent: null, limit_a: 50, stations: ['Station 1', 'Station 2'] },
        { id: 'row-b', name: 'Row B', parent: 'garage', limit_a: 32, stations: ['Station 3', 'Station 4'] },
      ],
      peak_shaving: { enabled: false, peak_kw: null },
    })
    const importing = (yaml: string) => api().post('/api/cockpit/configuration/import').set(auth(tokens.admin)).set('Content-Type', 'application/yaml').send(yaml)
    // The same file again changes nothing.
    const same = await importing(stringify(exported)).expect(200)
    expect(same.body.changes).toContainEqual({ installation: 'Demo Residence Zürich', entity: 'load_management', key: 'Demo Residence Zürich', change: 'unchanged' })
    // A cycle is refused with its line and field; a known station by OCPP id moves onto a circuit.
    lm.circuits[0].parent = 'row-b'
    const bad = await importing(stringify(exported)).expect(400)
    // Both circuits of the cycle are named.
    expect(Object.keys(bad.body)).toEqual([0, 1].map((i) => expect.stringMatching(new RegExp(`^line \\d+, installations\\[0\\]\\.load_management\\.circuits\\[${i}\\]\\.parent$`))))
    lm.circuits[0].parent = null
    lm.circuits[1].stations.push('DEMO-CP-1')
    lm.grid_limit_kw = null
    const good = await importing(stringify(exported)).expect(200)
    expect(good.body.changes).toContainEqual({ installation: 'Demo Residence Zürich', entity: 'load_management', key: 'Demo Residence Zürich', change: 'updated', fields: ['grid_limit_kw', 'circuits'] })
    const after = (await api().get(path()).set(auth(tokens.admin)).expect(200)).body
    expect(after).toMatchObject({ grid_limit_kw: null, effective_grid_limit_a: 63 })
    expect(after.circuits[1].station_ids).toEqual([stations[2], stations[3], stations[6]])
    // Peak shaving comes in with the file, and a missing peak is refused at its line.
    lm.peak_shaving = { enabled: true, peak_kw: 25.5 }
    const peak = await importing(stringify(exported)).expect(200)
    expect(peak.body.changes).toContainEqual({ installation: 'Demo Residence Zürich', entity: 'load_management', key: 'Demo Residence Zürich', change: 'updated', fields: ['peak_shaving'] })
    expect((await api().get(path()).set(auth(tokens.admin)).expect(200)).body.peak_shaving).toEqual({ enabled: true, peak_kw: 25.5 })
    const exportedAgain = parse((await api().get(`/api/cockpit/installations/${demo}/configuration?format=yaml`).set(auth(tokens.admin)).expect(200)).text)
    expect(exportedAgain.installations[0].load_management.peak_shaving).toEqual({ enabled: true, peak_kw: 25.5 })
    lm.peak_shaving = { enabled: true, peak_kw: null }
    const noPeak = await importing(stringify(exported)).expect(400)
    expect(Object.keys(noPeak.body)).toEqual([expect.stringMatching(/^line \d+, installations\[0\]\.load_management\.peak_shaving\.peak_kw$/)])
    lm.peak_shaving = { enabled: false, peak_kw: null }
    lm.circuits[1].stations.push('No such station')
    const unknown = await importing(stringify(exported)).expect(404)
    expect(Object.values(unknown.body)[0]).toEqual(['No charging station with this OCPP id or name, neither in the file nor in the installation.'])
  })
})
