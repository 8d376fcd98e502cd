import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import ExcelJS from 'exceljs'
import { PDFParse } from 'pdf-parse'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'
import { transactionFeeRappen } from '../../shared/rules/card-fees.ts'

// A session's money as SPEC §3 names it and the invoice prints it: `price` is the sum of the price lines
// (the energy), `transaction_fee` the card fee (SPEC §9), `total` = price + fee. The JSON, the list's
// totals, the CSV/XLSX export and the PDF invoice carry the same three figures.
let app: FastifyInstance
let tokens: RoleTokens
let otherId: number
let paid: number
let unpaid: number
const api = () => request(app.server)
const MARCH = { installation: '1', start__gte: '2026-03-01T00:00:00+01:00', end__lte: '2026-04-01T00:00:00+02:00' }

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('end', () => cb(null, Buffer.concat(chunks)))
}

async function pdfText(buffer: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) })
  try {
    return (await parser.getText()).text
  } finally {
    await parser.destroy()
  }
}

beforeAll(async () => {
  ;({ app, tokens, other: { installationId: otherId } } = await startWithTokens(['api']))
  const db = app.domain!.db
  const card = await db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', 1).where('user_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow()
  const s = app.domain!.sessions
  const charge = async (start: string, kwh: number) => {
    const id = await s.start({ installationId: 1, stationId: 1, rfidId: card.id, userId: card.user_id, at: new Date(start) })
    // Tuesday and Wednesday 11:10 local: high tariff.
    await s.addEnergy(id, kwh, new Date(new Date(start).getTime() + 600_000), 1, 'Europe/Zurich')
    await s.finish(id, new Date(new Date(start).getTime() + 3600_000))
    return id
  }
  paid = await charge('2026-03-03T10:00:00Z', 10)
  unpaid = await charge('2026-03-04T10:00:00Z', 3)
  expect(await s.markPaid(paid, 'credit_card', new Date('2026-03-05T09:00:00Z'))).toBe(true)
})
afterAll(async () => app?.close())

const cents = (x: number) => Math.round(x * 100)

describe('session money (SPEC §3: price, transaction fee, total)', () => {
  it('price is the sum of the price lines, the fee is apart and total = price + fee', async () => {
    const s = (await api().get(`/api/rfids-charge/${paid}/`).set(auth(tokens.user)).expect(200)).body
    const lines = s.price_lines.reduce((t: number, l: { amount: number }) => t + cents(l.amount), 0)
    // 10 kWh × 29.5 Rp (the demo's high tariff) = 295 Rp; credit card 2.5 % + 10 Rp.
    expect(lines).toBe(295)
    const fee = transactionFeeRappen('credit_card', 295)
    expect(s).toMatchObject({ price: 2.95, transaction_fee: fee / 100, total: (295 + fee) / 100 })
    const open = (await api().get(`/api/rfids-charge/${unpaid}/`).set(auth(tokens.user)).expect(200)).body
    expect(open).toMatchObject({ price: 0.89, transaction_fee: 0, total: 0.89 })
  })

  it('the list carries the three figures per session and for the period', async () => {
    const r = (await api().get('/api/rfids-charge/').query({ ...MARCH, limit: 10, offset: 0 }).set(auth(tokens.user)).expect(200)).body
    const fee = transactionFeeRappen('credit_card', 295)
    expect(r.results.map((s: { price: number; transaction_fee: number; total: number }) => [s.price, s.transaction_fee, s.total])).toEqual([[0.89, 0, 0.89], [2.95, fee / 100, (295 + fee) / 100]])
    expect(r.totals).toEqual({ energy_kwh: 13, price: 3.84, transaction_fee: fee / 100, total: (384 + fee) / 100 })
  })

  it('a caller who may not see costs gets none of the three', async () => {
    const other = (await api().get('/api/rfids-charge/').query({ installation: String(otherId), limit: 10, offset: 0 }).set(auth(tokens.bern)).expect(200)).body
    expect(other.totals).toEqual({ energy_kwh: 0, price: null, transaction_fee: null, total: null })
  })

  it('the CSV and XLSX export have price, fee and total columns', async () => {
    const fee = transactionFeeRappen('credit_card', 295)
    const csv = await api().get('/api/rfids-charge/export').query({ ...MARCH, format: 'csv' }).set(auth(tokens.user)).expect(200)
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(lines[0]).toBe('Start (Europe/Zurich),End (Europe/Zurich),Charging station,Energy kWh,Price CHF,Transaction fee CHF,Total CHF,Average CHF/kWh,Solar share %,Status')
    expect(lines[1]).toBe('2026-03-04 11:00:00,2026-03-04 12:00:00,Station 1,3,0.89,0,0.89,0.2967,,unpaid')
    expect(lines[2]).toBe(`2026-03-03 11:00:00,2026-03-03 12:00:00,Station 1,10,2.95,${fee / 100},${(295 + fee) / 100},0.295,,paid`)
    expect(lines[3]).toBe(`Total,,,13,3.84,${fee / 100},${(384 + fee) / 100},,,`)
    const xlsx = await api().get('/api/rfids-charge/export').query({ ...MARCH, format: 'xlsx' }).set(auth(tokens.user)).buffer(true).parse(binary).expect(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(xlsx.body as unknown as ArrayBuffer)
    const row = book.worksheets[0].getRow(3)
    expect([row.getCell(5).value, row.getCell(6).value, row.getCell(7).value]).toEqual([2.95, fee / 100, (295 + fee) / 100])
  })

  it('the invoice prints the same price, fee and total', async () => {
    const s = (await api().get(`/api/rfids-charge/${paid}/`).set(auth(tokens.user)).expect(200)).body
    const pdf = await pdfText((await api().get(`/api/rfids-charge/${paid}/invoice?lang=en`).set(auth(tokens.user)).buffer(true).parse(binary).expect(200)).body)
    expect(pdf).toMatch(new RegExp(`Energy price\\s+CHF ${s.price.toFixed(2)}`))
    expect(pdf).toMatch(new RegExp(`Transaction fee\\s+CHF ${s.transaction_fee.toFixed(2)}`))
    expect(pdf).toMatch(new RegExp(`Total\\s+CHF ${s.total.toFixed(2)}`))
  })
})
