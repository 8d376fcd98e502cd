import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, AT, auth, login, startApp, type RoleTokens } from './helpers.ts'
import { createTestClock } from '../../server/lib/clock.ts'

let app: FastifyInstance
let other: Awaited<ReturnType<typeof addOtherInstallation>>
let tokens: RoleTokens
// A clock that stands still at a Wednesday morning: the simulator steps only when a test ticks it.
const clock = createTestClock(AT.morning)

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api', 'simulator'], clock }))
  other = await addOtherInstallation(app)
  tokens = { super: await login(app, 'super@example.com'), admin: await login(app, 'admin@example.com'), user: await login(app, 'user@example.com'), bern: await login(app, other.adminEmail) }
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const base = '/api/cockpit/installations/1/rfids'

describe('RFIDs, installation family', () => {
  it('lists every active card for admins and only their own for a resident', async () => {
    const adm = await api().get(`${base}/`).set(auth(tokens.admin)).expect(200)
    expect(adm.body.count).toBe(6)
    expect(adm.body.results[0]).toMatchObject({ id: 1, tag: '04A1B2C3D4E501', active: true, all_stations: true, user_name: 'Laura Brunner' })
    const usr = await api().get(`${base}/`).set(auth(tokens.user)).expect(200)
    expect(usr.body.results.map((r: { id: number }) => r.id)).toEqual([1])
    await api().get(`${base}/2/`).set(auth(tokens.user)).expect(404)
    await api().get(`${base}/`).set(auth(tokens.bern)).expect(403)
    await api().get(`${base}/1/`).set(auth(tokens.bern)).expect(403)
    const sup = await api().get(`/api/cockpit/installations/${other.installationId}/rfids/`).set(auth(tokens.super)).expect(200)
    expect(sup.body.count).toBe(0)
  })

  it('refuses a tag with spaces in the caller language, and a duplicate active tag', async () => {
    const en = await api().post(`${base}/`).set(auth(tokens.admin)).send({ tag: '04 A1 B2' }).expect(400)
    expect(en.body).toEqual({ tag: ['The RFID tag must not contain spaces.'] })
    const de = await api().post(`${base}/`).set({ ...auth(tokens.admin), 'Accept-Language': 'de-CH' }).send({ tag: '04\tA1' }).expect(400)
    expect(de.body.tag).toEqual(['Der RFID-Tag darf keine Leerzeichen enthalten.'])
    const dup = await api().post(`${base}/`).set(auth(tokens.admin)).send({ tag: '04A1B2C3D4E502' }).expect(400)
    expect(dup.body.tag).toEqual(['An active RFID with this tag already exists in this facility.'])
    const missing = await api().post(`${base}/`).set(auth(tokens.admin)).send({}).expect(400)
    expect(missing.body.tag).toEqual(['The field is required.'])
    const badStation = await api().post(`${base}/`).set(auth(tokens.admin)).send({ tag: 'ABC', all_stations: false, station_ids: [other.stationId] }).expect(400)
    expect(badStation.body.station_ids).toBeDefined()
  })

  it('lets an admin add a card with per-station permissions (description optional), edit and delete it', async () => {
    const created = await api().post(`${base}/`).set(auth(tokens.admin)).send({ tag: '  DEADBEEF01 ', all_stations: false, station_ids: [2, 1] }).expect(201)
    expect(created.body).toMatchObject({ tag: 'DEADBEEF01', description: '', all_stations: false, station_ids: [1, 2], active: true })
    const id = created.body.id as number
    const edited = await api().patch(`${base}/${id}/`).set(auth(tokens.admin)).send({ description: 'Visitor card', all_stations: true }).expect(200)
    expect(edited.body).toMatchObject({ description: 'Visitor card', all_stations: true, station_ids: [] })
    await api().delete(`${base}/${id}/`).set(auth(tokens.admin)).expect(204)
    const row = await app.domain!.db.selectFrom('rfids').select('active').where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.active).toBe(false)
    const after = await api().get(`${base}/`).set(auth(tokens.admin)).expect(200)
    expect(after.body.results.map((r: { id: number }) => r.id)).not.toContain(id)
    // The tag is free again once the card is inactive.
    await api().post(`${base}/`).set(auth(tokens.admin)).send({ tag: 'DEADBEEF01' }).expect(201)
  })

  it('lets a resident rename their own card but not re-assign, re-tag or delete it', async () => {
    const r = await api().patch(`${base}/1/`).set(auth(tokens.user)).send({ description: 'My Tesla' }).expect(200)
    expect(r.body.description).toBe('My Tesla')
    await api().patch(`${base}/1/`).set(auth(tokens.user)).send({ tag: 'NEWTAG' }).expect(403)
    await api().delete(`${base}/1/`).set(auth(tokens.user)).expect(403)
    await api().patch(`${base}/2/`).set(auth(tokens.user)).send({ description: 'x' }).expect(404)
    await api().post(`${base}/`).set(auth(tokens.user)).send({ tag: 'MINE' }).expect(403)
    await api().patch(`${base}/1/`).set(auth(tokens.bern)).send({ description: 'x' }).expect(403)
  })
})

