import { describe, expect, it } from 'vitest'
import { pdfCells } from './pdf.ts'

// A report's PDF is read by people: its figures as the recipient's language writes them.
describe('pdfCells', () => {
  const rows = [['Grid import', 'kWh', '3780.970', '-1234.50'], ['Meters', '', '12', 'n/a']]

  it('groups thousands and uses the language’s decimal mark, keeping each figure’s decimals', () => {
    const [de] = pdfCells(rows, 'de')
    expect(de.slice(2)).toEqual([expect.stringMatching(/^3\D780\.970$/), expect.stringMatching(/^-1\D234\.50$/)])
    const [fr] = pdfCells(rows, 'fr')
    expect(fr[2]).toMatch(/^3\D780,970$/)
  })

  it('leaves labels, units and integers as they are, and writes only characters of the PDF font', () => {
    const out = pdfCells(rows, 'fr')
    expect(out[0].slice(0, 2)).toEqual(['Grid import', 'kWh'])
    expect(out[1]).toEqual(['Meters', '', '12', 'n/a'])
    expect(out.flat().join('')).not.toContain('\u202f')
  })
})
