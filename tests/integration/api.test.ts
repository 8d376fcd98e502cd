import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, auth, login, seededSecond, startApp } from './helpers.ts'
import { demoSignIn } from '../../server/db/demo-seed.ts'

let app: FastifyInstance
let other: Awaited<ReturnType<typeof addOtherInstallation>>
let tokens: Record<'super' | 'admin' | 'user' | 'bern', string>

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api', 'simulator'] }))
  other = await addOtherInstallation(app)
  // Two simulator steps so live values and sessions exist.
  await app.simulator!.tick(new Date(app.clock.ms() - 5000))
  await app.simulator!.tick(app.clock.now())
  tokens = {
    super: await login(app, 'super@example.com'),
    admin: await login(app, 'admin@example.com'),
    user: await login(app, 'user@example.com'),
    bern: await login(app, other.adminEmail),
  }
})
afterAll(async () => app?.close())

const api = () => request(app.server)

// A first start that explains itself (README "Start"): the demo's login page says how to sign in.
describe('GET /api/setup with the demo on', () => {
  it('lists the demo accounts with role and installation, and the documented password; signing in with them works', async () => {
    const r = await request(app.server).get('/api/setup').expect(200)
    expect(r.body).toEqual({
      needed: false,
      demo: {
        accounts: [
          { email: 'super@example.com', role: 'superuser', installation: null },
          { email: 'admin@example.com', role: 'installation_admin', installation: 'Demo Residence Zürich' },
          { email: 'user@example.com', role: 'installation_user', installation: 'Demo Residence Zürich' },
          { email: 'admin2@example.com', role: 'installation_admin', installation: 'Demo Office Bern' },
        ],
        password: 'Cockpit-2026!',
      },
    })
    for (const a of r.body.demo.accounts) await login(app, a.email, r.body.demo.password)
  })

  it('never shows a password the operator chose with DEMO_PASSWORD', () => {
    expect(demoSignIn('An-own-demo-pass-1').password).toBeNull()
    expect(demoSignIn('An-own-demo-pass-1').accounts).toHaveLength(4)
  })
})

describe('POST /api/authentication/token/', () => {
  it('signs in and names the installation to open', async () => {
    const r = await api().post('/api/authentication/token/').send({ email: 'Admin@Example.com', password: 'Cockpit-2026!' }).expect(200)
    expect(r.body).toEqual({ access: expect.any(String), refresh: expect.any(String), installation_id: 1 })
  })
  it('honours ?installation only where the user has access', async () => {
    const sup = await api().post(`/api/authentication/token/?installation=${other.installationId}`).send({ email: 'super@example.com', password: 'Cockpit-2026!' }).expect(200)
    expect(sup.body.installation_id).toBe(other.installationId)
    const adm = await api().post(`/api/authentication/token/?installation=${other.installationId}`).send({ email: 'admin@example.com', password: 'Cockpit-2026!' }).expect(200)
    expect(adm.body.installation_id).toBe(1)
  })
  it('answers a wrong password and an unknown account alike, in the caller language', async () => {
    const wrong = await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: 'nope' }).expect(401)
    const unknown = await api().post('/api/authentication/token/').send({ email: 'ghost@example.com', password: 'nope' }).expect(401)
    expect(wrong.body).toEqual(unknown.body)
    expect(wrong.body.detail).toBe('No active account found with the given credentials')
    const de = await api().post('/api/authentication/token/').set('Accept-Language', 'de-CH,de;q=0.9').send({ email: 'admin@example.com', password: 'nope' }).expect(401)
    expect(de.body.detail).toBe('Kein aktives Konto mit diesen Anmeldedaten gefunden')
  })
  it('gives SPEC §5 field messages', async () => {
    const missing = await api().post('/api/authentication/token/').send({ password: 'x' }).expect(400)
    expect(missing.body).toEqual({ email: ['The field is required.'] })
    const bad = await api().post('/api/authentication/token/').send({ email: 'not-an-address', password: 'x' }).expect(400)
    expect(bad.body).toEqual({ email: ['The field is not a valid email address'] })
    const fr = await api().post('/api/authentication/token/').set('Accept-Language', 'fr').send({ email: '', password: '' }).expect(400)
    expect(fr.body.email).toEqual(['Le champ est obligatoire.'])
  })
  it('never answers 500 to malformed JSON', async () => {
    const r = await api().post('/api/authentication/token/').set('content-type', 'application/json').send('{"email":').expect(400)
    expect(r.body.detail).toBeTruthy()
  })
})

describe('refresh tokens', () => {
  it('rotate, and reusing a rotated token revokes the whole family', async () => {
    const first = (await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: 'Cockpit-2026!' }).expect(200)).body
    const second = (await api().post('/api/authentication/token/refresh/').send({ refresh: first.refresh }).expect(200)).body
    expect(second.refresh).not.toBe(first.refresh)
    await api().get('/api/users/3/').set(auth(second.access)).expect(200)
    // The thief replays the first token: refused, and the legitimate newer token dies with it.
    await api().post('/api/authentication/token/refresh/').send({ refresh: first.refresh }).expect(401)
    await api().post('/api/authentication/token/refresh/').send({ refresh: second.refresh }).expect(401)
  })
  it('refuses an unknown refresh token with 401', async () => {
    await api().post('/api/authentication/token/refresh/').send({ refresh: 'made-up' }).expect(401)
  })
})