describe('RFIDs, global family', () => {
  it('lists the caller cards across installations and creates with ?installation', async () => {
    const sup = await api().get('/api/rfids/?limit=1000').set(auth(tokens.super)).expect(200)
    expect(sup.body.count).toBeGreaterThanOrEqual(6)
    const bern = await api().get('/api/rfids/').set(auth(tokens.bern)).expect(200)
    expect(bern.body.count).toBe(0)
    const noInst = await api().post('/api/rfids/').set(auth(tokens.bern)).send({ tag: 'BERN01' }).expect(400)
    expect(noInst.body.detail).toBe('No installationId')
    await api().post('/api/rfids/?installation=1').set(auth(tokens.bern)).send({ tag: 'BERN01' }).expect(403)
    const made = await api().post(`/api/rfids/?installation=${other.installationId}`).set(auth(tokens.bern)).send({ tag: 'BERN01' }).expect(201)
    expect(made.body.installation_id).toBe(other.installationId)
    await api().get(`/api/rfids/${made.body.id}/`).set(auth(tokens.bern)).expect(200)
    await api().get(`/api/rfids/${made.body.id}/`).set(auth(tokens.admin)).expect(403)
    await api().get('/api/rfids/2/').set(auth(tokens.bern)).expect(403)
    await api().get('/api/rfids/99999/').set(auth(tokens.super)).expect(404)
    const put = await api().put(`/api/rfids/${made.body.id}/`).set(auth(tokens.bern)).send({ description: 'Bern visitor' }).expect(200)
    expect(put.body.description).toBe('Bern visitor')
  })

  it('manages the stations of a card by device id', async () => {
    const all = await api().get('/api/rfids/3/charging_stations').set(auth(tokens.admin)).expect(200)
    expect(all.body.all_stations).toBe(true)
    expect(all.body.results).toHaveLength(7)
    const put = await api().put('/api/rfids/3/charging_stations').set(auth(tokens.admin)).send({ device_ids: ['CH-ZH-DEMO-001'] }).expect(200)
    expect(put.body.results.map((s: { device_id: string }) => s.device_id)).toEqual(['CH-ZH-DEMO-001'])
    const post = await api().post('/api/rfids/3/charging_stations').set(auth(tokens.admin)).send({ device_ids: ['CH-ZH-DEMO-003'] }).expect(200)
    expect(post.body.results.map((s: { device_id: string }) => s.device_id)).toEqual(['CH-ZH-DEMO-001', 'CH-ZH-DEMO-003'])
    await api().post('/api/rfids/3/charging_stations').set(auth(tokens.admin)).send({ device_ids: ['BE-1'] }).expect(400)
    await api().delete('/api/rfids/3/charging_stations/CH-ZH-DEMO-001').set(auth(tokens.admin)).expect(204)
    const left = await api().get('/api/rfids/3/charging_stations').set(auth(tokens.admin)).expect(200)
    expect(left.body.results.map((s: { device_id: string }) => s.device_id)).toEqual(['CH-ZH-DEMO-003'])
    await api().delete('/api/rfids/3/charging_stations/CH-ZH-DEMO-001').set(auth(tokens.admin)).expect(404)
    await api().put('/api/rfids/1/charging_stations').set(auth(tokens.user)).send({ device_ids: [] }).expect(403)
    await api().put('/api/rfids/3/charging_stations').set(auth(tokens.bern)).send({ device_ids: [] }).expect(403)
  })
})

