import PDFDocument from 'pdfkit'
import { SwissQRBill } from 'swissqrbill/pdf'
import { calculateQRReferenceChecksum, isQRIBAN } from 'swissqrbill/utils'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { SessionService } from '../sessions/service.ts'
import type { PaymentService } from '../payments/service.ts'
import { AppError, Forbidden } from '../../lib/errors.ts'
import type { Lang } from '../../lib/messages.ts'
import { defaultRegion, formatDate, formatDateTime, formatMoney, formatUnit, intlLocale, regionOfTag } from '../../../shared/rules/formats.ts'
import { invoiceText } from './texts.ts'
import { formatSessionInvoiceNumber, operatorKey, sessionInvoiceNumber } from './numbers.ts'

/**
 * An amount of Rappen as CHF by the app's one formatting source (shared/rules/formats.ts)
 * in the invoice's language and region (a locale such as "de-DE", or a bare language, which means CH):
 * "CHF 1'234.50" in de-CH and en-CH, "1 234.50 CHF" in fr-CH, "1.234,50 CHF" in de-DE.
 * Intl's no-break spaces become plain ones: PDFKit's standard fonts have no narrow no-break space, and
 * a PDF line is laid out once, never re-wrapped.
 */
export function chf(rappen: number, locale: string = 'de'): string {
  return pdfText(formatMoney(rappen / 100, locale))
}

const pdfText = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ')

/**
 * PDF invoices of charging sessions: energy split into high and low tariff (or flat) at the
 * tariff in force at the session's start, the transaction fee, the total, paid-on or unpaid, in the
 * caller's language and the region of their Settings (dates by the region's SPEC §9
 * pattern, amounts and numbers by Intl in language-region, CH when none is set); an unpaid session gets a Swiss QR-bill (swissqrbill) for the total, payable to the
 * installation's operator (with a QR reference for a QR-IBAN). Without an operator set the
 * invoice says whom to ask and has no QR-bill; the VAT line states the operator's rate and amount.
 * Rights: the caller must see the session (404 "Session is not found"), its price (admins, the cost
 * switch or their own card) and who charged (the personal-data rule, shared/rules/visibility.ts); 403
 * otherwise.
 */
