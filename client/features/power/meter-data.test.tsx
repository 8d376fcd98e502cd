import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { createInstance } from 'i18next'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import type { MeterDataState } from '../../../shared/schemas/statistics.ts'
import { formatDateTime } from '../../../shared/rules/formats.ts'
import { MeterDataList, shownMeters } from './meter-data.tsx'

const ok = { state: 'ok', reason: null, at: null } as const
const meters: MeterDataState[] = [
  { id: 1, name: 'Main meter', meter_type: 'main_power', source: 'modbus', last_reading_at: '2026-03-04T08:59:55Z', age_s: 5, stale: false, data_quality: ok },
  { id: 2, name: 'PV inverter', meter_type: 'pv', source: 'mqtt', last_reading_at: '2026-03-04T06:48:00Z', age_s: 2 * 3600 + 12 * 60, stale: true, data_quality: ok },
  {
    id: 3, name: 'Heat flat 1', meter_type: 'heat', source: 'ingest', last_reading_at: '2026-03-04T08:59:00Z', age_s: 60, stale: false,
    data_quality: { state: 'flagged', reason: 'register went down from 120 to 5 kWh (counter reset or swapped meter)', at: '2026-03-04T08:30:00Z' },
  },
  { id: 4, name: 'Water flat 1', meter_type: 'cold_water', source: 'ingest', last_reading_at: '2026-03-04T08:59:00Z', age_s: 60, stale: false, data_quality: ok },
]

/** The list as a browser shows it in `language`, with the real texts of the power namespace. */
async function render(language: 'en' | 'de' | 'fr' | 'it', list = shownMeters(meters)) {
  const i18n = createInstance()
  const texts = JSON.parse(readFileSync(new URL(`../../i18n/locales/${language}/power.json`, import.meta.url), 'utf8'))
  await i18n.use(initReactI18next).init({ lng: language, resources: { [language]: { power: texts } }, interpolation: { escapeValue: false }, react: { useSuspense: false } })
  const f = { dateTime: (v: string | number | Date) => formatDateTime(v, 'CH', 'Europe/Zurich') }
  const html = renderToStaticMarkup(<I18nextProvider i18n={i18n}><MeterDataList meters={list} f={f} /></I18nextProvider>)
  return html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ')
}

const item = (text: string, name: string, next?: string) => text.slice(text.indexOf(name), next ? text.indexOf(next) : undefined)

describe("the Power page's meters", () => {
  it('lists the flow meters always and another meter only while its data is stale or flagged', () => {
    expect(shownMeters(meters).map((m) => m.id)).toEqual([1, 2, 3])
  })

  it('says a silent meter has no current data and how old its last reading is, with its source', async () => {
    const text = await render('en')
    expect(item(text, 'Main meter', 'PV inverter')).toContain('Source: Modbus gateway · last reading 5 s ago')
    expect(item(text, 'Main meter', 'PV inverter')).toContain('Current')
    expect(item(text, 'PV inverter', 'Heat flat 1')).toContain('Source: MQTT · last reading 2 h ago')
    expect(item(text, 'PV inverter', 'Heat flat 1')).toContain('No current data')
  })

  it('shows a flagged meter with the reason and when', async () => {
    const text = item(await render('en'), 'Heat flat 1')
    expect(text).toContain('Data flagged')
    expect(text).toContain('Reading set aside on 04.03.26, 09:30: register went down from 120 to 5 kWh (counter reset or swapped meter)')
  })

  it('in German, French and Italian (formal)', async () => {
    expect(await render('de')).toContain('Keine aktuellen Daten')
    expect(await render('de')).toContain('letzter Messwert vor 2 h')
    expect(await render('fr')).toContain('dernière mesure il y a 2 h')
    expect(await render('it')).toContain('ultima misura 2 h fa')
    expect(await render('it')).toContain('Dati segnalati')
  })
})
