import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

let app: FastifyInstance
let other: Awaited<ReturnType<typeof startWithTokens>>['other']
let tokens: RoleTokens

beforeAll(async () => {
  ;({ app, other, tokens } = await startWithTokens(['api']))
})
afterAll(async () => app?.close())

const api = () => request(app.server)

describe('switching self-registration (PATCH /api/cockpit/installations/{id}/)', () => {
  it('lets an admin open and close registration, which can-register then reports', async () => {
    const can = async () => (await api().get('/api/users/can-register?installation=1').expect(200)).body.can_register
    expect(await can()).toBe(false)
    const r = await api().patch('/api/cockpit/installations/1/').set(auth(tokens.admin)).send({ registration_enabled: true }).expect(200)
    expect(r.body).toMatchObject({ id: 1, registration_enabled: true, role: 'installation_admin' })
    expect(await can()).toBe(true)
    await api().patch('/api/cockpit/installations/1/').set(auth(tokens.super)).send({ registration_enabled: false }).expect(200)
    expect(await can()).toBe(false)
  })
  it('refuses users, other installations’ admins and unknown fields', async () => {
    await api().patch('/api/cockpit/installations/1/').set(auth(tokens.user)).send({ registration_enabled: true }).expect(403)
    await api().patch('/api/cockpit/installations/1/').set(auth(tokens.bern)).send({ registration_enabled: true }).expect(403)
    await api().patch(`/api/cockpit/installations/${other.installationId}/`).set(auth(tokens.admin)).send({ registration_enabled: true }).expect(403)
    const bad = await api().patch('/api/cockpit/installations/1/').set(auth(tokens.admin)).send({ registration_enabled: 'yes', name: 'x' }).expect(400)
    expect(bad.body.registration_enabled).toBeTruthy()
    await api().patch('/api/cockpit/installations/1/').send({ registration_enabled: true }).expect(401)
  })
})
