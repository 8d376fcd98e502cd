import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startApp, startWithTokens, login, type RoleTokens } from './helpers.ts'

// Issue 13 §3 (SPEC §4): no heartbeat for 60 s → offline since the last one; changes made meanwhile wait
// and are sent once each, in order, on reconnect, with their outcome in the journal.
let app: FastifyInstance
let tokens: RoleTokens

beforeAll(async () => {
  ;({ app, tokens } = await startWithTokens(['api', 'simulator']))
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const station = (id: number) => `/api/cockpit/installations/1/charging_stations/${id}/`
const info = async () => (await api().get('/api/cockpit/installations/1/info').set(auth(tokens.user)).expect(200)).body
const journal = async (id: number) =>
  (await api().get(`${station(id)}journal`).query({ entry_type: 'journal_entry', limit: 1000 }).set(auth(tokens.admin)).expect(200)).body.results as { charging_mode: string; detail: string }[]
const T0 = new Date('2026-03-02T09:00:00Z')
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)

describe('offline after 60 s without a heartbeat', () => {
  it('stays online up to 60 s after the last heartbeat, then is offline since it; a heartbeat brings it back', async () => {
    await app.simulator!.tick(T0)
    expect(await app.domain!.devices.sweep(at(60))).toEqual([])
    expect(await info()).toMatchObject({ online: true, offline_since: null })
    expect(await app.domain!.devices.sweep(at(61))).toContain(1)
    expect(await info()).toMatchObject({ online: false, offline_since: T0.toISOString() })
    await app.domain!.devices.heartbeat(1, at(120))
    expect(await info()).toMatchObject({ online: true, offline_since: null })
  })
})

describe('changes made while offline', () => {
  it('are shown pending, the latest change of a field wins, and each is sent once, in order, and journaled', async () => {
    await app.domain!.devices.heartbeat(1, at(200))
    await app.domain!.devices.sweep(at(300))
    expect((await info()).online).toBe(false)
    const before = (await api().get(station(1)).set(auth(tokens.admin)).expect(200)).body
    expect(before.charging_mode).not.toBe('locked')

    const first = await api().patch(station(1)).set(auth(tokens.admin)).send({ charging_mode: 'solar', name: 'Garage 1' }).expect(200)
    // The name is the portal's own and changes at once; the mode waits for the facility.
    expect(first.body).toMatchObject({ name: 'Garage 1', charging_mode: before.charging_mode, pending_changes: [{ field: 'charging_mode', value: 'solar' }] })
    await api().patch(station(2)).set(auth(tokens.admin)).send({ charging_mode: 'optimized' }).expect(200)
    // Turn-off of station 1: supersedes the waiting "solar".
    await api().post('/api/ladestation/turn-off/').query({ installation: 1 }).set(auth(tokens.admin)).send({ id: 1 }).expect(200)
    const shown = (await api().get(station(1)).set(auth(tokens.user)).expect(200)).body
    expect(shown.pending_changes).toEqual([expect.objectContaining({ field: 'charging_mode', value: 'locked' })])
    // The stations list (the relay's stations topic) carries the markers too.
    const list = (await api().get('/api/cockpit/installations/1/charging_stations/').set(auth(tokens.admin)).expect(200)).body.results
    expect(list.find((s: { id: number }) => s.id === 2).pending_changes).toEqual([expect.objectContaining({ value: 'optimized' })])
    // Learning mode needs a car: it waits too and fails on reconnect if none is plugged in.
    await app.domain!.db.updateTable('charging_stations').set({ status: 'noCar' }).where('id', '=', 3).execute()
    await api().patch(station(3)).set(auth(tokens.admin)).send({ rfid_lernmodus: 1 }).expect(200)
    // A resident's refused change is refused now, not queued.
    await api().patch(station(1)).set(auth(tokens.user)).send({ charging_mode: 'instant' }).expect(403)

    const sent = await app.domain!.devices.heartbeat(1, at(400))
    expect(sent.map((c) => [c.target_id, c.field, c.value, c.outcome, c.reason])).toEqual([
      [2, 'charging_mode', 'optimized', 'applied', null],
      [1, 'charging_mode', 'locked', 'applied', null],
      [3, 'rfid_lernmodus', 1, 'failed', 'learningNoCar'],
    ])
    const after = (await api().get(station(1)).set(auth(tokens.admin)).expect(200)).body
    expect(after).toMatchObject({ charging_mode: 'locked', status: 'off', pending_changes: [] })
    expect((await api().get(station(2)).set(auth(tokens.admin)).expect(200)).body.charging_mode).toBe('optimized')
    expect((await api().get(station(3)).set(auth(tokens.admin)).expect(200)).body.rfid_lernmodus).toBe(0)

    // Sent once: further heartbeats (the simulator's next steps) send nothing again.
    expect(await app.domain!.devices.heartbeat(1, at(405))).toEqual([])
    await app.simulator!.tick(at(410))
    const j1 = await journal(1)
    expect(j1.filter((e) => e.detail.startsWith('offline_'))).toEqual([expect.objectContaining({ detail: 'offline_applied:charging_mode', charging_mode: 'locked' })])
    expect(j1.some((e) => e.charging_mode === 'solar')).toBe(false)
    expect((await journal(3)).filter((e) => e.detail.startsWith('offline_'))).toEqual([expect.objectContaining({ detail: 'offline_failed:rfid_lernmodus:learningNoCar' })])
  })

  it('timer changes of a station are stored, marked pending, and sent once on reconnect; a later change supersedes', async () => {
    await app.domain!.devices.sweep(at(1000))
    expect((await info()).online).toBe(false)
    const timers = '/api/cockpit/installations/1/timers/'
    const body = { object_type: 'charging_station', object_id: 4, start_time: '07:15', description: 'Morning', charging_mode: 'solar', repeat_monday: true, repeat_tuesday: false, repeat_wednesday: false, repeat_thursday: false, repeat_friday: false, repeat_saturday: false, repeat_sunday: false }
    const created = (await api().post(timers).set(auth(tokens.admin)).send(body).expect(201)).body
    expect(created.pending).toBe(true)
    await api().patch(`${timers}${created.id}/`).set(auth(tokens.admin)).send({ start_time: '07:30' }).expect(200)
    await api().patch(`${timers}${created.id}/`).set(auth(tokens.admin)).send({ start_time: '07:45' }).expect(200)
    const gone = (await api().post(timers).set(auth(tokens.admin)).send({ ...body, start_time: '23:00' }).expect(201)).body
    await api().delete(`${timers}${gone.id}/`).set(auth(tokens.admin)).expect(204)
    // The list marks what waits: the kept timer, not the station's other timers.
    const listed = (await api().get(timers).query({ object_type: 'charging_station', object_id: 4 }).set(auth(tokens.admin)).expect(200)).body.results
    expect(listed.find((t: { id: number }) => t.id === created.id).pending).toBe(true)
    expect(listed.filter((t: { pending: boolean }) => !t.pending).length).toBe(listed.length - 1)

    const sent = await app.domain!.devices.heartbeat(1, at(1100))
    expect(sent.map((c) => [c.target_type, c.target_id, c.field, c.outcome])).toEqual([
      ['timer', created.id, 'create', 'applied'],
      ['timer', created.id, 'update', 'applied'],
      ['timer', gone.id, 'delete', 'applied'],
    ])
    expect((await api().get(`${timers}${created.id}/`).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ start_time: '07:45', pending: false })
    expect(await app.domain!.devices.heartbeat(1, at(1105))).toEqual([])
    const details = (await journal(4)).map((e) => e.detail).filter((d) => d.startsWith('offline_'))
    expect(details.sort()).toEqual(['offline_applied:timer_create:07:15', 'offline_applied:timer_delete:23:00', 'offline_applied:timer_update:07:45'])
  })

  it('changes made while online apply at once, with no pending marker', async () => {
    expect((await info()).online).toBe(true)
    const r = await api().patch(station(2)).set(auth(tokens.admin)).send({ charging_mode: 'instant' }).expect(200)
    expect(r.body).toMatchObject({ charging_mode: 'instant', pending_changes: [] })
  })
})

describe('demo control of the connection', () => {
  const control = (token: string, online: boolean, id = 1) => api().post(`/api/cockpit/installations/${id}/simulator/connection`).set(auth(token)).send({ online })

  it('is for admins of the installation; cuts the facility off at once and restores it at the next step', async () => {
    await control(tokens.user, false).expect(403)
    await control(tokens.bern, false).expect(403)
    await api().post('/api/cockpit/installations/1/simulator/connection').send({ online: false }).expect(401)
    await control(tokens.admin, false).expect(202, { installation_id: 1, online: false })
    expect((await info()).online).toBe(false)
    // While cut, the simulator's steps send no heartbeat.
    await app.simulator!.tick(at(500))
    expect((await info()).online).toBe(false)
    await api().patch(station(2)).set(auth(tokens.admin)).send({ charging_mode: 'solar' }).expect(200)
    await control(tokens.super, true).expect(202)
    await app.simulator!.tick(at(505))
    expect((await info()).online).toBe(true)
    expect((await api().get(station(2)).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ charging_mode: 'solar', pending_changes: [] })
  })

  it('answers 404 where no simulator runs (not a demo)', async () => {
    const bare = await startApp({ roles: ['api'] })
    try {
      await request(bare.app.server).post('/api/cockpit/installations/1/simulator/connection').set(auth(await login(bare.app, 'admin@example.com'))).send({ online: false }).expect(404)
    } finally {
      await bare.app.close()
    }
  })
})
