import { sql } from 'kysely'
import type { Db } from './connection.ts'
import type { Actor } from '../domain/auth/service.ts'
import { createClock } from '../lib/clock.ts'
import { createOcppCredentials } from '../domain/ocpp/credentials.ts'
import { provisioningOn } from '../domain/configuration/apply.ts'
import type { MeterCreate } from '../../shared/schemas/meters.ts'
import type { Operator } from '../../shared/schemas/installation.ts'
import type { ObjectCreate } from '../../shared/schemas/objects.ts'
import type { ScheduleEntry } from '../../shared/rules/tariff.ts'
import type { DemoSignIn } from '../../shared/schemas/setup.ts'
import { DEFAULT_DEMO_PASSWORD } from '../../config/env.ts'

/** Advisory lock key of the demo seed (any fixed bigint, unique within this program). */
const DEMO_SEED_LOCK = 0x636f636b /* "cock" */

/** Demo accounts (README): e-mail and role; all share DEMO_PASSWORD. */
export const DEMO_USERS = [
  { email: 'super@example.com', first_name: 'Sophie', last_name: 'Keller', title: 'Ms', is_superuser: true, role: null },
  { email: 'admin@example.com', first_name: 'Andreas', last_name: 'Meier', title: 'Mr', is_superuser: false, role: 'installation_admin' },
  { email: 'user@example.com', first_name: 'Laura', last_name: 'Brunner', title: 'Ms', is_superuser: false, role: 'installation_user' },
] as const

/**
 * The demo's charging operator: a plausible Zürich company with a QR-IBAN (the IID 30000
 * range marks a QR-IBAN; checksum valid), a UID-format VAT number and the Swiss standard VAT rate.
 */
export const DEMO_OPERATOR = {
  name: 'Demo Energie Zürich AG', street: 'Seestrasse', building_number: '44', zip: '8002', city: 'Zürich', country: 'CH',
  iban: 'CH4431999123000889012', vat_number: 'CHE-123.456.789 MWST', vat_rate: 8.1,
} as const

/**
 * The second demo installation, so tenancy can be seen in the demo: its own admin, who has
 * no say in the first installation and vice versa. Shares DEMO_PASSWORD.
 */
export const DEMO_SECOND = {
  name: 'Demo Office Bern',
  admin: { email: 'admin2@example.com', first_name: 'Beat', last_name: 'Zurbriggen', title: 'Mr' },
} as const

/**
 * How to sign in to the demo, for the login page (GET /api/setup `demo`): the accounts of
 * {@link DEMO_USERS} and {@link DEMO_SECOND} with their role and installation, and `password` when it is
 * the documented default (a DEMO_PASSWORD the operator chose is not shown: null).
 */
export function demoSignIn(password: string): DemoSignIn {
  const residence = DEMO_NAME
  return {
    accounts: [
      ...DEMO_USERS.map((u) => ({ email: u.email, role: u.is_superuser ? 'superuser' as const : u.role, installation: u.is_superuser ? null : residence })),
      { email: DEMO_SECOND.admin.email, role: 'installation_admin' as const, installation: DEMO_SECOND.name },
    ],
    password: password === DEFAULT_DEMO_PASSWORD ? password : null,
  }
}

/** The demo's first installation. */
const DEMO_NAME = 'Demo Residence Zürich'

const MODES = ['instant', 'optimized', 'solar', 'timer', 'rfid', 'locked'] as const

const HIGH_TARIFF: ScheduleEntry[] = [
  { start: '07:00', end: '20:00', monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0 },
  { start: '07:00', end: '13:00', monday: 0, tuesday: 0, wednesday: 0, thursday: 0, friday: 0, saturday: 1, sunday: 0 },
]

