import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { PDFParse } from 'pdf-parse'
import { addOtherInstallation, AT, auth, HOURS, login, startApp, type RoleTokens } from './helpers.ts'
import { createTestClock } from '../../server/lib/clock.ts'

let app: FastifyInstance
let other: Awaited<ReturnType<typeof addOtherInstallation>>
let tokens: RoleTokens
// The app's clock stands still at a Wednesday night unless a test moves it (only the last describe does).
const clock = createTestClock(AT.night)

beforeAll(async () => {
  // No simulator: the test drives sessions through the device-side service itself.
  ;({ app } = await startApp({ roles: ['api'], clock }))
  other = await addOtherInstallation(app)
  tokens = { super: await login(app, 'super@example.com'), admin: await login(app, 'admin@example.com'), user: await login(app, 'user@example.com'), bern: await login(app, other.adminEmail) }
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const TZ = 'Europe/Zurich'

/** A session charged with `kwh` at each UTC instant, then finished. Returns its id. */
async function charge(installationId: number, stationId: number, rfid: { id: number; user: number | null } | null, start: string, steps: [string, number][], end: string) {
  const s = app.domain!.sessions
  const id = await s.start({ installationId, stationId, rfidId: rfid?.id ?? null, userId: rfid?.user ?? null, at: new Date(start) })
  for (const [at, kwh] of steps) await s.addEnergy(id, kwh, new Date(at), installationId, TZ)
  await s.finish(id, new Date(end))
  return id
}

const userId = async () => (await app.domain!.db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id

async function pdfText(buffer: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) })
  try {
    return (await parser.getText()).text
  } finally {
    await parser.destroy()
  }
}

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('end', () => cb(null, Buffer.concat(chunks)))
}

let boundarySession = 0

describe('price lines', () => {
  it('every session\'s lines sum to its price, and the PDF prints the same lines', async () => {
    // Sessions of odd sizes across the 20:00 boundary (Monday to Friday, 2–6 February 2026), where
    // rounding each line and the whole differ.
    const user = { id: 1, user: await userId() }
    const ids: number[] = []
    for (let i = 0; i < 12; i++) {
      const day = String(2 + (i % 5)).padStart(2, '0')
      ids.push(await charge(1, 1, user, `2026-02-${day}T18:00:00Z`, [[`2026-02-${day}T18:55:00Z`, 1.013 + i * 0.437], [`2026-02-${day}T19:05:00Z`, 0.677 + i * 0.291]], `2026-02-${day}T19:30:00Z`))
    }
    for (const id of ids) {
      const s = (await api().get(`/api/rfids-charge/${id}/`).set(auth(tokens.admin)).expect(200)).body
      expect(s.price_lines.map((l: { label: string }) => l.label)).toEqual(['high', 'low'])
      const sum = s.price_lines.reduce((t: number, l: { amount: number }) => t + Math.round(l.amount * 100), 0)
      expect(Math.round(s.price * 100)).toBe(sum)
      expect(Math.round(s.total * 100)).toBe(sum + Math.round(s.transaction_fee * 100))
      for (const l of s.price_lines) expect(l.amount).toBe(Math.round(l.kwh * l.unit_price * 100) / 100)
      const pdf = await pdfText((await api().get(`/api/rfids-charge/${id}/invoice`).set(auth(tokens.admin)).buffer(true).parse(binary).expect(200)).body)
      for (const l of s.price_lines) expect(pdf).toContain(`${l.kwh.toFixed(2)} kWh × ${l.unit_price.toFixed(4)} CHF/kWh = CHF ${l.amount.toFixed(2)}`)
      expect(pdf).toContain(`CHF ${(sum / 100).toFixed(2)}`)
    }
    // Someone without the cost switch sees no lines, like no price.
    const list = (await api().get('/api/rfids-charge/?installation=1&limit=1000').set(auth(tokens.user)).expect(200)).body.results
    for (const s of list.filter((x: { user_id: number | null; price: number | null }) => x.price === null)) expect(s.price_lines).toBeNull()
  })
})

