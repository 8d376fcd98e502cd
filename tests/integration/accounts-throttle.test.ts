import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { createAuthService } from '../../server/domain/auth/service.ts'
import { PASSWORD, startApp } from './helpers.ts'

let app: FastifyInstance
const api = () => request(app.server)
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
})
afterAll(async () => {
  await app?.close()
})

describe('failed sign-in throttling (issue 3 §8)', () => {
  it('blocks an account after 100 failures in an hour with 429 and Retry-After, even for the right password', async () => {
    const db = app.domain!.db
    // 99 earlier failures within the hour, then the 100th through the API.
    await db.insertInto('auth_failures').values(Array.from({ length: 99 }, () => ({ scope: 'account', key: 'user@example.com', at: new Date(Date.now() - 600_000) }))).execute()
    await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: 'wrong' }).expect(401)
    const blocked = await api().post('/api/authentication/token/').set('Accept-Language', 'de').send({ email: 'User@example.com', password: PASSWORD }).expect(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(2900)
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(3000)
    expect(blocked.body.detail).toMatch(/Zu viele fehlgeschlagene Anmeldeversuche/)
    // Other accounts are not affected.
    await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: PASSWORD }).expect(200)
    // Kept in the database: a fresh service (a restart, another process) still refuses.
    const restarted = createAuthService({ db, secret: new TextEncoder().encode('x'.repeat(32)) })
    await expect(restarted.login('user@example.com', PASSWORD)).rejects.toMatchObject({ status: 429 })
    // Failures older than an hour no longer count.
    await db.updateTable('auth_failures').set({ at: new Date(Date.now() - 3700_000) }).where('key', '=', 'user@example.com').execute()
    await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: PASSWORD }).expect(200)
  })

  it('blocks an IP after too many failures across accounts', async () => {
    const auth = createAuthService({ db: app.domain!.db, secret: new TextEncoder().encode('y'.repeat(32)), limits: { perIp: 3 } })
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      await expect(auth.login(email, 'nope', { ip: '203.0.113.9' })).rejects.toMatchObject({ status: 401 })
    }
    await expect(auth.login('admin@example.com', PASSWORD, { ip: '203.0.113.9' })).rejects.toMatchObject({ status: 429 })
    await expect(auth.login('admin@example.com', PASSWORD, { ip: '198.51.100.7' })).resolves.toHaveProperty('access')
  })

  it('a successful sign-in clears the account\'s failures', async () => {
    await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: 'wrong' }).expect(401)
    await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: PASSWORD }).expect(200)
    const left = await app.domain!.db.selectFrom('auth_failures').select('id').where('scope', '=', 'account').where('key', '=', 'admin@example.com').execute()
    expect(left).toHaveLength(0)
  })
})
