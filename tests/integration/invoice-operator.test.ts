import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { PDFParse } from 'pdf-parse'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'
import { operatorKey } from '../../server/domain/invoices/numbers.ts'

// Invoices and QR-bills are payable to the installation's operator (legal name, address,
// IBAN or QR-IBAN, VAT number and rate, set by admins), not to a placeholder payee.
let app: FastifyInstance
let other: Awaited<ReturnType<typeof startWithTokens>>['other']
let tokens: RoleTokens
const api = () => request(app.server)
const TZ = 'Europe/Zurich'

beforeAll(async () => {
  ;({ app, other, tokens } = await startWithTokens(['api']))
})
afterAll(async () => app?.close())

async function finishedSession(installationId: number, stationId: number): Promise<number> {
  const s = app.domain!.sessions
  const id = await s.start({ installationId, stationId, rfidId: null, userId: null, at: new Date('2026-01-12T20:00:00Z') })
  await s.addEnergy(id, 10, new Date('2026-01-12T21:00:00Z'), installationId, TZ)
  await s.finish(id, new Date('2026-01-12T21:30:00Z'))
  return id
}
async function invoiceText(id: number, token: string): Promise<string> {
  const res = await api().get(`/api/rfids-charge/${id}/invoice`).set(auth(token)).buffer(true)
    .parse((r, cb) => { const c: Buffer[] = []; r.on('data', (x: Buffer) => c.push(x)); r.on('end', () => cb(null, Buffer.concat(c))) }).expect(200)
  const parser = new PDFParse({ data: new Uint8Array(res.body as Buffer) })
  try {
    return (await parser.getText()).text
  } finally {
    await parser.destroy()
  }
}
const operator = { name: 'Stadtwerk Muster AG', street: 'Bahnhofstrasse', building_number: '1', zip: '8001', city: 'Zürich', country: 'CH', iban: 'CH93 0076 2011 6238 5295 7', vat_number: null, vat_rate: 7.7 }

describe('the operator on invoices', () => {
  it('the demo installation has a plausible operator, shown to everyone in it', async () => {
    const r = await api().get('/api/cockpit/installations/1/').set(auth(tokens.user)).expect(200)
    expect(r.body.operator).toMatchObject({ name: 'Demo Energie Zürich AG', country: 'CH', vat_number: 'CHE-123.456.789 MWST', vat_rate: 8.1 })
  })

  it('only its admins set it, with a valid CH/LI IBAN and a UID-format VAT number', async () => {
    const url = '/api/cockpit/installations/1/'
    await api().patch(url).set(auth(tokens.user)).send({ operator }).expect(403)
    await api().patch(url).set(auth(tokens.bern)).send({ operator }).expect(403)
    const bad = await api().patch(url).set(auth(tokens.admin)).send({ operator: { ...operator, iban: 'CH9300762011623852958', vat_number: 'CHE123456789' } }).expect(400)
    expect(bad.body).toEqual({
      'operator.iban': ['Please enter a valid Swiss or Liechtenstein IBAN (CH or LI, 21 characters).'],
      'operator.vat_number': ['Please enter the VAT number as CHE-123.456.789 MWST (or TVA, IVA).'],
    })
    const german = await api().patch(url).set(auth(tokens.admin)).set('Accept-Language', 'de').send({ operator: { ...operator, iban: 'DE89370400440532013000' } }).expect(400)
    expect(german.body['operator.iban'][0]).toMatch(/gültige IBAN/)
  })

  it('prints the operator, its VAT rate and amount, and a QR-bill payable to its IBAN', async () => {
    const demo = await finishedSession(1, 1)
    const text = await invoiceText(demo, tokens.admin)
    expect(text).toContain('Demo Energie Zürich AG')
    expect(text).toContain('VAT number: CHE-123.456.789 MWST')
    const session = (await api().get(`/api/rfids-charge/${demo}/`).set(auth(tokens.admin)).expect(200)).body
    const priceRappen = Math.round((session.price - session.transaction_fee) * 100)
    const vat = Math.round((priceRappen * 8.1) / 108.1)
    expect(text).toContain(`Prices include 8.1 % VAT (CHF ${(vat / 100).toFixed(2)})`)
    // The QR-IBAN of the demo operator, with a QR reference.
    expect(text).toContain('CH44 3199 9123 0008 8901 2')
    expect(text).toMatch(/Reference/)

    await api().patch('/api/cockpit/installations/1/').set(auth(tokens.admin)).send({ operator }).expect(200)
    const again = await invoiceText(demo, tokens.admin)
    expect(again).toContain('Stadtwerk Muster AG')
    expect(again).toContain('CH93 0076 2011 6238 5295 7')
    expect(again).toContain('Prices include 7.7 % VAT')
    expect(again).not.toContain('Demo Energie')
  })

  it('without an operator the invoice says whom to ask and has no QR-bill', async () => {
    await app.domain!.db.insertInto('tariffs').values({ installation_id: other.installationId, name: 'Bern', basic_rappen: 0, high_rappen_per_kwh: 30, low_rappen_per_kwh: 20, flat_rappen_per_kwh: null, flat: false, valid_from: '2026-01-01', valid_to: null, schedule: '[]' }).execute()
    const id = await finishedSession(other.installationId, other.stationId)
    const text = await invoiceText(id, tokens.bern)
    expect(text).toContain('The operator has not set its payment details yet')
    expect(text).not.toContain('Receipt')
  })
})