describe('timers', () => {
  const tbase = '/api/cockpit/installations/1/timers'
  it('CRUD for admins with HH:mm validation; residents read the timers of their stations only', async () => {
    const list = await api().get(`${tbase}/?object_type=charging_station&object_id=4`).set(auth(tokens.admin)).expect(200)
    expect(list.body.results.map((t: { start_time: string }) => t.start_time)).toEqual(['06:30', '22:00'])
    const bad = await api().post(`${tbase}/`).set({ ...auth(tokens.admin), 'Accept-Language': 'fr' }).send({ object_type: 'charging_station', object_id: 1, start_time: '25:00', charging_mode: 'instant' }).expect(400)
    expect(bad.body.start_time).toEqual(['Saisissez une heure au format HH:mm (00:00 à 23:59).'])
    const badMode = await api().post(`${tbase}/`).set(auth(tokens.admin)).send({ object_type: 'charging_station', object_id: 1, start_time: '08:00', charging_mode: 'timer' }).expect(400)
    expect(badMode.body.charging_mode).toBeDefined()
    await api().post(`${tbase}/`).set(auth(tokens.admin)).send({ object_type: 'charging_station', object_id: other.stationId, start_time: '08:00', charging_mode: 'instant' }).expect(400)
    const made = await api().post(`${tbase}/`).set(auth(tokens.admin)).send({ object_type: 'charging_station', object_id: 1, start_time: '08:15', repeat_monday: true, charging_mode: 'solar' }).expect(201)
    expect(made.body).toMatchObject({ object_id: 1, start_time: '08:15', repeat_monday: true, repeat_sunday: false, description: '', charging_mode: 'solar' })
    const id = made.body.id
    const patched = await api().patch(`${tbase}/${id}/`).set(auth(tokens.admin)).send({ description: 'Morning sun', start_time: '09:00' }).expect(200)
    expect(patched.body).toMatchObject({ description: 'Morning sun', start_time: '09:00', charging_mode: 'solar' })
    const put = await api().put(`${tbase}/${id}/`).set(auth(tokens.admin)).send({ charging_mode: 'instant' }).expect(200)
    expect(put.body.charging_mode).toBe('instant')
    // The resident reads station 1's timer but not station 4's and cannot change anything.
    const usr = await api().get(`${tbase}/`).set(auth(tokens.user)).expect(200)
    expect(usr.body.results.map((t: { id: number }) => t.id)).toEqual([id])
    await api().get(`${tbase}/1/`).set(auth(tokens.user)).expect(404)
    await api().patch(`${tbase}/${id}/`).set(auth(tokens.user)).send({ description: 'x' }).expect(403)
    await api().delete(`${tbase}/${id}/`).set(auth(tokens.user)).expect(403)
    await api().get(`${tbase}/${id}/`).set(auth(tokens.bern)).expect(403)
    await api().get(`/api/cockpit/installations/${other.installationId}/timers/${id}/`).set(auth(tokens.bern)).expect(404)
    await api().delete(`${tbase}/${id}/`).set(auth(tokens.super)).expect(204)
    await api().get(`${tbase}/${id}/`).set(auth(tokens.admin)).expect(404)
  })

  it('refuses a timer without a day and one that contradicts another at the same minute, in the caller language', async () => {
    const admin = auth(tokens.admin)
    const station = { object_type: 'charging_station', object_id: 2 }
    const noDay = await api().post(`${tbase}/`).set(admin).send({ ...station, start_time: '07:00', charging_mode: 'instant' }).expect(400)
    expect(noDay.body).toEqual({ repeat_days: ['The field is required.'] })
    const noDayDe = await api().post(`${tbase}/`).set({ ...admin, 'Accept-Language': 'de' }).send({ ...station, start_time: '07:00', charging_mode: 'instant' }).expect(400)
    expect(noDayDe.body).toEqual({ repeat_days: ['Das Feld ist erforderlich.'] })
    const instant = await api().post(`${tbase}/`).set(admin).send({ ...station, start_time: '07:00', repeat_monday: true, repeat_tuesday: true, charging_mode: 'instant' }).expect(201)
    // Locked at the same minute on a day the instant timer also runs: refused.
    const clash = await api().post(`${tbase}/`).set(admin).send({ ...station, start_time: '07:00', repeat_tuesday: true, charging_mode: 'locked' }).expect(400)
    expect(clash.body).toEqual({ start_time: ['Another timer starts at this time on the same day with a different charging mode.'] })
    const clashFr = await api().post(`${tbase}/`).set({ ...admin, 'Accept-Language': 'fr' }).send({ ...station, start_time: '07:00', repeat_tuesday: true, charging_mode: 'locked' }).expect(400)
    expect(clashFr.body.start_time[0]).toMatch(/^Un autre minuteur/)
    // The same minute on other days, or another station at that minute, is fine.
    const wednesday = await api().post(`${tbase}/`).set(admin).send({ ...station, start_time: '07:00', repeat_wednesday: true, charging_mode: 'locked' }).expect(201)
    const elsewhere = await api().post(`${tbase}/`).set(admin).send({ object_type: 'charging_station', object_id: 3, start_time: '07:00', repeat_tuesday: true, charging_mode: 'locked' }).expect(201)
    // An edit cannot create the clash (adding Monday to the Wednesday timer) nor remove every day.
    const edit = await api().patch(`${tbase}/${wednesday.body.id}/`).set(admin).send({ repeat_monday: true }).expect(400)
    expect(edit.body.start_time).toBeDefined()
    const none = await api().patch(`${tbase}/${instant.body.id}/`).set(admin).send({ repeat_monday: false, repeat_tuesday: false }).expect(400)
    expect(none.body).toEqual({ repeat_days: ['The field is required.'] })
    // Nothing was stored by the refused calls; a timer edited without a clash is saved.
    const list = await api().get(`${tbase}/?object_type=charging_station&object_id=2`).set(admin).expect(200)
    expect(list.body.results.filter((t: { start_time: string }) => t.start_time === '07:00').map((t: { charging_mode: string; repeat_monday: boolean }) => [t.charging_mode, t.repeat_monday])).toEqual([['instant', true], ['locked', false]])
    await api().patch(`${tbase}/${wednesday.body.id}/`).set(admin).send({ repeat_thursday: true }).expect(200)
    for (const id of [instant.body.id, wednesday.body.id, elsewhere.body.id]) await api().delete(`${tbase}/${id}/`).set(admin).expect(204)
  })

  it('the simulator follows the timer of a station in timer mode', async () => {
    const list = await api().get(`${tbase}/?object_id=4&object_type=charging_station`).set(auth(tokens.admin)).expect(200)
    for (const t of list.body.results) await api().delete(`${tbase}/${t.id}/`).set(auth(tokens.admin)).expect(204)
    const everyDay = { repeat_monday: true, repeat_tuesday: true, repeat_wednesday: true, repeat_thursday: true, repeat_friday: true, repeat_saturday: true, repeat_sunday: true }
    const made = await api().post(`${tbase}/`).set(auth(tokens.admin)).send({ object_type: 'charging_station', object_id: 4, start_time: '00:00', ...everyDay, charging_mode: 'locked' }).expect(201)
    const status = async () => (await api().get('/api/cockpit/installations/1/charging_stations/4/').set(auth(tokens.admin)).expect(200)).body.status
    await app.simulator!.tick(clock.now())
    expect(await status()).toBe('off')
    await api().patch(`${tbase}/${made.body.id}/`).set(auth(tokens.admin)).send({ charging_mode: 'instant' }).expect(200)
    await app.simulator!.tick(new Date(clock.ms() + 5000))
    expect(await status()).not.toBe('off')
    // The switch the timer made is in the station's journal, flagged as set by timer.
    const journal = await api().get('/api/cockpit/installations/1/charging_stations/4/journal?entry_type=journal_entry').set(auth(tokens.admin)).expect(200)
    expect(journal.body.results[0]).toMatchObject({ type: 'journal_entry', charging_mode: 'instant', set_by_timer: true, detail: 'mode_changed' })
  })

  it('follows the timer whose start passed most recently: at night, in the morning and in the evening', async () => {
    // Every day: instant from 06:00, locked from 20:00. The simulator steps at chosen local times of
    // Wednesday 4 and Thursday 5 March (a step every 5 s of clock time from morning to evening would be
    // 8640 steps); the mode the station follows shows in its status (locked: off) and its journal.
    const list = await api().get(`${tbase}/?object_id=4&object_type=charging_station`).set(auth(tokens.admin)).expect(200)
    for (const t of list.body.results) await api().delete(`${tbase}/${t.id}/`).set(auth(tokens.admin)).expect(204)
    const everyDay = { repeat_monday: true, repeat_tuesday: true, repeat_wednesday: true, repeat_thursday: true, repeat_friday: true, repeat_saturday: true, repeat_sunday: true }
    for (const [start_time, charging_mode] of [['06:00', 'instant'], ['20:00', 'locked']]) {
      await api().post(`${tbase}/`).set(auth(tokens.admin)).send({ object_type: 'charging_station', object_id: 4, start_time, ...everyDay, charging_mode }).expect(201)
    }
    const status = async () => (await api().get('/api/cockpit/installations/1/charging_stations/4/').set(auth(tokens.admin)).expect(200)).body.status
    const lastSwitch = async () => (await api().get('/api/cockpit/installations/1/charging_stations/4/journal?entry_type=journal_entry').set(auth(tokens.admin)).expect(200)).body.results[0]
    const day = 86_400_000
    const before = new Date(clock.ms() + 5000)
    const evening = new Date(AT.evening)
    const nextMorning = new Date(Date.parse(AT.morning) + day)
    // Each step: the instant, the mode the station follows, and when its newest journaled switch was.
    const steps = [
      // 09:00: the 06:00 timer, instant, as the station followed at the step before: no new switch.
      { at: new Date(clock.ms() + 10_000), mode: 'instant', switchedAt: before },
      // 21:00: the 20:00 timer.
      { at: evening, mode: 'locked', switchedAt: evening },
      // 03:00 the next night: still yesterday's 20:00 timer.
      { at: new Date(Date.parse(AT.night) + day), mode: 'locked', switchedAt: evening },
      // 09:00 the next morning: the 06:00 timer again.
      { at: nextMorning, mode: 'instant', switchedAt: nextMorning },
    ]
    for (const { at, mode, switchedAt } of steps) {
      await app.simulator!.tick(at)
      if (mode === 'locked') expect(await status()).toBe('off')
      else expect(await status()).not.toBe('off')
      const last = await lastSwitch()
      expect(last).toMatchObject({ charging_mode: mode, start: switchedAt.toISOString(), set_by_timer: true })
    }
  })
})

