import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { loadConfig, type Config } from '../../config/env.ts'
import { PASSWORD, startApp } from './helpers.ts'

/**
 * Client IP (ARCHITECTURE §3): X-Forwarded-For counts only from a proxy listed in
 * TRUST_PROXY; otherwise the socket's address is the client, so a client cannot pick a fresh IP per
 * request to slip past per-IP limits.
 */

/** Use up the per-IP failure budget of `ip` (127.0.0.1 is the test's socket address). */
async function exhaustIp(app: FastifyInstance, ip: string) {
  await app.domain!.db.insertInto('auth_failures').values(Array.from({ length: 300 }, () => ({ scope: 'ip', key: ip, at: app.clock.now() }))).execute()
}
const signIn = (app: FastifyInstance, forwardedFor?: string) => {
  const r = request(app.server).post('/api/authentication/token/')
  if (forwardedFor) r.set('X-Forwarded-For', forwardedFor)
  return r.send({ email: 'admin@example.com', password: PASSWORD })
}

/** An app with `trustProxy` whose 127.0.0.1 has no sign-in attempts left. */
function withApp(trustProxy: Config['trustProxy'], roles: Config['roles'] = ['api']) {
  const ctx = {} as { app: FastifyInstance; url: string }
  beforeAll(async () => {
    Object.assign(ctx, await startApp({ roles, trustProxy, relay: { maxStreamsPerIp: 2 } }))
    await exhaustIp(ctx.app, '127.0.0.1')
  })
  afterAll(async () => {
    await ctx.app?.close()
  })
  return ctx
}

describe('TRUST_PROXY parsing', () => {
  it('parses unset, a list of addresses/CIDRs and a hop count, and names the variable when wrong', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', '::1'])
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    for (const bad of ['true', '10.0.0.300', '10.0.0.0/33', 'proxy.local', '0', '']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/)
    }
  })
})

describe('without TRUST_PROXY', () => {
  const ctx = withApp(false, ['api', 'relay'])

  it('a spoofed X-Forwarded-For does not escape the per-IP sign-in limit', async () => {
    expect((await signIn(ctx.app, '198.51.100.23')).status).toBe(429)
  })

  it('spoofed addresses do not escape the relay per-IP stream cap', async () => {
    // Sign in through the service (the HTTP sign-in of 127.0.0.1 is used up above).
    const { access } = await ctx.app.domain!.auth.login('admin@example.com', PASSWORD)
    const open = (ip: string) => {
      const ctrl = new AbortController()
      const res = fetch(`${ctx.url}/live/installations/1?topics=stations`, { headers: { authorization: `Bearer ${access}`, 'x-forwarded-for': ip }, signal: ctrl.signal })
      return { res, ctrl }
    }
    const streams = [open('203.0.113.1'), open('203.0.113.2')]
    for (const s of streams) expect((await s.res).status).toBe(200)
    const third = open('203.0.113.3')
    expect((await third.res).status).toBe(429)
    for (const s of [...streams, third]) s.ctrl.abort()
  })
})

describe('TRUST_PROXY with proxy addresses', () => {
  const ctx = withApp(['127.0.0.1'])

  it('believes X-Forwarded-For from a listed proxy', async () => {
    await signIn(ctx.app, '198.51.100.23').expect(200)
    // The proxy's own address is still limited when it names no client.
    await signIn(ctx.app).expect(429)
  })
})

describe('TRUST_PROXY with a hop count', () => {
  const ctx = withApp(1)

  it('takes the address the nearest proxy appended, not one the client prepended', async () => {
    await exhaustIp(ctx.app, '198.51.100.23')
    await signIn(ctx.app, '203.0.113.50').expect(200)
    await signIn(ctx.app, '203.0.113.50, 198.51.100.23').expect(429)
  })
})