/**
 * Seed the demo facility into an empty database: "Demo Residence Zürich" with a building of
 * 6 apartments and common areas (with the garage), main meter, 30 kWp PV, 20 kWh battery, 6 stations of
 * 11 kW (station 6 locked = disabled), water, heat and electricity meters per apartment, a power tariff (high 07–20
 * Mon–Fri, 07–13 Sat), rates that started last year, three demo users and an RFID per resident.
 * Then, with ids after all of the first one's, "Demo Office Bern" (see {@link DEMO_SECOND}): a small
 * office with main meter, 15 kWp PV, two 22 kW stations, two cards and its admin admin2@example.com; the
 * simulator runs it like the first (its sessions come from the backfill). Last, a 7th station of the first
 * installation, "Garage OCPP", waiting for OCPP charge point DEMO-CP-1. The demo accounts have
 * accepted the legal texts current at seed time. Installations, objects, meters and stations are made
 * by the provisioning services, as the superuser (see demoProvisioning; docs/decisions.md "Provisioning:
 * the demo seed, …"), so they pass the API's checks and appear in the audit trail.
 * `now` is the process clock's instant (ARCHITECTURE §1 "Time"): the rates' and tariffs' start (last
 * year), the card's expiry, the acceptances and every row's creation time are counted from it, not from
 * the database's clock. Does nothing when an installation exists; safe when processes start at once (an advisory lock). Returns the first installation's id, or null when it did nothing.
 */