describe('authentication on object endpoints', () => {
  it('answers 401 without or with a bad token', async () => {
    await api().get('/api/cockpit/installations/').expect(401)
    const r = await api().get('/api/cockpit/installations/').set(auth('abc.def.ghi')).expect(401)
    expect(r.body.detail).toBe('Token is invalid or expired')
  })
})

describe('installations and stations per role', () => {
  it('lists only the installations a user belongs to', async () => {
    const sup = await api().get('/api/cockpit/installations/').set(auth(tokens.super)).expect(200)
    // The demo's two installations and the one the test added.
    expect(sup.body.count).toBe(3)
    const adm = await api().get('/api/cockpit/installations/').set(auth(tokens.admin)).expect(200)
    expect(adm.body.results.map((i: { id: number }) => i.id)).toEqual([1])
    expect(adm.body.results[0]).toMatchObject({ name: 'Demo Residence Zürich', timezone: 'Europe/Zurich', currency: 'CHF', role: 'installation_admin' })
  })
  it('seeds a second demo installation with its own admin, who sees only it', async () => {
    const second = await seededSecond(app)
    const mine = await api().get('/api/cockpit/installations/').set(auth(second.adminToken)).expect(200)
    expect(mine.body.results).toEqual([expect.objectContaining({ id: second.installationId, name: 'Demo Office Bern', timezone: 'Europe/Zurich', role: 'installation_admin' })])
    const stations = await api().get(`/api/cockpit/installations/${second.installationId}/charging_stations/`).set(auth(second.adminToken)).expect(200)
    expect(stations.body.results.map((s: { id: number }) => s.id)).toEqual(second.stationIds)
    expect(second.stationIds).toHaveLength(2)
    await api().get('/api/cockpit/installations/1/charging_stations/').set(auth(second.adminToken)).expect(403)
    await api().get(`/api/cockpit/installations/${second.installationId}/charging_stations/`).set(auth(tokens.admin)).expect(403)
  })
  it('gives admins every station and users only the ones they may read', async () => {
    const adm = await api().get('/api/cockpit/installations/1/charging_stations/?limit=1000').set(auth(tokens.admin)).expect(200)
    expect(adm.body.count).toBe(7)
    expect(adm.body.results.filter((s: { charging_mode: string }) => s.charging_mode === 'locked')).toHaveLength(1)
    const usr = await api().get('/api/cockpit/installations/1/charging_stations/').set(auth(tokens.user)).expect(200)
    expect(usr.body.results.map((s: { id: number }) => s.id)).toEqual([1, 2])
    await api().get('/api/cockpit/installations/1/charging_stations/3').set(auth(tokens.user)).expect(404)
    await api().get('/api/cockpit/installations/1/charging_stations/1/').set(auth(tokens.user)).expect(200)
  })
  it('refuses every installation endpoint across installations', async () => {
    const paths = ['/', '/info', '/overview', '/energy_return', '/access', '/charging_stations/', '/charging_stations/1']
    for (const p of paths) {
      await api().get(`/api/cockpit/installations/${other.installationId}${p}`).set(auth(tokens.admin)).expect(403)
      await api().get(`/api/cockpit/installations/1${p}`).set(auth(tokens.bern)).expect(403)
    }
    await api().get(`/api/cockpit/installations/999/`).set(auth(tokens.admin)).expect(404)
    await api().get(`/api/metrics/?installation=${other.installationId}`).set(auth(tokens.user)).expect(403)
    await api().get(`/api/rfids-charge/`).set({ ...auth(tokens.bern), 'installation-id': '1' }).expect(403)
    await api().patch(`/api/cockpit/installations/1/charging_stations/1/`).set(auth(tokens.bern)).send({ name: 'x' }).expect(403)
  })
})

describe('PATCH a station', () => {
  it('lets an admin rename it and change its charging mode, with validation', async () => {
    const r = await api().patch('/api/cockpit/installations/1/charging_stations/2/').set(auth(tokens.admin)).send({ name: 'Guest space', charging_mode: 'solar' }).expect(200)
    expect(r.body).toMatchObject({ id: 2, name: 'Guest space', charging_mode: 'solar' })
    const bad = await api().patch('/api/cockpit/installations/1/charging_stations/2/').set(auth(tokens.admin)).send({ charging_mode: 'turbo' }).expect(400)
    expect(Object.keys(bad.body)).toEqual(['charging_mode'])
  })
  it('refuses a read-only user, and tells a user they cannot unlock a disabled station', async () => {
    await api().patch('/api/cockpit/installations/1/charging_stations/1/').set(auth(tokens.user)).send({ name: 'Mine' }).expect(403)
    const db = app.domain!.db
    await db.insertInto('permissions').values({ user_id: 3, installation_id: 1, object_type: 'charging_station', object_id: 6, level: 'read_and_write', cost: false, overview: false }).execute()
    const r = await api().patch('/api/cockpit/installations/1/charging_stations/6/').set(auth(tokens.user)).send({ charging_mode: 'instant' }).expect(403)
    expect(r.body.detail).toBe('Contact your facility administrator to unlock the charging station')
    await db.deleteFrom('permissions').where('object_id', '=', 6).where('user_id', '=', 3).execute()
  })
})

