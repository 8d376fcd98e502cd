import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startApp, startWithTokens, login, type RoleTokens } from './helpers.ts'

// SPEC §4, docs/decisions.md "Devices: changes made while offline wait": no heartbeat for 60 s → offline
// since the last one; changes made meanwhile wait and are sent once each, in order, on reconnect, with their
// outcome in the journal.
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

describe('RFID changes made while offline', () => {
  const rfid = (id: number) => `/api/cockpit/installations/1/rfids/${id}/`
  const db = () => app.domain!.db
  const cardsOf = async () => (await db().selectFrom('rfids').select(['id', 'tag', 'user_id']).where('installation_id', '=', 1).where('active', '=', true).orderBy('id').execute())
  const seenByDevices = async (id: number) => (await app.domain!.devices.equipment(1)).rfids.find((r) => r.id === id)

  it('wait as pending on the card, the latest change of a field wins, and each is sent once, in order, and journaled', async () => {
    await app.domain!.devices.heartbeat(1, at(2000))
    await app.domain!.devices.sweep(at(2100))
    expect((await info()).online).toBe(false)
    const [a, b, c] = (await cardsOf()).filter((r) => r.user_id === null)

    // Allowed stations reach the stations: they wait; the description is the portal's own and changes at once.
    const limited = await api().patch(rfid(a.id)).set(auth(tokens.admin)).send({ all_stations: false, station_ids: [2], description: 'Limited' }).expect(200)
    expect(limited.body).toMatchObject({ description: 'Limited', all_stations: true, station_ids: [], pending_changes: [{ field: 'stations', value: { all_stations: false, station_ids: [2] } }] })
    // Deleting (deactivating, SPEC §4) waits too: the card still works until the facility is back.
    await api().delete(rfid(b.id)).set(auth(tokens.admin)).expect(204)
    expect((await api().get(rfid(b.id)).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ active: true, pending_changes: [{ field: 'active', value: false }] })
    // A tag change that will collide by the time it is sent.
    await api().patch(rfid(c.id)).set(auth(tokens.admin)).send({ tag: 'OFFLINE02' }).expect(200)
    // A new card is recorded at once and marked as not yet sent.
    const created = (await api().post('/api/cockpit/installations/1/rfids/').set(auth(tokens.admin)).send({ tag: 'OFFLINE02' }).expect(201)).body
    expect(created.pending_changes).toEqual([expect.objectContaining({ field: 'create' })])
    // A later change of the same field supersedes the waiting one.
    await api().post(`/api/rfids/${a.id}/charging_stations`).set(auth(tokens.admin)).send({ device_ids: [] }).expect(200)
    await api().put(`/api/rfids/${a.id}/charging_stations`).set(auth(tokens.admin)).send({ device_ids: [(await db().selectFrom('charging_stations').select('device_id').where('id', '=', 3).executeTakeFirstOrThrow()).device_id] }).expect(200)
    const listed = (await api().get('/api/cockpit/installations/1/rfids/').set(auth(tokens.admin)).expect(200)).body.results as { id: number; pending_changes: { field: string; value: unknown }[] }[]
    expect(listed.find((r) => r.id === a.id)!.pending_changes).toEqual([expect.objectContaining({ field: 'stations', value: { all_stations: false, station_ids: [3] } })])
    // The stations still work with what they have.
    expect(await seenByDevices(a.id)).toEqual({ id: a.id, user_id: null, tag: a.tag })
    expect(await seenByDevices(b.id)).toBeDefined()
    expect((await seenByDevices(c.id))?.tag).toBe(c.tag)
    // A refused change is refused now, not queued: a resident may not limit even their own card.
    const own = (await cardsOf()).find((r) => r.user_id !== null)!
    await api().patch(rfid(own.id)).set(auth(tokens.user)).send({ all_stations: false, station_ids: [1] }).expect(403)

    const sent = await app.domain!.devices.heartbeat(1, at(2200))
    expect(sent.map((x) => [x.target_type, x.target_id, x.field, x.outcome, x.reason])).toEqual([
      ['rfid', b.id, 'active', 'applied', null],
      ['rfid', c.id, 'tag', 'failed', 'rfidTagExists'],
      ['rfid', created.id, 'create', 'applied', null],
      ['rfid', a.id, 'stations', 'applied', null],
    ])
    expect((await api().get(rfid(a.id)).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ all_stations: false, station_ids: [3], pending_changes: [] })
    expect(await seenByDevices(a.id)).toEqual({ id: a.id, user_id: null, tag: a.tag, station_ids: [3] })
    expect((await api().get(rfid(b.id)).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ active: false, pending_changes: [] })
    expect(await seenByDevices(b.id)).toBeUndefined()
    expect((await api().get(rfid(c.id)).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ tag: c.tag, pending_changes: [] })
    expect(await app.domain!.devices.heartbeat(1, at(2205))).toEqual([])

    // Journaled on the stations the change reached, with the card for those who may read it.
    const onStation3 = (await journal(3)).filter((e) => /^offline_\w+:card_/.test(e.detail))
    expect(onStation3.map((e) => e.detail).sort()).toEqual(['offline_applied:card_active', 'offline_applied:card_create', 'offline_applied:card_stations', 'offline_failed:card_tag:rfidTagExists'])
    expect((await journal(1)).map((e) => e.detail)).toContain('offline_applied:card_stations')
    const cardJournal = (await api().get(`${rfid(c.id)}journal`).query({ entry_type: 'journal_entry' }).set(auth(tokens.admin)).expect(200)).body.results
    expect(cardJournal.map((e: { detail: string; rfid: string }) => [e.detail, e.rfid])).toContainEqual(['offline_failed:card_tag:rfidTagExists', c.tag])
  })

  it('apply at once while online, with no pending marker', async () => {
    expect((await info()).online).toBe(true)
    const [a] = (await cardsOf()).filter((r) => r.user_id === null)
    const r = await api().patch(rfid(a.id)).set(auth(tokens.admin)).send({ all_stations: true }).expect(200)
    expect(r.body).toMatchObject({ all_stations: true, pending_changes: [] })
  })
})