export async function seedDemo(db: Db, { passwordHash, now }: { passwordHash: string; now: Date }): Promise<number | null> {
  const lastYear = `${now.getUTCFullYear() - 1}-01-01`
  return db.transaction().execute(async (tx) => {
    // Several processes starting at once on one empty Postgres seed one demo. The check and
    // the inserts run under a transaction-scoped advisory lock, so the second process waits, then sees
    // the first one's installation.
    await sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK})`.execute(tx)
    if (await tx.selectFrom('installations').select('id').limit(1).executeTakeFirst()) return null
    // The accounts first: the superuser is who provisions the facility (the audit trail names them). Each
    // table counts its own ids, so the order across tables leaves every id as it was.
    const userIds: Record<string, number> = {}
    for (const u of DEMO_USERS) userIds[u.email] = await insertUser(tx, u, { passwordHash, now })
    const demo = demoProvisioning(tx, { actor: { id: userIds['super@example.com'], is_superuser: true }, passwordHash, now })
    const { svc, actor } = demo
    const installation_id = await demo.installation({ name: DEMO_NAME, latitude: 47.3769, longitude: 8.5417, operator: DEMO_OPERATOR, pay_enabled: true })
    const obj = async (description: string, object_type: ObjectCreate['object_type'], parent: number | null) =>
      (await svc.objects.add(actor, installation_id, { description, object_type, parent_object_id: parent })).id
    const building = await obj('Residence Zürich', 'building', null)
    const apartments: number[] = []
    for (let i = 1; i <= 6; i++) apartments.push(await obj(`Apartment ${i}`, 'apartment', building))
    const common = await obj('Common areas', 'common_area', building)
    const garage = await obj('Garage', 'garage', common)

    const meter = (meter_type: MeterCreate['meter_type'], name: string, object_id: number, capacity?: number) =>
      svc.meters.create(actor, installation_id, { object_id, meter_type, name, capacity, source: 'simulator' })
    await meter('main_power', 'Main power connection', building)
    await meter('pv', 'PV roof 30 kWp', building, 30)
    await meter('battery', 'Battery 20 kWh', building, 20)
    for (const [i, a] of apartments.entries()) {
      await meter('cold_water', `Cold water apartment ${i + 1}`, a)
      await meter('hot_water', `Hot water apartment ${i + 1}`, a)
      await meter('heat', `Heat apartment ${i + 1}`, a)
      // Each flat's electricity meter, so the ZEV bills every participant on its own consumption.
      await meter('power', `Electricity apartment ${i + 1}`, a)
    }

    const stations: number[] = []
    for (let i = 1; i <= 6; i++) {
      stations.push(await demo.station(installation_id, {
        name: `Station ${i}`, meterName: `Charging station ${i}`, object_id: garage, description: `Garage, parking space ${i}`, capacity_kw: 11,
        device_id: `CH-ZH-DEMO-${String(i).padStart(3, '0')}`, mode: MODES[i - 1],
      }))
    }
    // The timer station charges at night from 22:00 and on solar from 06:30.
    const everyDay = { repeat_monday: true, repeat_tuesday: true, repeat_wednesday: true, repeat_thursday: true, repeat_friday: true, repeat_saturday: true, repeat_sunday: true }
    await tx.insertInto('timers').values([
      { installation_id, object_type: 'charging_station', object_id: stations[3], ...everyDay, start_time: '22:00', description: 'Night charging', charging_mode: 'instant' },
      { installation_id, object_type: 'charging_station', object_id: stations[3], ...everyDay, start_time: '06:30', description: 'Daytime on solar', charging_mode: 'solar' },
    ]).execute()

    await tx.insertInto('tariffs').values({
      installation_id, name: 'Power tariff', basic_rappen: 500, high_rappen_per_kwh: 29.5, low_rappen_per_kwh: 21.0,
      flat_rappen_per_kwh: null, flat: false, valid_from: lastYear, valid_to: null, schedule: JSON.stringify(HIGH_TARIFF),
    }).execute()
    await tx.insertInto('rates').values([
      { installation_id, kind: 'power', name: 'Power rate', start_date: lastYear, end_date: null,
        prices: JSON.stringify({ general: 27.0, peak: 29.5, low: 21.0, flat: 25.5, main_power_purchase: 24.0, solar_recovery_compensation: 12.0, electric_car: 26.0 }) },
      { installation_id, kind: 'water', name: 'Water rate', start_date: lastYear, end_date: null, prices: JSON.stringify({ fresh_water: 210, warm_water_production: 850 }) },
      { installation_id, kind: 'heat', name: 'Heat rate', start_date: lastYear, end_date: null, prices: JSON.stringify({ heat: 12.5 }) },
    ]).execute()

    for (const u of DEMO_USERS) {
      if (u.role) await tx.insertInto('installation_users').values({ user_id: userIds[u.email], installation_id, role: u.role }).execute()
    }
    // One RFID per resident; the card of parking space 1 belongs to user@example.com.
    const cars = ['Tesla Model 3', 'VW ID.4', 'Renault Zoe', 'Skoda Enyaq', 'BMW i3', 'Hyundai Kona']
    for (let i = 0; i < 6; i++) {
      await tx.insertInto('rfids').values({
        installation_id, user_id: i === 0 ? userIds['user@example.com'] : null, tag: `04A1B2C3D4E5${String(i + 1).padStart(2, '0')}`,
        description: `Apartment ${i + 1} – ${cars[i]}`, active: true, all_stations: true, created_at: now,
      }).execute()
    }
    await tx.insertInto('permissions').values([
      { user_id: userIds['user@example.com'], installation_id, object_type: 'charging_station', object_id: stations[0], level: 'read', cost: false, overview: false },
      { user_id: userIds['user@example.com'], installation_id, object_type: 'charging_station', object_id: stations[1], level: 'read', cost: false, overview: false },
    ]).execute()
    // The resident has a stored demo card (DEMO payment provider), so ordering a card and the charge job work.
    await tx.insertInto('payment_methods').values({
      user_id: userIds['user@example.com'], kind: 'credit_card', brand: 'Mastercard', masked: '•••• •••• •••• 4444', exp_month: 12,
      exp_year: now.getUTCFullYear() + 3, alias: '', favourite: true, provider: 'demo', token: 'demo_ok_seeded', created_at: now,
    }).execute()
    await seedSecond(tx, demo, { passwordHash, lastYear, now })
    await seedOcppStation(demo, { installation_id, garage })
    await acceptCurrentLegalTexts(tx, [...DEMO_USERS.map((u) => u.email), DEMO_SECOND.admin.email], now)
    return installation_id
  })
}

type DemoUser = { email: string; first_name: string; last_name: string; title: string; is_superuser: boolean }

/** A demo account (DEMO_PASSWORD, English, active); its id. */
async function insertUser(tx: Db, u: DemoUser, { passwordHash, now }: { passwordHash: string; now: Date }): Promise<number> {
  const row = await tx.insertInto('users')
    .values({ email: u.email, password_hash: passwordHash, first_name: u.first_name, last_name: u.last_name, title: u.title,
      is_superuser: u.is_superuser, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'en', last_login: null, previous_login: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * The provisioning services (server/domain/configuration/apply.ts provisioningOn) in the seed's
 * transaction, acting as the demo superuser on a clock that starts at the seed's `now`: the same checks
 * and audit events as the API and a configuration import, so every demo start proves them. Around them,
 * what only a demo has: its live state (online, pay_enabled), its stations' fixed device ids, modes and
 * meter names, and its OCPP charge point's password (DEMO_PASSWORD, whose hash the seed already has).
 */
function demoProvisioning(tx: Db, { actor, passwordHash, now }: { actor: Actor; passwordHash: string; now: Date }) {
  const clock = createClock({ start: now })
  const credentials = createOcppCredentials({ db: tx, clock })
  const ocpp = { ...credentials, newCredentials: async () => ({ password: '', password_hash: passwordHash }) }
  // The URL of a charge point is only shown to whoever creates one through the API; the seed shows none.
  const svc = provisioningOn(tx, { clock, ocpp, publicUrl: '' })
  return {
    svc,
    actor,
    /** An installation in Zürich's time zone, online, without an address (the demo's never had one); its id. */
    async installation(i: { name: string; latitude: number; longitude: number; operator?: Operator; pay_enabled: boolean }): Promise<number> {
      const address = { street: '', building_number: '', zip: '', city: '', country: 'CH' as const }
      const made = await svc.installation.create(actor, { name: i.name, timezone: 'Europe/Zurich', currency: 'CHF', latitude: i.latitude, longitude: i.longitude, address, operator: i.operator ?? null })
      // A demo facility is reporting from the start (the simulator runs it); the first one takes payments.
      await tx.updateTable('installations').set({ online: true, offline_since: null, pay_enabled: i.pay_enabled, created_at: now }).where('id', '=', made.id).execute()
      return made.id
    },
    /** A station with its meter (created by the service), then the demo's device id, mode and meter name; its id. */
    async station(installationId: number, s: { name: string; meterName: string; object_id: number; description: string; capacity_kw: number; device_id: string; mode: (typeof MODES)[number]; ocpp_charge_point_id?: string }): Promise<number> {
      const made = await svc.stations.add(actor, installationId, { name: s.name, object_id: s.object_id, capacity_kw: s.capacity_kw, phases: 3, description: s.description, ocpp_charge_point_id: s.ocpp_charge_point_id })
      const row = await tx.updateTable('charging_stations')
        .set({ device_id: s.device_id, charging_mode: s.mode, ...(s.ocpp_charge_point_id ? {} : { status: s.mode === 'locked' ? 'off' : 'noCar' }), updated_at: now })
        .where('id', '=', made.id).returning('meter_id').executeTakeFirstOrThrow()
      await tx.updateTable('meters').set({ name: s.meterName }).where('id', '=', row.meter_id).execute()
      return made.id
    },
  }
}
type DemoProvisioning = ReturnType<typeof demoProvisioning>

/**
 * The demo's accounts accepted the legal texts current at seed time (migration 0125: the newest version
 * of each document), as a person registering does; otherwise every demo screen opened on the "accept the
 * new terms" reminder. A version published later asks them again like everyone.
 */
async function acceptCurrentLegalTexts(tx: Db, emails: string[], now: Date): Promise<void> {
  const current = await tx.selectFrom('legal_versions').select(['document', 'version'])
    .distinctOn('document').orderBy('document').orderBy('published_at', 'desc').orderBy('id', 'desc').execute()
  const users = await tx.selectFrom('users').select('id').where('email', 'in', emails).execute()
  const rows = users.flatMap((u) => current.map((d) => ({ user_id: u.id, document: d.document, version: d.version, accepted_at: now })))
  if (rows.length) await tx.insertInto('legal_acceptances').values(rows).execute()
}

/** The second installation ({@link DEMO_SECOND}); inserted after the first, whose ids stay as they were. */
async function seedSecond(tx: Db, demo: DemoProvisioning, { passwordHash, lastYear, now }: { passwordHash: string; lastYear: string; now: Date }): Promise<void> {
  const { svc, actor } = demo
  const installation_id = await demo.installation({ name: DEMO_SECOND.name, latitude: 46.9481, longitude: 7.4474, pay_enabled: false })
  const obj = async (description: string, object_type: ObjectCreate['object_type'], parent: number | null) =>
    (await svc.objects.add(actor, installation_id, { description, object_type, parent_object_id: parent })).id
  const office = await obj('Office Bern', 'building', null)
  const parking = await obj('Parking', 'garage', office)
  await svc.meters.create(actor, installation_id, { object_id: office, meter_type: 'main_power', name: 'Main power connection', source: 'simulator' })
  await svc.meters.create(actor, installation_id, { object_id: office, meter_type: 'pv', name: 'PV roof 15 kWp', capacity: 15, source: 'simulator' })
  for (const [i, mode] of (['instant', 'solar'] as const).entries()) {
    await demo.station(installation_id, {
      name: `Office ${i + 1}`, meterName: `Charging station Bern ${i + 1}`, object_id: parking, description: `Visitor parking ${i + 1}`, capacity_kw: 22,
      device_id: `CH-BE-DEMO-${String(i + 1).padStart(3, '0')}`, mode,
    })
  }
  await tx.insertInto('tariffs').values({
    installation_id, name: 'Office tariff', basic_rappen: 0, high_rappen_per_kwh: 31.0, low_rappen_per_kwh: 22.0,
    flat_rappen_per_kwh: null, flat: false, valid_from: lastYear, valid_to: null, schedule: JSON.stringify(HIGH_TARIFF),
  }).execute()
  const adminId = await insertUser(tx, { ...DEMO_SECOND.admin, is_superuser: false }, { passwordHash, now })
  await tx.insertInto('installation_users').values({ user_id: adminId, installation_id, role: 'installation_admin' }).execute()
  await tx.insertInto('rfids').values([
    { installation_id, user_id: adminId, tag: '04B1E2A3C4D501', description: 'Pool car – Renault Megane E-Tech', active: true, all_stations: true, created_at: now },
    { installation_id, user_id: null, tag: '04B1E2A3C4D502', description: 'Visitor card', active: true, all_stations: true, created_at: now },
  ]).execute()
}

/** The demo's OCPP charge point: anyone can connect a charger or a simulator as it. */
export const DEMO_CHARGE_POINT = { id: 'DEMO-CP-1', station: 'Garage OCPP' } as const

/**
 * The 7th station of the first installation, "Garage OCPP" (RFID mode), bound to charge point
 * {@link DEMO_CHARGE_POINT} with DEMO_PASSWORD, waiting offline until it connects (the provisioning
 * service binds it). Made after the second installation, so the ids the other demo rows had stay as they were.
 */
async function seedOcppStation(demo: DemoProvisioning, { installation_id, garage }: { installation_id: number; garage: number }): Promise<void> {
  await demo.station(installation_id, {
    name: DEMO_CHARGE_POINT.station, meterName: 'Charging station OCPP', object_id: garage, description: 'Garage, parking space 7 (OCPP charge point)',
    capacity_kw: 11, device_id: 'CH-ZH-DEMO-007', mode: 'rfid', ocpp_charge_point_id: DEMO_CHARGE_POINT.id,
  })
}
