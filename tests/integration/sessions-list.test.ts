import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import ExcelJS from 'exceljs'
import { auth, login, startWithTokens, type RoleTokens } from './helpers.ts'

// The charging sessions list shows running sessions on top, pages with the period's totals,
// names who charged for admins, and exports the period as CSV/XLSX; residents see only what
// shared/rules/visibility.ts allows.
let app: FastifyInstance
let tokens: RoleTokens
const ids: Record<string, number> = {}

const api = () => request(app.server)
const TZ = 'Europe/Zurich'
const MARCH = { installation: '1', start__gte: '2026-03-01T00:00:00+01:00', end__lte: '2026-04-01T00:00:00+02:00' }

async function charge(stationId: number, rfid: { id: number; user_id: number | null } | null, start: string, kwh: number, end: string | null) {
  const s = app.domain!.sessions
  const id = await s.start({ installationId: 1, stationId, rfidId: rfid?.id ?? null, userId: rfid?.user_id ?? null, at: new Date(start) })
  await s.addEnergy(id, kwh, new Date(new Date(start).getTime() + 600_000), 1, TZ)
  if (end) await s.finish(id, new Date(end))
  return id
}

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('end', () => cb(null, Buffer.concat(chunks)))
}

beforeAll(async () => {
  // No simulator: the sessions are made through the device-side service.
  ;({ app, tokens } = await startWithTokens(['api']))
  const db = app.domain!.db
  const userId = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
  const cards = await db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', 1).where('active', '=', true).orderBy('id').execute()
  const resident = cards.find((c) => c.user_id != null)!
  expect(resident.user_id).toBe(await userId('user@example.com'))
  // The demo gives only the resident a card; the second card becomes the admin's.
  const admin = { id: cards[1].id, user_id: await userId('admin@example.com') }
  await db.updateTable('rfids').set({ user_id: admin.user_id }).where('id', '=', admin.id).execute()
  ids.own = await charge(1, resident, '2026-03-03T10:00:00Z', 4, '2026-03-03T11:00:00Z')
  ids.adminsAtOne = await charge(1, admin, '2026-03-04T10:00:00Z', 6, '2026-03-04T12:00:00Z')
  ids.running = await charge(2, null, '2026-03-05T10:00:00Z', 3, null)
  ids.atSix = await charge(6, admin, '2026-03-06T10:00:00Z', 10, '2026-03-06T12:00:00Z')
  ids.february = await charge(1, resident, '2026-02-10T10:00:00Z', 7, '2026-02-10T12:00:00Z')
})
afterAll(async () => app?.close())

const list = (token: string, query: Record<string, string | number>) => api().get('/api/rfids-charge/').query({ ...MARCH, ...query }).set(auth(token)).expect(200)

describe('charging sessions list', () => {
  it('lists running sessions on top, marked running, only when asked (the old ended-only query is unchanged)', async () => {
    const withRunning = (await list(tokens.admin, { running: 'true', limit: 10, offset: 0 })).body
    expect(withRunning.results.map((s: { id: number }) => s.id)).toEqual([ids.running, ids.atSix, ids.adminsAtOne, ids.own])
    expect(withRunning.results[0]).toMatchObject({ status: 'charging', end: null })
    const endedOnly = (await list(tokens.admin, { limit: 10, offset: 0 })).body
    expect(endedOnly.results.map((s: { id: number }) => s.id)).toEqual([ids.atSix, ids.adminsAtOne, ids.own])
  })

  it('pages with the totals of the whole period (kWh and CHF), and names who charged for admins', async () => {
    const first = (await list(tokens.admin, { running: 'true', limit: 2, offset: 0 })).body
    const second = (await list(tokens.admin, { running: 'true', limit: 2, offset: 2 })).body
    expect(first.count).toBe(4)
    expect(first.results).toHaveLength(2)
    expect(second.results).toHaveLength(2)
    expect(second.totals).toEqual(first.totals)
    const all = [...first.results, ...second.results] as { price: number; energy_kwh: number; id: number; user_name: string | null }[]
    expect(first.totals.energy_kwh).toBeCloseTo(4 + 6 + 3 + 10, 2)
    expect(first.totals.price).toBeCloseTo(all.reduce((sum, s) => sum + s.price, 0), 2)
    expect(first.totals.price).toBeGreaterThan(0)
    expect(all.find((s) => s.id === ids.own)!.user_name).toBe('Laura Brunner')
    expect(all.find((s) => s.id === ids.atSix)!.user_name).toBe('Andreas Meier')
  })

  it('shows a resident only the sessions they charged, and totals only those (not a neighbour’s at a station they read)', async () => {
    const r = (await list(tokens.user, { running: 'true', limit: 10, offset: 0 })).body
    // Station 1 and 2 they read, but the admin's session at 1 and the anonymous one at 2 are not theirs.
    expect(r.results.map((s: { id: number }) => s.id)).toEqual([ids.own])
    expect(r.count).toBe(1)
    expect(r.results[0]).toMatchObject({ user_name: 'Laura Brunner' })
    expect(r.totals.energy_kwh).toBeCloseTo(4, 2)
    expect(r.totals.price).toBe(r.results[0].price)
    // Nor one by its id.
    await api().get(`/api/rfids-charge/${ids.adminsAtOne}/`).set(auth(tokens.user)).expect(404)
    await api().get(`/api/rfids-charge/${ids.own}/`).set(auth(tokens.user)).expect(200)
    await api().get('/api/rfids-charge/').query(MARCH).set(auth(tokens.bern)).expect(403)
  })
})