export function createInvoiceService({ db, sessions, payments }: { db: Db; sessions: SessionService; payments: PaymentService }) {
  /** The reader's formats (as the client's useFormats): language `lang`, region of their Settings. */
  async function formatsOf(actor: Actor, lang: Lang) {
    const u = await db.selectFrom('users').select('ietf_lang_tag').where('id', '=', actor.id).executeTakeFirst()
    const region = regionOfTag(u?.ietf_lang_tag) ?? defaultRegion(lang)
    return { region, locale: intlLocale(lang, region) }
  }
  return {
    /**
     * The invoice of a monthly app fee (SPEC §9) as a PDF: the installation's operator, the
     * month, the fee (the basic tariff, VAT included), the card fee, the total and when it was paid. Only
     * the user it was charged to gets it (403 for anyone else, 404 unknown). It is debited from the card,
     * so it has no QR-bill.
     */
    async appFeePdf(actor: Actor, userId: number, feeId: number, lang: Lang): Promise<{ filename: string; content: Buffer }> {
      const fee = await payments.appFee(actor, userId, feeId)
      const owner = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', userId).executeTakeFirstOrThrow()
      const { region, locale } = await formatsOf(actor, lang)
      const T = (k: Parameters<typeof invoiceText>[1], p?: Record<string, string | number>) => invoiceText(lang, k, p)
      const number = `AF-${String(feeId).padStart(6, '0')}`
      const operator = fee.operator
      const { doc, done, line } = invoiceHead(T, number, operator, fee.installation_name)
      line(T('date'), formatDate(fee.paid_on ?? fee.created_at, region, fee.timezone))
      line(T('facility'), fee.installation_name)
      line(T('customer'), `${owner.first_name} ${owner.last_name}`.trim())
      line(T('month'), fee.month)
      doc.moveDown(1)
      line(T('appFee'), chf(fee.amount_rappen, locale))
      line(T('fee'), chf(fee.fee_rappen, locale))
      doc.moveDown(0.3)
      doc.fontSize(13)
      line(T('total'), chf(fee.amount_rappen + fee.fee_rappen, locale))
      doc.fontSize(10)
      line(T('status'), fee.status === 'paid' && fee.paid_on ? T('paid', { date: formatDate(fee.paid_on, region, fee.timezone) }) : T('unpaid'))
      doc.moveDown(1)
      const vat = operator ? Math.round((fee.amount_rappen * operator.vat_rate) / (100 + operator.vat_rate)) : null
      doc.fontSize(8).fillColor('#555555').text(operator ? T('vatIncluded', { rate: operator.vat_rate, amount: chf(vat!, locale) }) : T('vat'), 50)
      doc.fillColor('#000000')
      doc.end()
      return { filename: `${T('title').toLowerCase()}-${number}.pdf`, content: await done }
    },

    /** The invoice of session `sessionId` as a PDF: `{ filename, content }`. 404 while still charging, held, void or empty. */
    async pdf(actor: Actor, sessionId: number, lang: Lang): Promise<{ filename: string; content: Buffer }> {
      const session = await sessions.get(actor, sessionId)
      // An invoice is addressed to the person who charged: someone else's is theirs, even
      // for a resident with the cost switch, who sees the price in the list.
      if (session.price === null || !(await sessions.personVisible(actor, sessionId))) throw Forbidden()
      // No invoice while charging, nor for a session that is not billed (held for review, void, empty).
      if (!session.end || (session.status !== 'paid' && session.status !== 'unpaid')) throw new AppError(404, 'sessionNotFound')
      // sessions.get checked the caller's role in the session's installation.
      const installationId = (await sessions.installationOf(sessionId))!
      const [inst, row, owner] = await Promise.all([
        db.selectFrom('installations').select(['name', 'timezone', 'operator']).where('id', '=', installationId).executeTakeFirstOrThrow(),
        db.selectFrom('charging_sessions').select(['price_rappen', 'fee_rappen', 'high_kwh', 'low_kwh', 'start']).where('id', '=', sessionId).executeTakeFirstOrThrow(),
        session.user_id != null ? db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', session.user_id).executeTakeFirst() : undefined,
      ])
      const { region, locale } = await formatsOf(actor, lang)
      const tz = inst.timezone
      const T = (k: Parameters<typeof invoiceText>[1], p?: Record<string, string | number>) => invoiceText(lang, k, p)
      // SPEC §3: price (the energy, the sum of the lines), transaction fee and total, as the session's JSON.
      const total = row.price_rappen + row.fee_rappen
      // The operator's next number, taken once (numbers.ts: without gaps, per operator).
      const number = formatSessionInvoiceNumber(await sessionInvoiceNumber(db, sessionId, operatorKey(inst.operator, installationId)))

      const operator = inst.operator
      // The operator billing the charging, set by the installation's admins.
      const { doc, done, line } = invoiceHead(T, number, operator, inst.name)
      line(T('date'), formatDate(session.end, region, tz))
      line(T('facility'), inst.name)
      if (owner) line(T('customer'), `${owner.first_name} ${owner.last_name}`.trim())
      line(T('station'), session.station_name)
      if (session.rfid_tag) line(T('rfid'), session.rfid_tag)
      line(T('period'), `${formatDateTime(session.start, region, tz)} – ${formatDateTime(session.end, region, tz)}`)
      doc.moveDown(1)

      const kwh = (x: number) => pdfText(formatUnit(x, 'kWh', locale))
      // The session's own price lines (shared/rules/price-lines.ts): the PDF and the JSON print the same.
      const lines = session.price_lines ?? []
      for (const l of lines) line(`${T('energy')} (${T(l.label)})`, `${kwh(l.kwh)} × ${pdfText(formatUnit(l.unit_price, 'CHF/kWh', locale, 4))} = ${chf(Math.round(l.amount * 100), locale)}`)
      if (!lines.length) line(T('energy'), kwh(row.high_kwh + row.low_kwh))
      line(T('subtotal'), chf(row.price_rappen, locale))
      line(T('fee'), chf(row.fee_rappen, locale))
      doc.moveDown(0.3)
      doc.fontSize(13)
      line(T('total'), chf(total, locale))
      doc.fontSize(10)
      line(T('status'), session.status === 'paid' && session.paid_on ? T('paid', { date: formatDate(session.paid_on, region, tz) }) : T('unpaid'))
      doc.moveDown(1)
      // VAT included in the energy price (card fees are the payment provider's): rate × price / (100 + rate).
      const vat = operator ? Math.round((row.price_rappen * operator.vat_rate) / (100 + operator.vat_rate)) : null
      doc.fontSize(8).fillColor('#555555').text(operator ? T('vatIncluded', { rate: operator.vat_rate, amount: chf(vat!, locale) }) : T('vat'), 50)
      doc.fillColor('#000000')

      if (session.status !== 'paid' && total > 0 && !operator) doc.moveDown(1).fontSize(10).text(T('noPaymentDetails'), 50)
      if (session.status !== 'paid' && total > 0 && operator) {
        doc.moveDown(1).fontSize(10).text(T('qrNote'), 50)
        // A QR-IBAN takes a QR reference (26 digits of the session id and a mod-10 check digit); an IBAN none.
        const account = operator.iban
        const ref26 = String(sessionId).padStart(26, '0')
        const bill = new SwissQRBill(
          {
            currency: 'CHF',
            amount: total / 100,
            creditor: { name: operator.name, address: operator.street, buildingNumber: operator.building_number || undefined, zip: operator.zip, city: operator.city, country: operator.country, account },
            ...(isQRIBAN(account) ? { reference: ref26 + calculateQRReferenceChecksum(ref26) } : {}),
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

/**
 * The head every invoice PDF shares: an A4 pdfkit document, the operator who bills (the
 * installation's name when none is set) with address and VAT number, the title with the invoice
 * number, and `line(label, value)` for the label/value rows. `done` resolves to the PDF bytes once
 * the caller ends the document.
 */
function invoiceHead(T: (k: Parameters<typeof invoiceText>[1]) => string, number: string, operator: { name: string; street: string; building_number: string; country: string; zip: string; city: string; vat_number?: string | null } | null | undefined, fallbackName: string) {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${T('title')} ${number}`, Author: operator?.name ?? fallbackName } })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  doc.font('Helvetica-Bold').fontSize(10).text(operator?.name ?? fallbackName)
  if (operator) {
    doc.font('Helvetica').text(`${operator.street} ${operator.building_number}`.trim() + `, ${operator.country}-${operator.zip} ${operator.city}`)
    if (operator.vat_number) doc.text(`${T('vatNumber')}: ${operator.vat_number}`)
  }
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
  return { doc, done, line }
}

