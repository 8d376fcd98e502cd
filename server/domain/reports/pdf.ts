import PDFDocument from 'pdfkit'
import { formatNumber } from '../../../shared/rules/formats.ts'

/** A figure as the report tables hold it: a number, or its text with a point and fixed decimals ("3780.970"). */
const FIGURE = /^-?\d+(\.\d+)?$/

/**
 * The table's figures written as `lang` writes numbers (Intl, region CH: "3’780.970" in German,
 * "3 780,970" in French), keeping each figure's decimals; other cells unchanged. For the PDF, which
 * people read; the CSV and workbook keep plain numbers a program reads.
 */
export function pdfCells(rows: (string | number)[][], lang: string): string[][] {
  return rows.map((r) => r.map((c) => {
    const text = String(c)
    if (!FIGURE.test(text)) return text
    // The PDF's standard font (WinAnsi) has no narrow no-break space (U+202F): a no-break space instead.
    return formatNumber(Number(text), lang, text.split('.')[1]?.length ?? 0).replaceAll('\u202f', '\u00a0')
  }))
}

/**
 * A report table as PDF (A4, Helvetica): title, subtitle and the rows under a header, columns of equal
 * width, numbers right-aligned, with optional `notes` lines under the subtitle. Resolves to the file's bytes.
 */
export function tablePdf(title: string, subtitle: string, header: string[], rows: (string | number)[][], notes: string[] = []): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: title } })
    const chunks: Buffer[] = []
    doc.on('data', (c: Buffer) => chunks.push(c))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
    doc.font('Helvetica-Bold').fontSize(16).text(title)
    doc.font('Helvetica').fontSize(10).fillColor('#475569').text(subtitle)
    // Notes (e.g. the ZEV model, its cap and a missing-data warning) stand above the table they qualify.
    for (const n of notes) doc.text(n)
    doc.moveDown(1).fillColor('black')
    const left = doc.page.margins.left
    const width = doc.page.width - left - doc.page.margins.right
    const col = width / Math.max(1, header.length)
    const line = (cells: (string | number)[], bold: boolean) => {
      if (doc.y > doc.page.height - doc.page.margins.bottom - 20) doc.addPage()
      const y = doc.y
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9)
      // Figures (digits with grouping and decimal marks, pdfCells) right-aligned, past the first column.
      cells.forEach((c, i) => doc.text(String(c), left + i * col, y, { width: col - 6, align: i > 0 && /^[-−]?\d[\d\s.,’'\u00a0\u202f]*$/.test(String(c)) ? 'right' : 'left', lineBreak: false }))
      doc.moveDown(0.6)
      doc.x = left
    }
    line(header, true)
    for (const r of rows) line(r, false)
    doc.end()
  })
}
