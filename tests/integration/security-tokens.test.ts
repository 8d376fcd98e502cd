import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { SignJWT } from 'jose'
import type { FastifyInstance } from 'fastify'
import { auth, login, startApp } from './helpers.ts'

/**
 * Access tokens: a JWT signed with the right key is refused unless it carries
 * exp, iat, sub, jti and the access token type; logout revokes the refresh token's family on the server.
 */
let app: FastifyInstance
let secret: Uint8Array
let adminId: number
const api = () => request(app.server)
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
  const db = app.domain!.db
  secret = new TextEncoder().encode((await db.selectFrom('app_settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow()).value)
  adminId = (await db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await app?.close()
})

type Claim = 'exp' | 'iat' | 'sub' | 'jti' | 'token_type'
/** An HS256 token signed with the server's own key, with every claim except those in `omit`. */
async function forge(omit: Claim[] = [], extra: Record<string, unknown> = {}) {
  const jwt = new SignJWT({ user_id: adminId, ...(omit.includes('token_type') ? {} : { token_type: 'access' }), ...extra }).setProtectedHeader({ alg: 'HS256' })
  if (!omit.includes('sub')) jwt.setSubject(String(adminId))
  if (!omit.includes('iat')) jwt.setIssuedAt()
  if (!omit.includes('exp')) jwt.setExpirationTime('5m')
  if (!omit.includes('jti')) jwt.setJti(crypto.randomUUID())
  return jwt.sign(secret)
}
const me = (token: string) => api().get(`/api/users/${adminId}/`).set(auth(token))

describe('access token claims', () => {
  it('accepts a complete token signed with the key (the forgery works at all)', async () => {
    await me(await forge()).expect(200)
    await me(await login(app, 'admin@example.com')).expect(200)
  })

  for (const claim of ['exp', 'iat', 'sub', 'jti', 'token_type'] as const) {
    it(`refuses a token without ${claim}`, async () => {
      await me(await forge([claim])).expect(401)
    })
  }

  it('refuses a token of another type, and one whose sub is not a user id', async () => {
    await me(await forge([], { token_type: 'refresh' })).expect(401)
    const wrongSub = await new SignJWT({ user_id: adminId, token_type: 'access' }).setProtectedHeader({ alg: 'HS256' }).setSubject('admin').setIssuedAt().setExpirationTime('5m').sign(secret)
    await me(wrongSub).expect(401)
  })
})

describe('POST /api/authentication/logout/', () => {
  const pair = async () => (await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: 'Cockpit-2026!' }).expect(200)).body as { access: string; refresh: string }
  const refresh = (token: string) => api().post('/api/authentication/token/refresh/').send({ refresh: token })

  it('revokes the whole family: neither the logged-out token nor an earlier one of the family refreshes', async () => {
    const first = await pair()
    const second = (await refresh(first.refresh).expect(200)).body as { refresh: string }
    const other = await pair()
    const out = await api().post('/api/authentication/logout/').send({ refresh: second.refresh })
    expect(out.status).toBe(204)
    expect(out.headers['cache-control']).toMatch(/no-store/)
    await refresh(second.refresh).expect(401)
    await refresh(first.refresh).expect(401)
    // Another sign-in of the same user (another device) stays signed in.
    await refresh(other.refresh).expect(200)
  })

  it('is idempotent and answers 400 without a token', async () => {
    const { refresh: token } = await pair()
    await api().post('/api/authentication/logout/').send({ refresh: token }).expect(204)
    await api().post('/api/authentication/logout/').send({ refresh: token }).expect(204)
    await api().post('/api/authentication/logout/').send({ refresh: 'never-issued' }).expect(204)
    const missing = await api().post('/api/authentication/logout/').send({})
    expect(missing.status).toBe(400)
    expect(missing.body).toHaveProperty('refresh')
  })
})