describe('pricing', () => {
  it('splits a session crossing the high/low boundary (20:00 local on a weekday) and prices each part', async () => {
    // Monday 12 January 2026, CET (UTC+1): 19:55 local is high tariff (29.5 Rp), 20:05 local is low (21 Rp).
    boundarySession = await charge(1, 1, { id: 1, user: await userId() }, '2026-01-12T18:50:00Z', [['2026-01-12T18:55:00Z', 1], ['2026-01-12T19:05:00Z', 2]], '2026-01-12T19:10:00Z')
    const r = await api().get(`/api/rfids-charge/${boundarySession}/`).set(auth(tokens.admin)).expect(200)
    expect(r.body).toMatchObject({ high_kwh: 1, low_kwh: 2, energy_kwh: 3, status: 'unpaid', invoice_url: `/api/rfids-charge/${boundarySession}/invoice` })
    // 1 × 29.5 + 2 × 21.0 = 71.5 Rp → 72 Rp.
    expect(r.body.price).toBe(0.72)
  })

  it('uses installation-local time on the nights the clocks change in Europe/Zurich', async () => {
    const db = app.domain!.db
    const sundayNight = [{ start: '01:00', end: '04:00', monday: 0, tuesday: 0, wednesday: 0, thursday: 0, friday: 0, saturday: 0, sunday: 1 }]
    await db.insertInto('tariffs').values({
      installation_id: other.installationId, name: 'Night test', basic_rappen: 0, high_rappen_per_kwh: 30, low_rappen_per_kwh: 20,
      flat_rappen_per_kwh: null, flat: false, valid_from: '2026-01-01', valid_to: null, schedule: JSON.stringify(sundayNight),
    }).execute()
    // Spring forward, Sunday 29 March 2026: 00:30Z = 01:30 CET (high), 01:30Z = 03:30 CEST (high),
    // 02:30Z = 04:30 CEST (low). A fixed UTC+1 would call 02:30Z 03:30, high.
    const spring = await charge(other.installationId, other.stationId, null, '2026-03-29T00:00:00Z',
      [['2026-03-29T00:30:00Z', 1], ['2026-03-29T01:30:00Z', 1], ['2026-03-29T02:30:00Z', 1]], '2026-03-29T03:00:00Z')
    // Fall back, Sunday 25 October 2026: 00:30Z = 02:30 CEST (high), 01:30Z = 02:30 CET (high, the repeated
    // hour), 03:30Z = 04:30 CET (low). A fixed UTC+2 would call 02:30Z 04:30, low, and 03:30Z 05:30.
    const autumn = await charge(other.installationId, other.stationId, null, '2026-10-25T00:00:00Z',
      [['2026-10-25T00:30:00Z', 1], ['2026-10-25T01:30:00Z', 1], ['2026-10-25T02:30:00Z', 1], ['2026-10-25T03:30:00Z', 1]], '2026-10-25T04:00:00Z')
    const a = await api().get(`/api/rfids-charge/${spring}/`).set(auth(tokens.bern)).expect(200)
    expect(a.body).toMatchObject({ high_kwh: 2, low_kwh: 1, price: 0.8 })
    const b = await api().get(`/api/rfids-charge/${autumn}/`).set(auth(tokens.bern)).expect(200)
    // 02:30Z = 03:30 CET: still high. 03:30Z = 04:30 CET: low.
    expect(b.body).toMatchObject({ high_kwh: 3, low_kwh: 1, price: 1.1 })
  })
})

describe('session details and rights', () => {
  it('answers "Session is not found" for an unknown or invisible session, in the caller language', async () => {
    const en = await api().get('/api/rfids-charge/999999/').set(auth(tokens.admin)).expect(404)
    expect(en.body.detail).toBe('Session is not found')
    const de = await api().get('/api/rfids-charge/999999/').set({ ...auth(tokens.admin), 'Accept-Language': 'de' }).expect(404)
    expect(de.body.detail).toBe('Ladevorgang nicht gefunden')
    const hidden = await charge(1, 4, null, '2026-01-13T10:00:00Z', [['2026-01-13T10:10:00Z', 1]], '2026-01-13T10:20:00Z')
    await api().get(`/api/rfids-charge/${hidden}/`).set(auth(tokens.user)).expect(404)
    await api().get(`/api/rfids-charge/${hidden}/`).set(auth(tokens.bern)).expect(403)
    await api().get(`/api/rfids-charge/${hidden}/`).set(auth(tokens.super)).expect(200)
  })

  it('lists sessions with price, status and invoice_url', async () => {
    const r = await api().get('/api/rfids-charge/?start__gte=2026-01-12T00:00:00Z&end__lte=2026-01-13T00:00:00Z').set({ ...auth(tokens.user), 'installation-id': '1' }).expect(200)
    expect(r.body.results).toEqual([expect.objectContaining({ id: boundarySession, price: 0.72, status: 'unpaid', invoice_url: `/api/rfids-charge/${boundarySession}/invoice` })])
  })
})

