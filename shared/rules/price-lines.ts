/**
 * Price lines of a charging session: what an invoice prints and what a session's JSON carries,
 * so the two cannot disagree. Energy is billed in 0.01 kWh; each line is `kwh × unit_price` rounded to the
 * centime (Rappen), and the session's price is the sum of its lines — never a separately rounded total.
 */
export interface PriceLine {
  /** high or low tariff, or the flat tariff for all energy */
  label: 'high' | 'low' | 'flat'
  /** kWh billed on this line, 2 decimals */
  kwh: number
  /** CHF per kWh, 4 decimals */
  unit_price: number
  /** CHF, 2 decimals: round(kwh × unit_price) to the centime */
  amount: number
}

/** Energy prices in Rappen per kWh (may be fractional, e.g. 29.5), as tariffs store them. */
export interface LineTariff { high: number; low: number; flat: number | null }

const kwh2 = (x: number) => Math.round(x * 100) / 100

/**
 * The lines of `highKwh` + `lowKwh` at `tariff` and their sum in Rappen. A flat tariff gives one line of all
 * energy; otherwise a high and a low line, each left out when it has no energy. No tariff: no lines, 0.
 */
export function priceLines(highKwh: number, lowKwh: number, tariff: LineTariff | null): { lines: PriceLine[]; totalRappen: number } {
  if (!tariff) return { lines: [], totalRappen: 0 }
  const parts: [PriceLine['label'], number, number][] =
    tariff.flat != null ? [['flat', highKwh + lowKwh, tariff.flat]] : [['high', highKwh, tariff.high], ['low', lowKwh, tariff.low]]
  let totalRappen = 0
  const lines: PriceLine[] = []
  for (const [label, kwh, rappenPerKwh] of parts) {
    const billed = kwh2(kwh)
    if (billed <= 0 && parts.length > 1) continue
    const rappen = Math.round(billed * rappenPerKwh)
    totalRappen += rappen
    lines.push({ label, kwh: billed, unit_price: Math.round(rappenPerKwh * 100) / 10_000, amount: rappen / 100 })
  }
  return { lines, totalRappen }
}
