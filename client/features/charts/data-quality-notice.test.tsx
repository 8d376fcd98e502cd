import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { createInstance } from 'i18next'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import type { PeriodDataQuality } from '../../../shared/schemas/statistics.ts'
import { formatDateTime } from '../../../shared/rules/formats.ts'
import { DataQualityNotice } from './data-quality-notice.tsx'
import { SeriesTable } from './series-table.tsx'
import { incompleteBuckets } from './kinds.ts'

const quality: PeriodDataQuality = {
  gaps: [{ meter_id: 7, meter_name: 'Main meter', meter_type: 'main_power', start: '2026-03-04T09:00:00.000Z', end: '2026-03-04T10:15:00.000Z' }],
  flagged: [{ meter_id: 7, meter_name: 'Main meter', timestamp: '2026-03-04T11:02:00.000Z', measurand: 'Energy.Active.Import.Register', reason: 'register went down from 122 to 5 kWh' }],
}

async function render(language: 'en' | 'de' | 'fr' | 'it', node: (f: { dateTime: (v: string | number | Date) => string }) => React.ReactElement) {
  const i18n = createInstance()
  const texts = JSON.parse(readFileSync(new URL(`../../i18n/locales/${language}/charts.json`, import.meta.url), 'utf8'))
  await i18n.use(initReactI18next).init({ lng: language, resources: { [language]: { charts: texts } }, interpolation: { escapeValue: false }, react: { useSuspense: false } })
  const f = { dateTime: (v: string | number | Date) => formatDateTime(v, 'CH', 'Europe/Zurich') }
  const html = renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node(f)}</I18nextProvider>)
  return html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ')
}

describe('gaps and flagged readings on the charts', () => {
  it('names the stretch without readings in local time and says the figures are not measured zeros', async () => {
    const text = await render('en', (f) => <DataQualityNotice quality={quality} f={f} />)
    expect(text).toContain('Missing or set-aside meter data')
    expect(text).toContain('Main meter: no readings from 04.03.26, 10:00 to 04.03.26, 11:15')
    expect(text).toContain('they are not measured zeros')
    expect(text).toContain('Main meter, 04.03.26, 12:02: reading set aside (register went down from 122 to 5 kWh)')
    expect(await render('it', (f) => <DataQualityNotice quality={quality} f={f} />)).toContain('Main meter: nessuna misura dal 04.03.26, 10:00 al 04.03.26, 11:15')
  })

  it('shows nothing for a complete period', async () => {
    expect(await render('en', (f) => <DataQualityNotice quality={{ gaps: [], flagged: [] }} f={f} />)).toBe('')
  })

  it("marks the table's hours that overlap the gap, not the others", async () => {
    const hours = ['09:00', '10:00', '11:00', '12:00'].map((h, i) => ({ start: `2026-03-04T${h}:00+01:00`, value: i }))
    const incomplete = incompleteBuckets(hours, quality.gaps, '2026-03-04T13:00:00+01:00')
    expect([...incomplete]).toEqual(['2026-03-04T10:00:00+01:00', '2026-03-04T11:00:00+01:00'])
    const text = await render('de', () => (
      <SeriesTable series={{ grid_import: hours }} label={() => 'Netzbezug'} bucketLabel={(s) => s.slice(11, 16)} value={(_, v) => `${v} kWh`} incomplete={incomplete} />
    ))
    expect(text).toContain('09:00 0 kWh 10:00 Daten fehlen 1 kWh 11:00 Daten fehlen 2 kWh 12:00 3 kWh')
  })
})
