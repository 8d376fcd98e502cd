import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { startBackground } from '../../server/app.ts'
import { captureSmtp, startApp, testDatabaseUrl, until } from './helpers.ts'

// Three API processes on one Postgres (three apps, each with its own pool and pg-boss, on
// one database) run each job once: a mail is delivered once, an unpaid session charged once.
// Only on the Postgres run (npm run test:pg).
const smtp = captureSmtp()
const apps: FastifyInstance[] = []
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()))
  await smtp.close()
})

describe.skipIf(!inject('pgUrl'))('jobs across three API processes on one Postgres', () => {
  it('deliver a mail once and charge an unpaid session once', async () => {
    const smtpUrl = await smtp.listen()
    const databaseUrl = (await testDatabaseUrl())!
    for (let i = 0; i < 3; i++) apps.push((await startApp({ databaseUrl, roles: ['api'], smtpUrl })).app)
    const db = apps[0].domain!.db
    const user = await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()
    const station = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).orderBy('id').executeTakeFirstOrThrow()
    const start = new Date(apps[0].clock.ms() - 3 * 3600_000)
    const session = await db.insertInto('charging_sessions').values({
      installation_id: 1, station_id: station.id, rfid_id: null, user_id: user.id, start, end: new Date(start.getTime() + 3600_000),
      energy_kwh: 10, high_kwh: 10, low_kwh: 0, price_rappen: 270, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false,
    }).returning('id').executeTakeFirstOrThrow()
    await apps[0].domain!.mail.enqueue({ kind: 'test', to: 'once@example.com', subject: 'Once', text: 'Only once', html: null, attachments: [] } as never)
    // The quarter-hourly payment run, every second here, started by all three at the same moment.
    for (const app of apps) for (const job of app.jobs) if (job.name === 'payments') job.schedule = { everySeconds: 1 }
    await Promise.all(apps.map((app) => startBackground(app)))

    await until(() => smtp.received.length > 0, 30_000, 'the mail')
    await until(async () => (await db.selectFrom('charging_sessions').select('status').where('id', '=', session.id).executeTakeFirstOrThrow()).status === 'paid', 30_000, 'the session paid')
    // Several more rounds of every job in all three processes.
    await new Promise((r) => setTimeout(r, 8000))
    expect(smtp.received.map((m) => m.to)).toEqual(['once@example.com'])
    const charges = await db.selectFrom('payment_charges').select(['id', 'status']).where('session_id', '=', session.id).execute()
    expect(charges).toHaveLength(1)
  }, 120_000)
})