describe('ordering a new RFID card', () => {
  const order = { first_name: 'Laura', last_name: 'Brunner', address: 'Seestrasse 12', zip_code: '8002', city: 'Zürich', quantity: 2 }
  it('validates the delivery form in the caller language and checks the installation', async () => {
    const bad = await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set({ ...auth(tokens.user), 'Accept-Language': 'de' }).send({ first_name: 'Laura' }).expect(400)
    expect(bad.body).toMatchObject({ last_name: ['Das Feld ist erforderlich.'], address: ['Das Feld ist erforderlich.'], city: ['Das Feld ist erforderlich.'] })
    const none = await api().post('/api/emails/send-ordering-new-rfid/').set(auth(tokens.user)).send(order).expect(400)
    expect(none.body.detail).toBe('No installationId')
    await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set(auth(tokens.bern)).send(order).expect(403)
    await api().post('/api/emails/send-ordering-new-rfid/?installation=1').send(order).expect(401)
  })

  it('puts the order through the mail outbox to the orderer and the facility admins, CHF 25 a card', async () => {
    const r = await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set(auth(tokens.user)).send(order).expect(201)
    expect(r.body).toEqual({ detail: 'The RFID has been ordered. It will be delivered in 3–4 working days.', quantity: 2, price: 50 })
    const mails = await app.domain!.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'rfid-order').orderBy('id').execute()
    expect(mails.map((m) => m.recipient).sort()).toEqual(['admin@example.com', 'user@example.com'])
    for (const m of mails) {
      expect(m.subject).toBe('New RFID card ordered: Demo Residence Zürich')
      // Amounts by Intl (en-CH): a no-break space between code and digits.
      expect(m.body_text).toContain('CHF\u00a050.00 (CHF\u00a025.00 per card), charged to the stored card. Delivery in 3–4 working days.')
      expect(m.body_text).toContain('Seestrasse 12\nCH-8002 Zürich')
    }
  })

  it('formats the amounts of each mail in its recipient\'s language and region of Settings', async () => {
    const db = app.domain!.db
    const last = (await db.selectFrom('mail_outbox').select(({ fn }) => fn.max('id').as('id')).executeTakeFirst())?.id ?? 0
    await db.updateTable('users').set({ ietf_lang_tag: 'de-DE' }).where('email', '=', 'admin@example.com').execute()
    try {
      await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set(auth(tokens.user)).send({ ...order, quantity: 1 }).expect(201)
      const mails = await db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'rfid-order').where('id', '>', Number(last)).execute()
      const admin = mails.find((m) => m.recipient === 'admin@example.com')!
      expect(admin.body_text).toContain('Preis: 25,00\u00a0CHF (25,00\u00a0CHF pro Karte)')
      // The resident has no region set: Switzerland, as before.
      expect(mails.find((m) => m.recipient === 'user@example.com')!.body_text).toContain('Price: CHF\u00a025.00 (CHF\u00a025.00 per card)')
    } finally {
      await db.updateTable('users').set({ ietf_lang_tag: 'en' }).where('email', '=', 'admin@example.com').execute()
    }
  })
})
