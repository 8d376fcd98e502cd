import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { PASSWORD, startApp } from './helpers.ts'
import { PRELOAD_BOOT_SCRIPT } from '../../config/preload-boot.ts'

/**
 * Response headers: a CSP allowing only the app's own scripts and styles, no framing,
 * nosniff, a referrer policy, and auth answers that no cache keeps.
 */
let app: FastifyInstance
const api = () => request(app.server)
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
})
afterAll(async () => {
  await app?.close()
})

/** The CSP as directive → sources. */
const csp = (header: string | undefined) => Object.fromEntries((header ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([k, ...v]) => [k, v]))

describe('security headers', () => {
  it('every answer forbids framing and sniffing, sends no referrer and a CSP of own scripts only', async () => {
    for (const path of ['/api/health', '/api/payments/demo-checkout?session=x', '/api/nothing-here']) {
      const r = await api().get(path)
      const policy = csp(r.headers['content-security-policy'])
      expect(policy['frame-ancestors'], path).toEqual(["'none'"])
      // Own scripts, and the one inline script (index.html's route preloader, config/preload-boot.ts) by
      // hash; tests/e2e/web-delivery.spec.ts checks the built page runs it without a violation.
      expect(policy['script-src'], path).toEqual(["'self'", `'sha256-${crypto.createHash('sha256').update(PRELOAD_BOOT_SCRIPT).digest('base64')}'`])
      expect(policy['default-src'], path).toEqual(["'self'"])
      expect(policy['object-src'], path).toEqual(["'none'"])
      expect(policy['style-src']?.join(' '), path).not.toMatch(/unsafe-inline/)
      // Plain-http installations in a LAN must keep loading their assets.
      expect(policy['upgrade-insecure-requests'], path).toBeUndefined()
      expect(r.headers['x-frame-options'], path).toBe('DENY')
      expect(r.headers['x-content-type-options'], path).toBe('nosniff')
      expect(r.headers['referrer-policy'], path).toBe('no-referrer')
    }
  })

  it('lets the demo checkout page apply its own inline style (and nothing else inline)', async () => {
    const r = await api().get('/api/payments/demo-checkout?session=x').expect(200)
    const style = /<style>([\s\S]*?)<\/style>/.exec(r.text)![1]
    const hash = `'sha256-${crypto.createHash('sha256').update(style).digest('base64')}'`
    expect(csp(r.headers['content-security-policy'])['style-src']).toContain(hash)
    expect(r.text).not.toMatch(/<script|\son\w+=|style="/)
  })

  it('lets the installed chart library style its attribution logo', async () => {
    const lib = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/lightweight-charts/dist/lightweight-charts.production.mjs'), 'utf8')
    const style = /createElement\(['"`]style['"`]\)[^;]*?innerText\s*=\s*(['"`])(.*?)\1/.exec(lib)![2]
    const r = await api().get('/api/health')
    expect(csp(r.headers['content-security-policy'])['style-src']).toEqual(["'self'", expect.any(String), `'sha256-${crypto.createHash('sha256').update(style).digest('base64')}'`])
  })

  it('no cache keeps an auth answer', async () => {
    const token = await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: PASSWORD }).expect(200)
    const refresh = await api().post('/api/authentication/token/refresh/').send({ refresh: token.body.refresh }).expect(200)
    const answers = [
      token,
      refresh,
      await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: 'wrong' }),
      await api().post('/api/authentication/logout/').send({ refresh: refresh.body.refresh }),
      await api().post('/api/password-reset/').send({ email: 'admin@example.com' }),
      await api().post('/api/password-reset/validate_token/').send({ token: 'x' }),
      await api().post('/api/password-reset/confirm/').send({ token: 'x', password: 'Another-2026!' }),
      await api().post('/api/users/register/?installation=1').send({}),
      await api().post('/api/users/user-verification/').send({ token: 'x' }),
      await api().put('/api/users/password/').set('Authorization', `Bearer ${token.body.access}`).send({ old_password: 'x', new_password: 'y' }),
    ]
    answers.forEach((r, i) => expect(r.headers['cache-control'], `answer ${i} (${r.status})`).toMatch(/no-store/))
  })
})
