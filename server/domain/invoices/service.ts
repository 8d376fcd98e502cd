import PDFDocument from 'pdfkit'
import { SwissQRBill } from 'swissqrbill/pdf'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { SessionService } from '../sessions/service.ts'
import { AppError, Forbidden } from '../../lib/errors.ts'
import type { Lang } from '../../lib/messages.ts'
import { defaultRegion, formatDate, formatDateTime } from '../../../shared/rules/formats.ts'
import { invoiceText } from './texts.ts'

/**
 * The creditor printed on invoices and QR-bills. The schema has no operator address or IBAN per
 * installation yet (docs/decisions.md), so this is the demo operator; a real deployment sets its own.
 */
export const INVOICE_CREDITOR = {
  name: 'Cockpit Demo Operator AG',
  address: 'Bahnhofstrasse',
  buildingNumber: '1',
  zip: '8001',
  city: 'Zürich',
  country: 'CH',
  account: 'CH9300762011623852957',
}

/** "CHF 1'234.50": Swiss grouping with an apostrophe, 2 decimals (SPEC §9 currency CHF). */
export function chf(rappen: number): string {
  const [int, dec] = (Math.abs(rappen) / 100).toFixed(2).split('.')
  return `${rappen < 0 ? '-' : ''}CHF ${int.replace(/\B(?=(\d{3})+(?!\d))/g, "'")}.${dec}`
}

/**
 * PDF invoices of charging sessions (issue 4 §7): energy split into high and low tariff (or flat) at the
 * tariff in force at the session's start, the transaction fee, the total, paid-on or unpaid, in the
 * caller's language; an unpaid session gets a Swiss QR-bill (swissqrbill) for the total.
 * Rights: the caller must see the session (404 "Session is not found") and its price — admins, the cost
 * switch or their own card (403 otherwise).
 */
export function createInvoiceService({ db, sessions }: { db: Db; sessions: SessionService }) {
  return {
    /** The invoice of session `sessionId` as a PDF: `{ filename, content }`. 400 while still charging. */
    async pdf(actor: Actor, sessionId: number, lang: Lang): Promise<{ filename: string; content: Buffer }> {
      const session = await sessions.get(actor, sessionId)
      if (session.price === null) throw Forbidden()
      if (!session.end) throw new AppError(404, 'sessionNotFound')
      // sessions.get checked the caller's role in the session's installation.
      const installationId = (await sessions.installationOf(sessionId))!
      const [inst, row, owner] = await Promise.all([
        db.selectFrom('installations').select(['name', 'timezone']).where('id', '=', installationId).executeTakeFirstOrThrow(),
        db.selectFrom('charging_sessions').select(['price_rappen', 'fee_rappen', 'high_kwh', 'low_kwh', 'start']).where('id', '=', sessionId).executeTakeFirstOrThrow(),
        session.user_id != null ? db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', session.user_id).executeTakeFirst() : undefined,
      ])
      const region = defaultRegion(lang)
      const tz = inst.timezone
      const T = (k: Parameters<typeof invoiceText>[1], p?: Record<string, string | number>) => invoiceText(lang, k, p)
      const total = row.price_rappen + row.fee_rappen
      const number = `CS-${String(sessionId).padStart(6, '0')}`

      const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${T('title')} ${number}`, Author: INVOICE_CREDITOR.name } })
      const chunks: Buffer[] = []
      doc.on('data', (c: Buffer) => chunks.push(c))
      const done = new Promise<Buffer>((resolve, reject) => {
        doc.on('end', () => resolve(Buffer.concat(chunks)))
        doc.on('error', reject)
      })

      doc.font('Helvetica-Bold').fontSize(10).text(INVOICE_CREDITOR.name)
      doc.font('Helvetica').text(`${INVOICE_CREDITOR.address} ${INVOICE_CREDITOR.buildingNumber}, ${INVOICE_CREDITOR.zip} ${INVOICE_CREDITOR.city}`)
      doc.moveDown(2)
      doc.font('Helvetica-Bold').fontSize(20).text(`${T('title')} ${number}`)
      doc.moveDown(0.5)
      doc.font('Helvetica').fontSize(10)
      const line = (label: string, value: string) => {
        const y = doc.y
        doc.font('Helvetica-Bold').text(label, 50, y, { width: 170 })
        doc.font('Helvetica').text(value, 230, y, { width: 315 })
        doc.moveDown(0.3)
      }
      line(T('date'), formatDate(session.end, region, tz))
      line(T('facility'), inst.name)
      if (owner) line(T('customer'), `${owner.first_name} ${owner.last_name}`.trim())
      line(T('station'), session.station_name)
      if (session.rfid_tag) line(T('rfid'), session.rfid_tag)
      line(T('period'), `${formatDateTime(session.start, region, tz)} – ${formatDateTime(session.end, region, tz)}`)
      doc.moveDown(1)

      const kwh = (x: number) => `${x.toFixed(2)} kWh`
      // The session's own price lines (shared/rules/price-lines.ts): the PDF and the JSON print the same.
      const lines = session.price_lines ?? []
      for (const l of lines) line(`${T('energy')} (${T(l.label)})`, `${kwh(l.kwh)} × ${l.unit_price.toFixed(4)} CHF/kWh = ${chf(Math.round(l.amount * 100))}`)
      if (!lines.length) line(T('energy'), kwh(row.high_kwh + row.low_kwh))
      line(T('subtotal'), chf(row.price_rappen))
      line(T('fee'), chf(row.fee_rappen))
      doc.moveDown(0.3)
      doc.fontSize(13)
      line(T('total'), chf(total))
      doc.fontSize(10)
      line(T('status'), session.status === 'paid' && session.paid_on ? T('paid', { date: formatDate(session.paid_on, region, tz) }) : T('unpaid'))
      doc.moveDown(1)
      doc.fontSize(8).fillColor('#555555').text(T('vat'), 50)
      doc.fillColor('#000000')

      if (session.status !== 'paid' && total > 0) {
        doc.moveDown(1).fontSize(10).text(T('qrNote'), 50)
        const bill = new SwissQRBill(
          {
            currency: 'CHF',
            amount: total / 100,
            creditor: INVOICE_CREDITOR,
            message: T('message', { id: number }),
          },
          { language: lang.toUpperCase() as 'EN' | 'DE' | 'FR' | 'IT', scissors: true },
        )
        // The QR-bill takes the bottom 105 mm of a page; a new page when this one has no room.
        if (!SwissQRBill.isSpaceSufficient(doc)) doc.addPage()
        bill.attachTo(doc)
      }
      doc.end()
      return { filename: `${T('title').toLowerCase()}-${number}.pdf`, content: await done }
    },
  }
}
export type InvoiceService = ReturnType<typeof createInvoiceService>
