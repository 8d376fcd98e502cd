import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { AT, addOtherInstallation, auth, login, startApp, type RoleTokens } from './helpers.ts'

/**
 * The ingestion tests' app (roles api only, so nothing but the test writes measurements) on a test clock
 * standing at {@link AT}.morning: tokens of the demo's superuser, admin and resident and of a second
 * installation's admin, an object of each installation, and helpers to make meters and device keys.
 */
export async function startIngest() {
  const clock: TestClock = createTestClock(new Date(AT.morning))
  const { app } = await startApp({ roles: ['api'], clock })
  const other = await addOtherInstallation(app)
  const tokens: RoleTokens = {
    super: await login(app, 'super@example.com'),
    admin: await login(app, 'admin@example.com'),
    user: await login(app, 'user@example.com'),
    bern: await login(app, other.adminEmail),
  }
  const db = app.domain!.db
  const demo = (await db.selectFrom('installations').select('id').where('name', '=', 'Demo Residence Zürich').executeTakeFirstOrThrow()).id
  const object1 = (await db.selectFrom('objects').select('id').where('installation_id', '=', demo).orderBy('id').executeTakeFirstOrThrow()).id
  const otherObject = (await db.insertInto('objects').values({ installation_id: other.installationId, parent_object_id: null, description: 'Bern house', object_type: 'building' }).returning('id').executeTakeFirstOrThrow()).id
  const api = () => request(app.server)
  let serials = 0

  /** A meter made through the provisioning API (source ingest). */
  async function meter(meter_type: string, extra: Record<string, unknown> = {}, installationId = demo): Promise<{ id: number; serial: string }> {
    const serial = `ING-${++serials}`
    const r = await api().post(`/api/cockpit/installations/${installationId}/meters/`).set(auth(installationId === demo ? tokens.admin : tokens.bern))
      .send({ object_id: installationId === demo ? object1 : otherObject, meter_type, name: `Ingest ${meter_type} ${serials}`, serial, ...extra }).expect(201)
    return { id: r.body.id, serial }
  }

  /** A device key of the installation (made by its admin), its text. */
  async function key(installationId = demo): Promise<string> {
    const r = await api().post(`/api/cockpit/installations/${installationId}/device_keys/`).set(auth(installationId === demo ? tokens.admin : tokens.bern)).send({ name: 'Gateway' }).expect(201)
    return r.body.key as string
  }

  /** POST the readings with `deviceKey`. */
  const send = (deviceKey: string, readings: unknown[]) => api().post('/api/ingest/v1/readings').set(auth(deviceKey)).send({ readings })

  /** The clock's now shifted by `ms`, as ISO 8601 with the +01:00 offset a Swiss device sends in winter. */
  const at = (ms = 0) => {
    const d = new Date(clock.ms() + ms + 3600_000)
    return d.toISOString().replace('Z', '+01:00')
  }

  /** A meter's stored rows: its 15-minute buckets and raw measurements. */
  async function stored(meterId: number) {
    const buckets = await db.selectFrom('measurements_15m').selectAll().where('meter_id', '=', meterId).orderBy('bucket').execute()
    const raw = await db.selectFrom('measurements').selectAll().where('meter_id', '=', meterId).orderBy('ts').execute()
    const hours = await db.selectFrom('measurements_1h').selectAll().where('meter_id', '=', meterId).orderBy('bucket').execute()
    return { buckets, raw, hours }
  }

  return { app, clock, tokens, other, demo, object1, otherObject, api, meter, key, send, at, stored, db }
}
export type IngestEnv = Awaited<ReturnType<typeof startIngest>>
export type { FastifyInstance }