describe('invoice PDF', () => {
  it('shows the total and a QR-bill for an unpaid session, in the asked language', async () => {
    const res = await api().get(`/api/rfids-charge/${boundarySession}/invoice`).set(auth(tokens.user)).buffer(true).parse(binary).expect(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="invoice-CS-\d{6}\.pdf"/)
    const text = await pdfText(res.body as Buffer)
    expect(text).toMatch(/Total\s+CHF 0\.72/)
    expect(text).toContain('Unpaid')
    expect(text).toContain('Receipt')
    const de = await api().get(`/api/rfids-charge/${boundarySession}/invoice?lang=de`).set(auth(tokens.user)).buffer(true).parse(binary).expect(200)
    const deText = await pdfText(de.body as Buffer)
    expect(deText).toContain('Rechnung')
    expect(deText).toMatch(/Total\s+CHF 0\.72/)
    expect(deText).toContain('Unbezahlt')
    expect(deText).toContain('Empfangsschein')
  })

  it('has no QR-bill once paid, and shows the fee in the total', async () => {
    // Paid by credit card: 2.5 % of 72 Rp (2 Rp) + 10 Rp = 12 Rp fee (SPEC §9).
    expect(await app.domain!.sessions.markPaid(boundarySession, 'credit_card', new Date('2026-01-14T09:00:00Z'))).toBe(true)
    expect(await app.domain!.sessions.markPaid(boundarySession, 'credit_card', clock.now())).toBe(false)
    const res = await api().get(`/api/rfids-charge/${boundarySession}/invoice`).set({ ...auth(tokens.admin), 'Accept-Language': 'fr-CH' }).buffer(true).parse(binary).expect(200)
    const text = await pdfText(res.body as Buffer)
    expect(text).toContain('Facture')
    // French Swiss amounts by Intl (fr-CH): the code after the digits.
    expect(text).toMatch(/Frais de transaction\s+0\.12 CHF/)
    expect(text).toMatch(/Total\s+0\.84 CHF/)
    expect(text).toMatch(/Payée le 14\.01\.2026/)
    expect(text).not.toContain('Récépissé')
  })

  it('follows the reader\'s region of Settings for dates and amounts; Switzerland by default', async () => {
    // The session above: paid on 14 January 2026, CHF 0.84 in total with a fee of CHF 0.12.
    const setTag = (tag: string) => app.domain!.db.updateTable('users').set({ ietf_lang_tag: tag }).where('email', '=', 'user@example.com').execute()
    const text = async (lang: string) => pdfText((await api().get(`/api/rfids-charge/${boundarySession}/invoice?lang=${lang}`).set(auth(tokens.user)).buffer(true).parse(binary).expect(200)).body as Buffer)
    try {
      // The demo resident has no region set ("en"): Swiss formats.
      await setTag('en')
      expect(await text('de')).toMatch(/Total\s+CHF 0\.84[\s\S]*Bezahlt am 14\.01\.2026/)
      // Germany: "0,84 CHF", German dates.
      await setTag('de-DE')
      const de = await text('de')
      expect(de).toMatch(/Transaktionsgebühr\s+0,12 CHF/)
      expect(de).toMatch(/Total\s+0,84 CHF/)
      expect(de).toContain('Bezahlt am 14.01.2026')
      expect(de).not.toContain('CHF 0.84')
      // Italy: Italian dates (SPEC §9 DD/MM/YYYY) and amounts.
      await setTag('it-IT')
      const it = await text('it')
      expect(it).toMatch(/Totale\s+0,84 CHF/)
      expect(it).toContain('Pagata il 14/01/2026')
      // United States in English: month first.
      await setTag('en-US')
      const us = await text('en')
      expect(us).toMatch(/Total\s+CHF 0\.84/)
      expect(us).toContain('Paid on 01/14/2026')
      // Switzerland in French, as before.
      await setTag('fr-CH')
      expect(await text('fr')).toMatch(/Total\s+0\.84 CHF[\s\S]*Payée le 14\.01\.2026/)
    } finally {
      await setTag('en')
    }
  })

  it('is refused to callers who may not see the price or the session', async () => {
    // Station 2 is readable by the resident, but the session is not theirs and they have no cost switch.
    const notMine = await charge(1, 2, { id: 2, user: null }, '2026-01-15T18:00:00Z', [['2026-01-15T18:30:00Z', 2]], '2026-01-15T19:00:00Z')
    const hidden = await api().get(`/api/rfids-charge/${notMine}/`).set(auth(tokens.user)).expect(404)
    expect(hidden.body.detail).toBe('Session is not found')
    await api().get(`/api/rfids-charge/${notMine}/invoice`).set(auth(tokens.user)).expect(404)
    await api().get(`/api/rfids-charge/${notMine}/invoice`).set(auth(tokens.bern)).expect(403)
    await api().get('/api/rfids-charge/999999/invoice').set(auth(tokens.admin)).expect(404)
    const open = await app.domain!.sessions.start({ installationId: 1, stationId: 3, rfidId: null, userId: null, at: clock.now() })
    await api().get(`/api/rfids-charge/${open}/invoice`).set(auth(tokens.admin)).expect(404)
    await api().get(`/api/rfids-charge/${notMine}/invoice`).expect(401)
  })
})