describe('invoice numbers (without gaps, per operator)', () => {
  const numberOf = (text: string) => Number(/Invoice CS-(\d{6})/.exec(text)![1])
  it('each operator numbers its invoices 1, 2, 3… whatever the session ids, concurrently too, and a reprint keeps its number', async () => {
    const db = app.domain!.db
    // Installation 1 and the Bern one bill under two operators; sessions of both interleave (their ids too).
    await db.updateTable('installations').set({ operator: JSON.stringify({ ...operator, iban: 'CH44 3199 9123 0008 8901 2', name: 'Bern Energie AG' }) }).where('id', '=', other.installationId).execute()
    const first = await db.selectFrom('invoice_counters').selectAll().execute()
    const base = Object.fromEntries(first.map((c) => [c.operator_key, c.last_number]))
    const zurich: number[] = []
    const bern: number[] = []
    for (let i = 0; i < 4; i++) {
      zurich.push(await finishedSession(1, 1))
      bern.push(await finishedSession(other.installationId, other.stationId))
    }
    const zurichTexts = await Promise.all(zurich.map((id) => invoiceText(id, tokens.admin)))
    const bernTexts = await Promise.all(bern.map((id) => invoiceText(id, tokens.bern)))
    const zn = zurichTexts.map(numberOf).sort((a, b) => a - b)
    const bn = bernTexts.map(numberOf).sort((a, b) => a - b)
    const zKey = operatorKey((await db.selectFrom('installations').select('operator').where('id', '=', 1).executeTakeFirstOrThrow()).operator, 1)
    const bKey = 'iban:CH4431999123000889012'
    const zStart = base[zKey] ?? 0
    const bStart = base[bKey] ?? 0
    expect(zn).toEqual([1, 2, 3, 4].map((n) => zStart + n))
    expect(bn).toEqual([1, 2, 3, 4].map((n) => bStart + n))
    // A reprint is the same invoice: same number, no number used.
    expect(numberOf(await invoiceText(zurich[0], tokens.admin))).toBe(numberOf(zurichTexts[0]))
    const counters = await db.selectFrom('invoice_counters').selectAll().execute()
    expect(Object.fromEntries(counters.map((c) => [c.operator_key, c.last_number]))).toMatchObject({ [zKey]: zStart + 4, [bKey]: bStart + 4 })
  })
})
