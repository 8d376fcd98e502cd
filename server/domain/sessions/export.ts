import type { Lang } from '../../lib/messages.ts'
import type { ChargingSession } from '../../../shared/schemas/session.ts'
import type { SessionTotals } from './service.ts'
import { tableXlsx } from '../reports/xlsx.ts'
import { formatInZone } from '../../../shared/rules/formats.ts'

const COLUMNS = {
  start: { en: 'Start', de: 'Beginn', fr: 'Début', it: 'Inizio' },
  end: { en: 'End', de: 'Ende', fr: 'Fin', it: 'Fine' },
  station: { en: 'Charging station', de: 'Ladestation', fr: 'Borne de recharge', it: 'Stazione di ricarica' },
  user: { en: 'User', de: 'Benutzer', fr: 'Utilisateur', it: 'Utente' },
  rfid: { en: 'RFID', de: 'RFID', fr: 'RFID', it: 'RFID' },
  energy: { en: 'Energy kWh', de: 'Energie kWh', fr: 'Énergie kWh', it: 'Energia kWh' },
  price: { en: 'Price CHF', de: 'Preis CHF', fr: 'Prix CHF', it: 'Prezzo CHF' },
  fee: { en: 'Transaction fee CHF', de: 'Transaktionsgebühr CHF', fr: 'Frais de transaction CHF', it: 'Commissione di transazione CHF' },
  total: { en: 'Total CHF', de: 'Total CHF', fr: 'Total CHF', it: 'Totale CHF' },
  perKwh: { en: 'Average CHF/kWh', de: 'Durchschnitt CHF/kWh', fr: 'Moyenne CHF/kWh', it: 'Media CHF/kWh' },
  solar: { en: 'Solar share %', de: 'Solaranteil %', fr: 'Part solaire %', it: 'Quota solare %' },
  status: { en: 'Status', de: 'Status', fr: 'Statut', it: 'Stato' },
} as const satisfies Record<string, Record<Lang, string>>
const STATUS = {
  charging: { en: 'running', de: 'läuft', fr: 'en cours', it: 'in corso' },
  unpaid: { en: 'unpaid', de: 'unbezahlt', fr: 'non payé', it: 'non pagato' },
  paid: { en: 'paid', de: 'bezahlt', fr: 'payé', it: 'pagato' },
  held: { en: 'held for review', de: 'zur Prüfung angehalten', fr: 'retenue pour vérification', it: 'trattenuta per verifica' },
  void: { en: 'void', de: 'storniert', fr: 'annulée', it: 'annullata' },
  empty: { en: 'no energy', de: 'keine Energie', fr: 'sans énergie', it: 'senza energia' },
} as const satisfies Record<ChargingSession['status'], Record<Lang, string>>
const TOTAL = { en: 'Total', de: 'Total', fr: 'Total', it: 'Totale' } as const satisfies Record<Lang, string>

/** A session's start or end as a spreadsheet reads a date and time: 'YYYY-MM-DD HH:mm:ss' in `tz`. */
const localTime = (iso: string, tz: string) => formatInZone(iso, 'YYYY-MM-DD HH:mm:ss', tz)

/**
 * The charging sessions of a period as a table: one row per session, running ones first,
 * then a total row (kWh, CHF of the money the caller sees). Money as SPEC §3 and the invoice name it: price
 * (energy), transaction fee and total. Start and end are local times of the installation's zone `tz`
 * (IANA name, SPEC §9), as the sessions screen shows them, with the zone named in their column
 * headers; the user column only for admins; a hidden price is an empty cell. The average price per kWh
 * and the solar share are the session's (shared/schemas/session.ts), empty when unknown or hidden.
 */
export function sessionTable(sessions: ChargingSession[], totals: SessionTotals, lang: Lang, withUser: boolean, tz: string): { header: string[]; rows: (string | number)[][] } {
  const cols: (keyof typeof COLUMNS)[] = ['start', 'end', 'station', ...(withUser ? (['user', 'rfid'] as const) : []), 'energy', 'price', 'fee', 'total', 'perKwh', 'solar', 'status']
  const rows = sessions.map((s) => {
    const cell: Record<keyof typeof COLUMNS, string | number> = {
      start: localTime(s.start, tz), end: s.end ? localTime(s.end, tz) : '', station: s.station_name, user: s.user_name ?? '', rfid: s.rfid_tag ?? '',
      energy: s.energy_kwh, price: s.price ?? '', fee: s.transaction_fee ?? '', total: s.total ?? '', perKwh: s.price_per_kwh ?? '', solar: s.solar_share ?? '', status: STATUS[s.status][lang],
    }
    return cols.map((c) => cell[c])
  })
  const sums: Partial<Record<keyof typeof COLUMNS, string | number>> = {
    start: TOTAL[lang], energy: totals.energy_kwh, price: totals.price ?? '', fee: totals.transaction_fee ?? '', total: totals.total ?? '',
  }
  const total = cols.map((c) => sums[c] ?? '')
  const header = cols.map((c) => (c === 'start' || c === 'end' ? `${COLUMNS[c][lang]} (${tz})` : COLUMNS[c][lang]))
  return { header, rows: [...rows, total] }
}

// A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe (OWASP CSV injection).
const guard = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)
const quote = (v: string | number) => {
  const s = typeof v === 'number' ? String(v) : guard(v)
  return /[",\r\n;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/** RFC 4180 CSV (comma, CRLF, UTF-8 with a byte order mark so spreadsheets read the accents). */
export function toCsv(header: string[], rows: (string | number)[][]): Buffer {
  const text = [header, ...rows].map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n'
  return Buffer.from(`\uFEFF${text}`, 'utf8')
}

/** The table as an XLSX workbook (exceljs, server/domain/reports/xlsx.ts). */
export function toXlsx(header: string[], rows: (string | number)[][], sheet: string): Promise<Buffer> {
  return tableXlsx(sheet, header, rows)
}