describe('journal and station cards', () => {
  const st = (id: number) => `/api/cockpit/installations/1/charging_stations/${id}`
  it('lists a station journal with kinds, badges, tariff parts and filters', async () => {
    const all = await api().get(`${st(1)}/journal?start=2026-01-01T00:00:00Z&end=2026-02-01T00:00:00Z`).set(auth(tokens.admin)).expect(200)
    const entry = all.body.results.find((e: { id: number }) => e.id === boundarySession)
    expect(entry).toMatchObject({
      type: 'rfid_charging_session', station_name: 'Station 1', charge: 3, peak: 1, off_peak: 2, cost: 0.84, rfid: '04A1B2C3D4E501',
      rfid_user: 'Laura Brunner', badged_in: '2026-01-12T18:50:00.000Z', badged_out: '2026-01-12T19:10:00.000Z', duration_minutes: 20, payment_status: 'paid', set_by_timer: false,
    })
    const unpaid = await api().get(`${st(1)}/journal?payment_status=unpaid`).set(auth(tokens.admin)).expect(200)
    expect(unpaid.body.results.map((e: { id: number }) => e.id)).not.toContain(boundarySession)
    const everything = await api().get(`${st(1)}/journal?payment_status=all&entry_type=all`).set(auth(tokens.admin)).expect(200)
    expect(everything.body.results.map((e: { id: number }) => e.id)).toContain(boundarySession)
    const plain = await api().get(`${st(4)}/journal?entry_type=charging_session`).set(auth(tokens.admin)).expect(200)
    expect(plain.body.count).toBe(1)
    expect(plain.body.results[0]).toMatchObject({ type: 'charging_session', rfid: null, badged_in: null })
    const rfidOnly = await api().get(`${st(4)}/journal?entry_type=rfid_charging_session`).set(auth(tokens.admin)).expect(200)
    expect(rfidOnly.body.count).toBe(0)
    const events = await api().get(`${st(1)}/journal?entry_type=journal_entry`).set(auth(tokens.admin)).expect(200)
    expect(events.body.count).toBe(0)
    const bad = await api().get(`${st(1)}/journal?entry_type=nonsense`).set(auth(tokens.admin)).expect(400)
    expect(bad.body.entry_type).toEqual(['The value is not valid.'])
  })

  it('applies station, RFID and cost rights to journals and station cards', async () => {
    await api().get(`${st(4)}/journal`).set(auth(tokens.user)).expect(404)
    await api().get(`${st(1)}/journal`).set(auth(tokens.bern)).expect(403)
    const mine = await api().get(`${st(1)}/journal`).set(auth(tokens.user)).expect(200)
    expect(mine.body.results.find((e: { id: number }) => e.id === boundarySession).cost).toBe(0.84)
    // Station 2's journal lists no one else's session to a resident without the cost switch; with it, all of
    // them with their cost and no card.
    const others = await api().get(`${st(2)}/journal`).query({ entry_type: 'all' }).set(auth(tokens.user)).expect(200)
    const me = await userId()
    type Entry = { id: number; type: string; cost: number | null; rfid: string | null }
    const sessionsOf = (r: { body: { results: Entry[] } }) => r.body.results.filter((e) => e.type === 'charging_session' || e.type === 'rfid_charging_session')
    const ownIds = new Set((await app.domain!.db.selectFrom('charging_sessions').select('id').where('station_id', '=', 2).where('user_id', '=', me).execute()).map((r) => r.id))
    expect(sessionsOf(others).every((e) => ownIds.has(e.id))).toBe(true)
    const grant = app.domain!.db.updateTable('permissions').where('user_id', '=', me).where('installation_id', '=', 1).where('object_type', '=', 'charging_station').where('object_id', '=', 2)
    await grant.set({ cost: true }).execute()
    try {
      const priced = sessionsOf(await api().get(`${st(2)}/journal`).set(auth(tokens.user)).expect(200)).filter((e) => !ownIds.has(e.id))
      expect(priced.length).toBeGreaterThan(0)
      for (const e of priced) {
        expect(e.cost).not.toBeNull()
        expect(e.rfid).toBeNull()
      }
    } finally {
      await grant.set({ cost: false }).execute()
    }
    const card = await api().get('/api/cockpit/installations/1/rfids/1/journal').set(auth(tokens.user)).expect(200)
    expect(card.body.results.map((e: { id: number }) => e.id)).toContain(boundarySession)
    await api().get('/api/cockpit/installations/1/rfids/2/journal').set(auth(tokens.user)).expect(404)
    await api().get('/api/cockpit/installations/1/rfids/1/journal').set(auth(tokens.bern)).expect(403)

    const cardsAdmin = await api().get(`${st(1)}/rfids`).set(auth(tokens.admin)).expect(200)
    expect(cardsAdmin.body.count).toBe(6)
    const cardsUser = await api().get(`${st(1)}/rfids`).set(auth(tokens.user)).expect(200)
    expect(cardsUser.body.results.map((r: { id: number }) => r.id)).toEqual([1])
    await api().patch('/api/cockpit/installations/1/rfids/3/').set(auth(tokens.admin)).send({ all_stations: false, station_ids: [2] }).expect(200)
    const atOne = await api().get(`${st(1)}/rfids`).set(auth(tokens.admin)).expect(200)
    expect(atOne.body.results.map((r: { id: number }) => r.id)).not.toContain(3)
    await api().get(`${st(4)}/rfids`).set(auth(tokens.user)).expect(404)
  })
})

