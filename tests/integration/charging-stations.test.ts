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
const inst = '/api/cockpit/installations/1'

describe('station endpoints of SPEC §7', () => {
  it('PUT one station and bulk PUT/PATCH with rights per station', async () => {
    const put = await api().put(`${inst}/charging_stations/2/`).set(auth(tokens.admin)).send({ name: 'Guest 2' }).expect(200)
    expect(put.body.name).toBe('Guest 2')
    const bulk = await api().patch(`${inst}/charging_stations/`).set(auth(tokens.admin)).send([{ id: 2, charging_mode: 'solar' }, { id: 3, name: 'Guest 3' }]).expect(200)
    expect(bulk.body.map((s: { id: number; charging_mode: string; name: string }) => [s.id, s.charging_mode, s.name])).toEqual([[2, 'solar', 'Guest 2'], [3, 'solar', 'Guest 3']])
    await api().put(`${inst}/charging_stations/`).set(auth(tokens.user)).send([{ id: 1, name: 'x' }]).expect(403)
    await api().put(`${inst}/charging_stations/`).set(auth(tokens.admin)).send([]).expect(400)
    await api().put(`${inst}/charging_stations/`).set(auth(tokens.admin)).send([{ id: other.stationId, name: 'x' }]).expect(404)
    await api().put(`${inst}/charging_stations/`).set(auth(tokens.bern)).send([{ id: 1, name: 'x' }]).expect(403)
  })

  it('serves the /ladestation/ aliases: list, edit, turn off', async () => {
    const list = await api().get('/api/ladestation/?installation=1&limit=2&offset=1').set(auth(tokens.admin)).expect(200)
    expect(list.body.count).toBe(7)
    expect(list.body.results.map((s: { id: number }) => s.id)).toEqual([2, 3])
    const mine = await api().get('/api/ladestation/?installation=1').set(auth(tokens.user)).expect(200)
    expect(mine.body.results.map((s: { id: number }) => s.id)).toEqual([1, 2])
    await api().get('/api/ladestation/').set(auth(tokens.admin)).expect(400)
    const patched = await api().patch('/api/ladestation/3/').set(auth(tokens.admin)).send({ charging_mode: 'optimized' }).expect(200)
    expect(patched.body.charging_mode).toBe('optimized')
    await api().patch('/api/ladestation/3/').set(auth(tokens.bern)).send({ name: 'x' }).expect(403)
    await api().patch('/api/ladestation/99999/').set(auth(tokens.admin)).send({ name: 'x' }).expect(404)
    await api().post('/api/ladestation/turn-off/?installation=1').set(auth(tokens.user)).send({}).expect(403)
    await api().post('/api/ladestation/turn-off/?installation=1').set(auth(tokens.user)).send({ id: 1 }).expect(403)
    const one = await api().post('/api/ladestation/turn-off/?installation=1').set(auth(tokens.admin)).send({ id: 3 }).expect(200)
    expect(one.body).toEqual([expect.objectContaining({ id: 3, charging_mode: 'locked', status: 'off' })])
    // A resident reads station 1 but may not change it; station 6 is not theirs at all.
    await api().patch('/api/ladestation/1/').set(auth(tokens.user)).send({ name: 'x' }).expect(403)
    await api().patch('/api/ladestation/6/').set(auth(tokens.user)).send({ charging_mode: 'instant' }).expect(404)
    const all = await api().post(`/api/ladestation/turn-off/?installation=${other.installationId}`).set(auth(tokens.bern)).send({}).expect(200)
    expect(all.body.map((s: { charging_mode: string }) => s.charging_mode)).toEqual(['locked'])
  })

  it('groups readable stations by object node, with stats', async () => {
    const grouped = await api().get(`${inst}/objects/charging_stations`).set(auth(tokens.admin)).expect(200)
    expect(grouped.body).toHaveLength(1)
    expect(grouped.body[0]).toMatchObject({ description: 'Garage', object_type: 'garage' })
    expect(grouped.body[0].charging_stations).toHaveLength(7)
    const garage = grouped.body[0].id as number
    const objects = await api().get(`${inst}/objects/charging_stations/objects`).set(auth(tokens.user)).expect(200)
    expect(objects.body.map((o: { description: string }) => o.description)).toEqual(['Residence Zürich', 'Common areas', 'Garage'])
    const building = objects.body[0].id as number
    const below = await api().get(`${inst}/objects/${building}/charging_stations`).set(auth(tokens.user)).expect(200)
    expect(below.body.map((s: { id: number }) => s.id)).toEqual([1, 2])
    const inGarage = await api().get(`${inst}/objects/${garage}/charging_stations`).set(auth(tokens.admin)).expect(200)
    expect(inGarage.body).toHaveLength(7)
    await api().get(`${inst}/objects/99999/charging_stations`).set(auth(tokens.admin)).expect(404)
    await api().get(`${inst}/objects/charging_stations`).set(auth(tokens.bern)).expect(403)
    const stats = await api().get(`${inst}/objects/charging_stations/stats`).set(auth(tokens.admin)).expect(200)
    expect(stats.body.count).toBe(7)
    expect(stats.body.ready + stats.body.running + stats.body.error + stats.body.disabled).toBe(7)
    expect(stats.body.disabled).toBeGreaterThanOrEqual(2)
    const userStats = await api().get(`${inst}/objects/charging_stations/stats`).set(auth(tokens.user)).expect(200)
    expect(userStats.body.count).toBe(2)
  })
})