describe('export of the period', () => {
  it('CSV for an admin: every session of the period, running first, user column, total row', async () => {
    await app.domain!.db.updateTable('charging_stations').set({ name: '=HYPERLINK("x")' }).where('id', '=', 6).execute()
    const res = await api().get('/api/rfids-charge/export').query({ ...MARCH, running: 'true', format: 'csv' }).set(auth(tokens.admin)).expect(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toContain('charging-sessions.csv')
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(lines[0]).toBe('Start (Europe/Zurich),End (Europe/Zurich),Charging station,User,RFID,Energy kWh,Price CHF,Transaction fee CHF,Total CHF,Average CHF/kWh,Solar share %,Status')
    expect(lines).toHaveLength(1 + 4 + 1)
    expect(lines[1]).toMatch(/,running$/)
    // Local times of the installation's zone, as the sessions screen shows them (10:00 UTC is 11:00 in Zürich in March).
    expect(lines[1]).toContain('2026-03-05 11:00:00,,Station 2')
    // A station name a spreadsheet would run as a formula is defused.
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`)
    expect(lines[5]).toMatch(/^Total,,,,,23,\d+(\.\d+)?,0,\d+(\.\d+)?,,,$/)
  })

  it('CSV for a resident in German: only what they may see, no user column', async () => {
    const res = await api().get('/api/rfids-charge/export').query({ ...MARCH, running: 'true', format: 'csv' }).set({ ...auth(tokens.user), 'Accept-Language': 'de' }).expect(200)
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(lines[0]).toBe('Beginn (Europe/Zurich),Ende (Europe/Zurich),Ladestation,Energie kWh,Preis CHF,Transaktionsgebühr CHF,Total CHF,Durchschnitt CHF/kWh,Solaranteil %,Status')
    // Only their own session and the total row: not the admin's at station 1, not the anonymous running one.
    expect(lines).toHaveLength(1 + 1 + 1)
    expect(res.text).not.toContain('HYPERLINK')
    expect(lines[1]).toMatch(/^2026-03-03 11:00:00,2026-03-03 12:00:00,Station 1,4,[\d.]+,0,[\d.]+,[\d.]+,[\d.]*,unbezahlt$/)
    expect(lines[2]).toMatch(/^Total,,,4,[\d.]+,0,[\d.]+,,,$/)
  })

  it('XLSX for a resident: their own session and the total row only', async () => {
    const res = await api().get('/api/rfids-charge/export').query({ ...MARCH, running: 'true', format: 'xlsx' }).set(auth(tokens.user)).buffer(true).parse(binary).expect(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.body as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    expect(sheet.rowCount).toBe(3)
    expect(sheet.getRow(2).getCell(3).value).toBe('Station 1')
    expect(sheet.getRow(3).getCell(4).value).toBe(4)
  })

  it('XLSX: a workbook with the same rows, numbers as numbers', async () => {
    const res = await api().get('/api/rfids-charge/export').query({ ...MARCH, running: 'true', format: 'xlsx' }).set(auth(tokens.admin)).buffer(true).parse(binary).expect(200)
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.body as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    expect(sheet.rowCount).toBe(6)
    expect(sheet.getRow(1).getCell(1).value).toBe('Start (Europe/Zurich)')
    expect(sheet.getRow(6).getCell(6).value).toBe(23)
  })

  it('needs a format and a role in the installation', async () => {
    await api().get('/api/rfids-charge/export').query(MARCH).set(auth(tokens.admin)).expect(400)
    await api().get('/api/rfids-charge/export').query({ ...MARCH, format: 'csv' }).set(auth(tokens.bern)).expect(403)
    await api().get('/api/rfids-charge/export').query({ ...MARCH, format: 'csv' }).expect(401)
  })
})

describe('sessions belong to the person who charged (not to the card’s current holder)', () => {
  // Residents of installation 1 who read station 1, made here: Nina charges with her card, the admin then
  // gives that card to Otto; Paula has no card; Carl reads station 1 with the cost switch (SPEC §6).
  const people: Record<string, { id: number; token: string }> = {}
  let card: number
  let ninas: number

  beforeAll(async () => {
    const db = app.domain!.db
    const hash = (await db.selectFrom('users').select('password_hash').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).password_hash
    for (const [name, cost] of [['Nina', false], ['Otto', false], ['Paula', false], ['Carl', true]] as const) {
      const email = `${name.toLowerCase()}@example.com`
      const u = await db.insertInto('users').values({ email, password_hash: hash, first_name: name, last_name: 'Nachbar', title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'en', last_login: null, previous_login: null }).returning('id').executeTakeFirstOrThrow()
      await db.insertInto('installation_users').values({ user_id: u.id, installation_id: 1, role: 'installation_user' }).execute()
      await db.insertInto('permissions').values({ user_id: u.id, installation_id: 1, object_type: 'charging_station', object_id: 1, level: 'read', cost, overview: false }).execute()
      people[name] = { id: u.id, token: await login(app, email) }
    }
    card = (await db.insertInto('rfids').values({ installation_id: 1, user_id: people.Nina.id, tag: 'NINA0001', description: 'Nina', active: true, all_stations: true }).returning('id').executeTakeFirstOrThrow()).id
    ninas = await charge(1, { id: card, user_id: people.Nina.id }, '2026-03-07T10:00:00Z', 5, '2026-03-07T11:00:00Z')
    await api().patch(`/api/cockpit/installations/1/rfids/${card}/`).set(auth(tokens.admin)).send({ user_id: people.Otto.id }).expect(200)
  })

  const idsOf = async (token: string) => ((await list(token, { running: 'true', limit: 100, offset: 0 })).body as { results: { id: number }[] }).results.map((s) => s.id)

  it('the card’s new holder sees none of the previous holder’s sessions, by list, id, CSV or totals', async () => {
    const r = (await list(people.Otto.token, { running: 'true', limit: 100, offset: 0 })).body
    expect(r.results).toEqual([])
    expect(r.totals).toEqual({ energy_kwh: 0, price: null, transaction_fee: null, total: null })
    await api().get(`/api/rfids-charge/${ninas}/`).set(auth(people.Otto.token)).expect(404)
    const csv = await api().get('/api/rfids-charge/export').query({ ...MARCH, running: 'true', format: 'csv' }).set(auth(people.Otto.token)).expect(200)
    expect(csv.text.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(2)
    // Nor in the card's journal, which he may read as its holder.
    const his = await api().get(`/api/cockpit/installations/1/rfids/${card}/journal`).query({ entry_type: 'rfid_charging_session' }).set(auth(people.Otto.token)).expect(200)
    expect(his.body.results.map((e: { id: number }) => e.id)).not.toContain(ninas)
    // The card's journal names the person who charged, not its holder today.
    const journal = await api().get(`/api/cockpit/installations/1/rfids/${card}/journal`).query({ entry_type: 'rfid_charging_session' }).set(auth(tokens.admin)).expect(200)
    expect(journal.body.results.find((e: { id: number }) => e.id === ninas)).toMatchObject({ rfid_user: 'Nina Nachbar' })
  })

  it('the person who charged still sees it as theirs, with their name and price', async () => {
    const r = (await list(people.Nina.token, { running: 'true', limit: 100, offset: 0 })).body
    expect(r.results.map((s: { id: number }) => s.id)).toEqual([ninas])
    expect(r.results[0]).toMatchObject({ user_name: 'Nina Nachbar', rfid_tag: 'NINA0001', user_id: people.Nina.id })
    expect(r.results[0].price).toBeGreaterThan(0)
    expect((await api().get(`/api/rfids-charge/${ninas}/`).set(auth(people.Nina.token)).expect(200)).body).toMatchObject({ rfid_tag: 'NINA0001', user_id: people.Nina.id })
  })

  it('a resident without a card sees no one’s sessions', async () => {
    expect(await idsOf(people.Paula.token)).toEqual([])
  })

  it('a resident with the cost switch keeps seeing the sessions of the station they read, without who charged', async () => {
    const r = (await list(people.Carl.token, { running: 'true', limit: 100, offset: 0 })).body
    expect(r.results.map((s: { id: number }) => s.id).sort()).toEqual([ids.own, ids.adminsAtOne, ninas].sort())
    for (const s of r.results) expect(s).toMatchObject({ user_name: null, user_id: null, rfid_tag: null })
    expect(r.results.every((s: { price: number | null }) => s.price !== null)).toBe(true)
  })

  it('the previous holder’s unpaid session does not block deleting the new holder’s profile', async () => {
    expect((await app.domain!.db.selectFrom('charging_sessions').select('status').where('id', '=', ninas).executeTakeFirstOrThrow()).status).toBe('unpaid')
    const refused = await api().delete(`/api/users/${people.Nina.id}/`).set(auth(tokens.admin)).expect(400)
    expect(refused.body.detail).toMatch(/unpaid/i)
    await api().delete(`/api/users/${people.Otto.id}/`).set(auth(tokens.admin)).expect(204)
  })
})