describe('session list order', () => {
  it('lists sessions by end date, newest first, open ones on top', async () => {
    const r = await request(app.server).get('/api/rfids-charge/?installation=1&limit=1000').set(auth(tokens.admin)).expect(200)
    const ends = r.body.results.map((s: { end: string | null }) => s.end)
    const open = ends.filter((e: string | null) => e === null).length
    expect(ends.slice(0, open).every((e: string | null) => e === null)).toBe(true)
    const closed = ends.slice(open) as string[]
    expect(closed.length).toBeGreaterThan(1)
    expect([...closed].sort().reverse()).toEqual(closed)
  })
})

describe('personal data of other people’s sessions (ARCHITECTURE §4)', () => {
  it('a resident sees card and name only on their own sessions: list, detail, journal, invoice', async () => {
    const db = app.domain!.db
    const me = await userId()
    const adminId = (await db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).id
    // Card 2 (parking space 2, a station the resident may read) belongs to the admin, Andreas Meier.
    await db.updateTable('rfids').set({ user_id: adminId }).where('id', '=', 2).execute()
    const theirs = await charge(1, 2, { id: 2, user: adminId }, '2026-02-02T10:00:00Z', [['2026-02-02T10:30:00Z', 1]], '2026-02-02T11:00:00Z')
    const mine = await charge(1, 2, { id: 1, user: me }, '2026-02-03T10:00:00Z', [['2026-02-03T10:30:00Z', 1]], '2026-02-03T11:00:00Z')
    const hidden = { rfid_id: null, rfid_tag: null, user_id: null }

    const list = await api().get('/api/rfids-charge/?start__gte=2026-02-01T00:00:00Z&end__lte=2026-02-28T00:00:00Z').set({ ...auth(tokens.user), 'installation-id': '1' }).expect(200)
    const byId = (id: number) => list.body.results.find((s: { id: number }) => s.id === id)
    // Without the cost switch a neighbour's session is not listed at all (shared/rules/visibility.ts).
    expect(byId(theirs)).toBeUndefined()
    expect(byId(mine)).toMatchObject({ rfid_id: 1, rfid_tag: '04A1B2C3D4E501', user_id: me })
    await api().get(`/api/rfids-charge/${theirs}/`).set(auth(tokens.user)).expect(404)
    expect((await api().get(`/api/rfids-charge/${mine}/`).set(auth(tokens.user)).expect(200)).body).toMatchObject({ rfid_tag: '04A1B2C3D4E501' })
    // Admins and superusers see whose card it was.
    for (const token of [tokens.admin, tokens.super]) {
      expect((await api().get(`/api/rfids-charge/${theirs}/`).set(auth(token)).expect(200)).body).toMatchObject({ rfid_id: 2, rfid_tag: '04A1B2C3D4E502', user_id: adminId })
    }

    const journal = await api().get('/api/cockpit/installations/1/charging_stations/2/journal?start=2026-02-01T00:00:00Z&end=2026-03-01T00:00:00Z').set(auth(tokens.user)).expect(200)
    const entry = (id: number) => journal.body.results.find((e: { id: number }) => e.id === id)
    // Nor in the journal of a station they read (no cost switch).
    expect(entry(theirs)).toBeUndefined()
    expect(entry(mine)).toMatchObject({ rfid: '04A1B2C3D4E501', rfid_user: 'Laura Brunner' })
    const adminJournal = await api().get('/api/cockpit/installations/1/charging_stations/2/journal?start=2026-02-01T00:00:00Z&end=2026-03-01T00:00:00Z').set(auth(tokens.admin)).expect(200)
    expect(adminJournal.body.results.find((e: { id: number }) => e.id === theirs)).toMatchObject({ rfid: '04A1B2C3D4E502', rfid_user: 'Andreas Meier' })

    // The cost switch shows others' prices, not who they are: their invoice (addressed to them) stays closed.
    const entry2 = db.updateTable('permissions').where('user_id', '=', me).where('installation_id', '=', 1).where('object_type', '=', 'charging_station').where('object_id', '=', 2)
    expect(Number((await entry2.set({ cost: true }).executeTakeFirst()).numUpdatedRows)).toBe(1)
    try {
      const priced = await api().get(`/api/rfids-charge/${theirs}/`).set(auth(tokens.user)).expect(200)
      expect(priced.body.price).not.toBeNull()
      expect(priced.body).toMatchObject(hidden)
      await api().get(`/api/rfids-charge/${theirs}/invoice`).set(auth(tokens.user)).expect(403)
      const own = await api().get(`/api/rfids-charge/${mine}/invoice`).set(auth(tokens.user)).buffer(true).parse(binary).expect(200)
      expect(await pdfText(own.body as Buffer)).toContain('04A1B2C3D4E501')
    } finally {
      await entry2.set({ cost: false }).execute()
      await db.updateTable('rfids').set({ user_id: null }).where('id', '=', 2).execute()
    }
  })
})

