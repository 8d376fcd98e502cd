import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import ExcelJS from 'exceljs'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

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

  it('shows a resident only the sessions and people visibility.ts allows, and totals only those', async () => {
    const r = (await list(tokens.user, { running: 'true', limit: 10, offset: 0 })).body
    // Station 6 is not theirs; station 1 and 2 they read.
    expect(r.results.map((s: { id: number }) => s.id)).toEqual([ids.running, ids.adminsAtOne, ids.own])
    const byId = Object.fromEntries(r.results.map((s: { id: number }) => [s.id, s]))
    expect(byId[ids.own]).toMatchObject({ user_name: 'Laura Brunner' })
    // Someone else's session at a station they read: no name, no card, no price (no cost switch).
    expect(byId[ids.adminsAtOne]).toMatchObject({ user_name: null, user_id: null, rfid_tag: null, price: null })
    expect(r.totals.energy_kwh).toBeCloseTo(4 + 6 + 3, 2)
    expect(r.totals.price).toBe(byId[ids.own].price)
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
    expect(lines[0]).toBe('Start,End,Charging station,User,RFID,Energy kWh,Price CHF,Status')
    expect(lines).toHaveLength(1 + 4 + 1)
    expect(lines[1]).toMatch(/,running$/)
    expect(lines[1]).toContain('2026-03-05T10:00:00.000Z,,Station 2')
    // A station name a spreadsheet would run as a formula is defused.
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`)
    expect(lines[5]).toMatch(/^Total,,,,,23,\d+(\.\d+)?,$/)
  })

  it('CSV for a resident in German: only what they may see, no user column', async () => {
    const res = await api().get('/api/rfids-charge/export').query({ ...MARCH, running: 'true', format: 'csv' }).set({ ...auth(tokens.user), 'Accept-Language': 'de' }).expect(200)
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(lines[0]).toBe('Beginn,Ende,Ladestation,Energie kWh,Preis CHF,Status')
    expect(lines).toHaveLength(1 + 3 + 1)
    expect(res.text).not.toContain('HYPERLINK')
    expect(lines[1]).toMatch(/,läuft$/)
  })

  it('XLSX: a workbook with the same rows, numbers as numbers', async () => {
    const res = await api().get('/api/rfids-charge/export').query({ ...MARCH, running: 'true', format: 'xlsx' }).set(auth(tokens.admin)).buffer(true).parse(binary).expect(200)
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.body as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    expect(sheet.rowCount).toBe(6)
    expect(sheet.getRow(1).getCell(1).value).toBe('Start')
    expect(sheet.getRow(6).getCell(6).value).toBe(23)
  })

  it('needs a format and a role in the installation', async () => {
    await api().get('/api/rfids-charge/export').query(MARCH).set(auth(tokens.admin)).expect(400)
    await api().get('/api/rfids-charge/export').query({ ...MARCH, format: 'csv' }).set(auth(tokens.bern)).expect(403)
    await api().get('/api/rfids-charge/export').query({ ...MARCH, format: 'csv' }).expect(401)
  })
})
