import ExcelJS from 'exceljs'

/**
 * A report table as an XLSX workbook (one sheet named `sheet`, bold header, numbers stored as numbers
 * so a spreadsheet can sum them). Resolves to the file's bytes.
 */
export async function tableXlsx(sheet: string, header: string[], rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const ws = book.addWorksheet(sheet.slice(0, 31))
  ws.addRow(header).font = { bold: true }
  for (const r of rows) ws.addRow(r.map((c) => (typeof c === 'string' && /^-?\d+(\.\d+)?$/.test(c) ? Number(c) : c)))
  ws.columns.forEach((c) => (c.width = 22))
  return Buffer.from(await book.xlsx.writeBuffer())
}
