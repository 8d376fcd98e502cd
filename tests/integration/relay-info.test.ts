import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, login, startApp, until } from './helpers.ts'
import { watchStream } from '../live-updates.ts'
import { POLL_INTERVALS_MS } from '../../config/defaults.ts'

// A facility offline (SPEC §4) with the relay's real info interval (2 minutes): a facility that goes offline or comes
// back is on every open stream at once, not at the next info poll. Found by the e2e facility-offline
// spec: Power opened a stream whose relay still held "online" from before the cut, and its snapshot
// overwrote the offline state the screen had just fetched (the banner vanished, the pill said "Live").
let app: FastifyInstance
let url: string
let admin: string

beforeAll(async () => {
  ;({ app, url } = await startApp({ roles: ['api', 'relay', 'simulator'], intervals: { info: POLL_INTERVALS_MS.info } }))
  admin = await login(app, 'admin@example.com')
  await app.simulator!.tick(app.clock.now())
})
afterAll(async () => app?.close())

const connection = (online: boolean) =>
  request(app.server).post('/api/cockpit/installations/1/simulator/connection').set(auth(admin)).send({ online }).expect(202)

describe('the facility online state on an open stream', () => {
  it('turns offline within seconds of the cut and online within seconds of the next heartbeat', async () => {
    const ticket = (await request(app.server).post('/live/tickets').set(auth(admin)).send({ installation_id: 1 }).expect(201)).body.ticket
    const stream = watchStream(`${url}/live/installations/1?ticket=${ticket}&topics=info`)
    try {
      const online = () => (stream.state.info as { online?: boolean } | undefined)?.online
      await until(() => online() === true, 5_000, 'the first info snapshot')
      await connection(false)
      const cut = performance.now()
      await until(() => online() === false, 5_000, 'offline on the stream')
      expect(performance.now() - cut).toBeLessThan(5_000)
      await connection(true)
      // The simulator's next step is the heartbeat that brings the facility back.
      await app.simulator!.tick(app.clock.now())
      await until(() => online() === true, 5_000, 'online again on the stream')
    } finally {
      stream.es.close()
      await app.simulator!.setConnected(1, true)
    }
  })
})