describe('the high/low split follows the installation-local time of day (demo tariff: high 07:00–20:00 on weekdays)', () => {
  // A 20-minute session on station 5 begun at each instant, 1 kWh read 5 and 15 minutes in, on the app's
  // clock. The DST cases are the first weekday after each change, across a high/low boundary: a fixed
  // winter (or summer) offset would put both readings on one side.
  const cases: [string, number, number, string][] = [
    ...HOURS.map((h) => [`${h} (${AT[h].slice(11, 16)})`, h === 'morning' ? 2 : 0, h === 'morning' ? 0 : 2, AT[h]] as [string, number, number, string]),
    ['Monday after the spring change, 06:50 summer time', 1, 1, '2026-03-30T06:50:00+02:00'],
    ['Monday after the autumn change, 19:50 winter time', 1, 1, '2026-10-26T19:50:00+01:00'],
  ]
  it.each(cases)('%s: %i kWh high, %i kWh low', async (_name, high, low, at) => {
    await clock.set(at)
    const s = app.domain!.sessions
    const id = await s.start({ installationId: 1, stationId: 5, rfidId: null, userId: null, at: clock.now() })
    await clock.advance(5 * 60_000)
    await s.addEnergy(id, 1, clock.now(), 1, TZ)
    await clock.advance(10 * 60_000)
    await s.addEnergy(id, 1, clock.now(), 1, TZ)
    await clock.advance(5 * 60_000)
    await s.finish(id, clock.now())
    // Tokens live 5 minutes of the clock's time: one issued now.
    const r = await api().get(`/api/rfids-charge/${id}/`).set(auth(await login(app, 'admin@example.com'))).expect(200)
    // 29.5 Rp high, 21 Rp low, rounded to the Rappen: 2 high 59 Rp, 2 low 42 Rp, one each 50.5 → 51 Rp.
    expect(r.body).toMatchObject({ high_kwh: high, low_kwh: low, energy_kwh: 2, price: { 2: 0.59, 0: 0.42, 1: 0.51 }[high] })
  })
})

