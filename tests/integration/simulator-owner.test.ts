import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createSimulator } from '../../server/devices/simulator/index.ts'
import { createOwnership } from '../../server/devices/simulator/ownership.ts'
import { startApp, testDatabaseUrl } from './helpers.ts'

// With several processes on one Postgres each installation is simulated by one of them,
// and another takes it over when the owner goes away. Only on the Postgres run (npm run test:pg).
const apps: FastifyInstance[] = []
afterAll(async () => Promise.all(apps.map((a) => a.close())))

describe.skipIf(!inject('pgUrl'))('simulator owner per installation', () => {
  it('one of two processes simulates an installation; the other takes it over when the owner stops', async () => {
    const databaseUrl = (await testDatabaseUrl())!
    for (let i = 0; i < 2; i++) apps.push((await startApp({ databaseUrl, roles: ['api'] })).app)
    const [a, b] = apps.map((app) => createSimulator({ domain: app.domain!, seed: 7, log: app.log, backfillDays: 0, ownership: createOwnership(databaseUrl, { clock: app.clock, retryMs: 0 }) }))
    const db = apps[0].domain!.db
    // Samples folded into the 15-minute aggregates from `since`'s bucket on, and the meters that have
    // some: a step simulated twice counts twice. (Meters without readings, such as a station waiting for
    // its OCPP charge point, count in neither.)
    const readings = async (since: Date) => {
      const r = await db.selectFrom('measurements_15m').select((e) => [e.fn.sum<number>('samples').as('n'), e.fn.count<number>('meter_id').distinct().as('m')])
        .where('bucket', '>=', new Date(Math.floor(since.getTime() / 900_000) * 900_000))
        // A register that did not move leaves a 0 kWh row without samples (no false gap): not a reading step.
        .where('samples', '>', 0).executeTakeFirstOrThrow()
      return { samples: Number(r.n ?? 0), meters: Number(r.m) }
    }
    const installations = (await db.selectFrom('installations').select('id').execute()).length

    const t1 = new Date(apps[0].clock.ms() + 60_000)
    await Promise.all([a.tick(t1), b.tick(t1)])
    // Each installation's meters read once for the step, not once per process.
    expect(installations).toBe(2)
    const first = await readings(t1)
    expect(first.meters).toBeGreaterThan(20)
    expect(first.samples).toBe(first.meters)

    // The owner goes away (its lock connection ends); the other one takes the installations over.
    await a.stop()
    const t2 = new Date(t1.getTime() + 5000)
    await b.tick(t2)
    expect((await readings(t1)).samples).toBe(2 * first.meters)
    await b.stop()
  }, 120_000)
})
