import { afterAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import request from 'supertest'
import { startBackground } from '../../server/app.ts'
import { startApp } from './helpers.ts'

// A load balancer (or the e2e suite) asks /api/ready: 503 until the background start, with the
// simulator's backfill, is done, and whenever a check of the process's roles fails, naming it;
// /api/health answers as soon as the process listens, for every role (the image's HEALTHCHECK).
const apps: FastifyInstance[] = []
afterAll(async () => {
  for (const app of apps.reverse()) await app.close().catch(() => undefined)
})
async function start(opts: Parameters<typeof startApp>[0]) {
  const started = await startApp(opts)
  apps.push(started.app)
  return started
}

describe('readiness', () => {
  it('answers 503 while starting and 200 once the backfill and jobs are started, without a token', async () => {
    // A one-day backfill: the start is the same, the wait a fraction of 30 days'.
    const { app } = await start({ roles: ['api', 'simulator'], simBackfillDays: 1 })
    await request(app.server).get('/api/health').expect(200)
    expect((await request(app.server).get('/api/ready').expect(503)).body.status).toBe('starting')
    await startBackground(app)
    expect((await request(app.server).get('/api/ready').expect(200)).body).toEqual({ status: 'ready', checks: { database: 'ok' } })
    await app.simulator!.stop()
  }, 60_000)

  it('a database that stops answering makes the process unready, naming the database, while it stays alive', async () => {
    const { app } = await start({ roles: ['api'] })
    await startBackground(app)
    await request(app.server).get('/api/ready').expect(200)
    await app.domain!.db.destroy()
    const r = await request(app.server).get('/api/ready').expect(503)
    expect(r.body.status).toBe('unready')
    expect(r.body.checks.database).not.toBe('ok')
    await request(app.server).get('/api/health').expect(200)
  }, 60_000)

  it('a relay whose upstream account does not exist is unready and says which account failed where', async () => {
    const { app: api, url } = await start({ roles: ['api'] })
    await startBackground(api)
    const { app: relay } = await start({ roles: ['relay'], upstreamUrl: `${url}/api`, relayUpstream: { email: 'nobody@example.com', password: 'Not-the-password-1' } })
    await startBackground(relay)
    const r = await request(relay.server).get('/api/ready').expect(503)
    expect(r.body.checks.relay_upstream).toMatch(/cannot sign in at .* as nobody@example\.com: upstream 401/)
  }, 60_000)

  it('an OCPP-only process answers the health check and is ready once it accepts charge points', async () => {
    const { app } = await start({ roles: ['ocpp'] })
    expect((await request(app.server).get('/api/health').expect(200)).body.roles).toEqual(['ocpp'])
    await startBackground(app)
    expect((await request(app.server).get('/api/ready').expect(200)).body.checks).toEqual({ database: 'ok', ocpp: 'ok' })
    await app.ocpp!.stop()
    expect((await request(app.server).get('/api/ready').expect(503)).body.checks.ocpp).toMatch(/not accepting/)
  }, 60_000)
})