describe('the journal dates its entries in the installation-local day', () => {
  // Sessions (and a timer's mode switch) on station 6 at each instant; the journal of a day
  // (start and end as calendar dates) holds those from local midnight to the next. UTC midnight is one
  // hour (winter) or two (summer) later: it would drop the first entries of the day and take the next
  // day's first.
  it.each([
    ['Wednesday 4 March 2026 (24 hours)', '2026-03-04', '2026-03-05', ['2026-03-03T23:59:00+01:00'],
      ['2026-03-04T00:00:00+01:00', AT.night, AT.morning, AT.evening, '2026-03-04T23:59:00+01:00'], ['2026-03-05T00:00:00+01:00']],
    ['Sunday 29 March 2026 (23 hours)', '2026-03-29', '2026-03-30', ['2026-03-28T23:59:00+01:00'],
      ['2026-03-29T00:00:00+01:00', AT.springForward, '2026-03-29T03:00:00+02:00', '2026-03-29T23:59:00+02:00'], ['2026-03-30T00:00:00+02:00']],
    ['Sunday 25 October 2026 (25 hours)', '2026-10-25', '2026-10-26', ['2026-10-24T23:59:00+02:00'],
      ['2026-10-25T00:00:00+02:00', AT.fallBack, '2026-10-25T02:30:00+01:00', '2026-10-25T23:59:00+01:00'], ['2026-10-26T00:00:00+01:00']],
  ])('%s', async (_day, date, next, before, during, after) => {
    const s = app.domain!.sessions
    const ids = new Map<string, number>()
    for (const at of [...before, ...during, ...after]) {
      const id = await s.start({ installationId: 1, stationId: 6, rfidId: null, userId: null, at: new Date(at) })
      await s.finish(id, new Date(Date.parse(at) + 60_000))
      ids.set(at, id)
    }
    await app.domain!.stations.recordTimerSwitch(6, 'solar', new Date(during[1]))
    await app.domain!.stations.recordTimerSwitch(6, 'instant', new Date(after[0]))
    const token = await login(app, 'admin@example.com')
    const day = (await api().get(`/api/cockpit/installations/1/charging_stations/6/journal?start=${date}&end=${next}&limit=1000`).set(auth(token)).expect(200)).body
    const sessions = day.results.filter((e: { type: string }) => e.type === 'charging_session').map((e: { id: number }) => e.id)
    expect(sessions.sort((a: number, b: number) => a - b)).toEqual(during.map((at) => ids.get(at)))
    expect(day.results.filter((e: { type: string }) => e.type === 'journal_entry')).toEqual([expect.objectContaining({ charging_mode: 'solar', start: new Date(during[1]).toISOString(), set_by_timer: true })])
  })
})