describe('GET /api/metrics/', () => {
  it('gives the admin the whole power flow, in kW and kWh with 2 decimals', async () => {
    const r = await api().get('/api/metrics/').set({ ...auth(tokens.admin), 'installation-id': '1' }).expect(200)
    const m = r.body
    for (const v of [m.grid.power_kw, m.pv.power_kw, m.battery.power_kw, m.battery.soc, m.building.power_kw, m.charging_stations.power_kw, m.e_sourced_today, m.consumption_today, m.water.today_m3]) {
      expect(typeof v).toBe('number')
      expect(Math.round(v * 100) / 100).toBe(v)
    }
    expect(Object.keys(m.charging_stations.stations)).toHaveLength(7)
    expect(m.pv.peak_kw).toBe(30)
    expect(m.battery.capacity_kwh).toBe(20)
    // The balance holds: grid + PV = building + stations + battery.
    expect(Math.abs(m.grid.power_kw + m.pv.power_kw - m.building.power_kw - m.charging_stations.power_kw - m.battery.power_kw)).toBeLessThan(0.05)
  })
  it('hides main meters from a user without the overview permission', async () => {
    const r = await api().get('/api/metrics/?installation=1').set(auth(tokens.user)).expect(200)
    expect(r.body).toMatchObject({ grid: null, pv: null, battery: null, building: null, water: null, e_sourced_today: null })
    expect(Object.keys(r.body.charging_stations.stations)).toEqual(['1', '2'])
    await api().get('/api/cockpit/installations/1/energy_return').set(auth(tokens.user)).expect(403)
  })
  it('needs an installation id', async () => {
    const r = await api().get('/api/metrics/').set(auth(tokens.admin)).expect(400)
    expect(r.body).toEqual({ detail: 'No installationId' })
  })
})

describe('GET /api/rfids-charge/ and /api/users/{id}/', () => {
  it('shows a user only sessions at their stations or with their card', async () => {
    const db = app.domain!.db
    await db.insertInto('charging_sessions').values([
      { installation_id: 1, station_id: 5, rfid_id: 5, user_id: null, start: new Date('2026-01-05T18:00:00Z'), end: new Date('2026-01-06T06:00:00Z'), energy_kwh: 20, high_kwh: 0, low_kwh: 20, price_rappen: 420, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false },
      { installation_id: 1, station_id: 1, rfid_id: 1, user_id: 3, start: new Date('2026-01-07T18:00:00Z'), end: new Date('2026-01-08T06:00:00Z'), energy_kwh: 10, high_kwh: 2, low_kwh: 8, price_rappen: 227, fee_rappen: 0, status: 'paid', paid_on: new Date('2026-01-09T00:00:00Z'), set_by_timer: false },
    ]).execute()
    const q = 'start__gte=2026-01-01T00:00:00Z&end__lte=2026-01-31T23:59:59Z'
    const adm = await api().get(`/api/rfids-charge/?${q}`).set({ ...auth(tokens.admin), 'installation-id': '1' }).expect(200)
    expect(adm.body.count).toBe(2)
    const usr = await api().get(`/api/rfids-charge/?${q}&installation=1`).set(auth(tokens.user)).expect(200)
    expect(usr.body.results).toHaveLength(1)
    expect(usr.body.results[0]).toMatchObject({ station_id: 1, price: 2.27, status: 'paid', energy_kwh: 10 })
    const page = await api().get(`/api/rfids-charge/?${q}&limit=1&offset=1`).set({ ...auth(tokens.admin), 'installation-id': '1' }).expect(200)
    expect(page.body.results).toHaveLength(1)
    expect(page.body.count).toBe(2)
  })
  it('lets users read themselves and admins their installation users, nobody else', async () => {
    const me = await api().get('/api/users/3/').set(auth(tokens.user)).expect(200)
    expect(me.body).toMatchObject({ email: 'user@example.com', first_name: 'Laura', installations: [{ id: 1, role: 'installation_user' }] })
    expect(me.body.password_hash).toBeUndefined()
    await api().get('/api/users/2/').set(auth(tokens.user)).expect(404)
    await api().get('/api/users/3/').set(auth(tokens.admin)).expect(200)
    await api().get('/api/users/3/').set(auth(tokens.bern)).expect(404)
  })
})
