import { afterAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../config/env.ts'
import { PASSWORD, login, startApp } from './helpers.ts'

/**
 * Client IP (issue 10 item 2, ARCHITECTURE §3): X-Forwarded-For counts only from a proxy listed in
 * TRUST_PROXY; otherwise the socket's address is the client, so a client cannot pick a fresh IP per
 * request to slip past per-IP limits.
 */
const apps: FastifyInstance[] = []
afterAll(async () => {
  for (const app of apps) await app.close()
})

/** Fill the per-IP failure budget of 127.0.0.1 (the test's socket address). */
async function exhaustLocalIp(app: FastifyInstance) {
  const at = new Date()
  await app.domain!.db.insertInto('auth_failures').values(Array.from({ length: 300 }, (_, i) => ({ scope: 'ip', key: '127.0.0.1', at: new Date(at.getTime() - i) }))).execute()
}

describe('TRUST_PROXY', () => {
  it('parses unset, a list of addresses/CIDRs and a hop count, and names the variable when wrong', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', '::1'])
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    for (const bad of ['true', '10.0.0.300', '10.0.0.0/33', 'proxy.local', '0', '']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/)
    }
  })

  it('without it, a spoofed X-Forwarded-For does not escape the per-IP sign-in limit', async () => {
    const { app } = await startApp({ roles: ['api'] })
    apps.push(app)
    await exhaustLocalIp(app)
    const r = await request(app.server).post('/api/authentication/token/').set('X-Forwarded-For', '198.51.100.23').send({ email: 'admin@example.com', password: PASSWORD })
    expect(r.status).toBe(429)
  })

  it('from a trusted proxy, X-Forwarded-For is the client', async () => {
    const { app } = await startApp({ roles: ['api'], trustProxy: ['127.0.0.1'] })
    apps.push(app)
    await exhaustLocalIp(app)
    await request(app.server).post('/api/authentication/token/').set('X-Forwarded-For', '198.51.100.23').send({ email: 'admin@example.com', password: PASSWORD }).expect(200)
    // The proxy's own address is still limited when it forwards no client address.
    await request(app.server).post('/api/authentication/token/').send({ email: 'admin@example.com', password: PASSWORD }).expect(429)
  })

  it('without it, spoofed addresses do not escape the relay per-IP stream cap', async () => {
    const { app, url } = await startApp({ roles: ['api', 'relay'], relay: { maxStreamsPerIp: 2 } })
    apps.push(app)
    const token = await login(app, 'admin@example.com')
    const open = (ip: string) => {
      const ctrl = new AbortController()
      const res = fetch(`${url}/live/installations/1?topics=stations`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip }, signal: ctrl.signal })
      return { res, ctrl }
    }
    const streams = [open('203.0.113.1'), open('203.0.113.2')]
    for (const s of streams) expect((await s.res).status).toBe(200)
    const third = open('203.0.113.3')
    expect((await third.res).status).toBe(429)
    for (const s of [...streams, third]) s.ctrl.abort()
  })
})
