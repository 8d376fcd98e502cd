import { afterAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import request from 'supertest'
import { startBackground } from '../../server/app.ts'
import { startApp } from './helpers.ts'

// A load balancer (or the e2e suite) asks /api/ready: 503 until the background start, with the
// simulator's backfill, is done; /api/health answers as soon as the process listens.
let app: FastifyInstance | undefined
afterAll(async () => app?.close())

describe('readiness', () => {
  it('answers 503 while starting and 200 once the backfill and jobs are started, without a token', async () => {
    ;({ app } = await startApp({ roles: ['api', 'simulator'] }))
    await request(app.server).get('/api/health').expect(200)
    expect((await request(app.server).get('/api/ready').expect(503)).body).toEqual({ status: 'starting' })
    await startBackground(app)
    expect((await request(app.server).get('/api/ready').expect(200)).body).toEqual({ status: 'ready' })
    await app.simulator!.stop()
  }, 120_000)
})
