import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/connection.ts'
import { seedDemo } from '../../server/db/demo-seed.ts'

// The demo seed goes through the provisioning services (server/db/demo-seed.ts) and keeps the ids the
// demo always had: tests and e2e specs name its installations, stations, meters, users and cards by id.
// The ids below are the ones the seed wrote with direct inserts, before it used the services.
const IDS_BEFORE = {
  installations: {"Demo Residence Zürich": 1, "Demo Office Bern": 2},
  objects: {"Residence Zürich": 1, "Apartment 1": 2, "Apartment 2": 3, "Apartment 3": 4, "Apartment 4": 5, "Apartment 5": 6, "Apartment 6": 7, "Common areas": 8, "Garage": 9, "Office Bern": 10, "Parking": 11},
  meters: {"Main power connection": 34, "PV roof 30 kWp": 2, "Battery 20 kWh": 3, "Cold water apartment 1": 4, "Hot water apartment 1": 5, "Heat apartment 1": 6, "Electricity apartment 1": 7, "Cold water apartment 2": 8, "Hot water apartment 2": 9, "Heat apartment 2": 10, "Electricity apartment 2": 11, "Cold water apartment 3": 12, "Hot water apartment 3": 13, "Heat apartment 3": 14, "Electricity apartment 3": 15, "Cold water apartment 4": 16, "Hot water apartment 4": 17, "Heat apartment 4": 18, "Electricity apartment 4": 19, "Cold water apartment 5": 20, "Hot water apartment 5": 21, "Heat apartment 5": 22, "Electricity apartment 5": 23, "Cold water apartment 6": 24, "Hot water apartment 6": 25, "Heat apartment 6": 26, "Electricity apartment 6": 27, "Charging station 1": 28, "Charging station 2": 29, "Charging station 3": 30, "Charging station 4": 31, "Charging station 5": 32, "Charging station 6": 33, "PV roof 15 kWp": 35, "Charging station Bern 1": 36, "Charging station Bern 2": 37, "Charging station OCPP": 38},
  stations: {"CH-ZH-DEMO-001": 1, "CH-ZH-DEMO-002": 2, "CH-ZH-DEMO-003": 3, "CH-ZH-DEMO-004": 4, "CH-ZH-DEMO-005": 5, "CH-ZH-DEMO-006": 6, "CH-BE-DEMO-001": 7, "CH-BE-DEMO-002": 8, "CH-ZH-DEMO-007": 9},
  users: {"super@example.com": 1, "admin@example.com": 2, "user@example.com": 3, "admin2@example.com": 4},
  rfids: {"04A1B2C3D4E501": 1, "04A1B2C3D4E502": 2, "04A1B2C3D4E503": 3, "04A1B2C3D4E504": 4, "04A1B2C3D4E505": 5, "04A1B2C3D4E506": 6, "04B1E2A3C4D501": 7, "04B1E2A3C4D502": 8},
  timers: {"Night charging": 1, "Daytime on solar": 2},
  tariffs: {"Power tariff": 1, "Office tariff": 2},
  rates: {"Power rate": 1, "Water rate": 2, "Heat rate": 3},
  permissions: {"1": 1, "2": 2},
  charge_points: {"DEMO-CP-1": 9},
}

let database: Awaited<ReturnType<typeof openDatabase>>
beforeAll(async () => {
  database = await openDatabase({ dataDir: '/nonexistent', memory: true })
  await seedDemo(database.db, { passwordHash: 'not-a-real-hash', now: new Date('2026-03-10T08:00:00Z') })
  // Migrating an empty in-memory database and seeding it takes a while on a busy machine.
}, 240_000)
afterAll(async () => database?.close())

describe('the demo seed', () => {
  it('keeps every id the demo had (installations, objects, meters, stations, users, cards, charge point)', async () => {
    const db = database.db
    const ids = async (table: 'installations' | 'objects' | 'meters' | 'charging_stations' | 'users' | 'rfids' | 'timers' | 'tariffs' | 'rates' | 'permissions', key: string) =>
      Object.fromEntries((await db.selectFrom(table).select(['id', key] as never).orderBy('id').execute()).map((r: Record<string, unknown>) => [String(r[key]), r.id]))
    expect({
      installations: await ids('installations', 'name'), objects: await ids('objects', 'description'), meters: await ids('meters', 'name'),
      stations: await ids('charging_stations', 'device_id'), users: await ids('users', 'email'), rfids: await ids('rfids', 'tag'),
      timers: await ids('timers', 'description'), tariffs: await ids('tariffs', 'name'), rates: await ids('rates', 'name'), permissions: await ids('permissions', 'object_id'),
      charge_points: Object.fromEntries((await db.selectFrom('ocpp_charge_points').select(['id', 'station_id']).execute()).map((r) => [r.id, r.station_id])),
    }).toEqual(IDS_BEFORE)
  })

  it('is made by the provisioning services: the audit trail shows the superuser creating it, the charge point takes the demo password', async () => {
    const db = database.db
    const created = await db.selectFrom('audit_events').select(['entity_type', 'actor_user_id']).where('action', '=', 'create').execute()
    const by = (type: string) => created.filter((e) => e.entity_type === type).length
    expect({ installation: by('installation'), object: by('object'), meter: by('meter'), charging_station: by('charging_station'), ocpp_credentials: by('ocpp_credentials') })
      .toEqual({ installation: 2, object: 11, meter: 29, charging_station: 9, ocpp_credentials: 1 })
    expect(new Set(created.map((e) => e.actor_user_id))).toEqual(new Set([IDS_BEFORE.users['super@example.com']]))
    const cp = await db.selectFrom('ocpp_charge_points').select('password_hash').where('id', '=', 'DEMO-CP-1').executeTakeFirstOrThrow()
    expect(cp.password_hash).toBe('not-a-real-hash')
    const station = await db.selectFrom('charging_stations').select(['status', 'charging_mode', 'alerts']).where('device_id', '=', 'CH-ZH-DEMO-006').executeTakeFirstOrThrow()
    expect(station).toEqual({ status: 'off', charging_mode: 'locked', alerts: [] })
    const inst = await db.selectFrom('installations').select(['online', 'pay_enabled', 'operator']).where('id', '=', 1).executeTakeFirstOrThrow()
    expect(inst).toMatchObject({ online: true, pay_enabled: true, operator: { name: 'Demo Energie Zürich AG' } })
  })

  it('does nothing a second time', async () => {
    expect(await seedDemo(database.db, { passwordHash: 'x', now: new Date('2026-03-10T08:00:00Z') })).toBeNull()
  })
})
