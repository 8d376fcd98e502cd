import { describe, expect, it } from 'vitest'
import i18next from 'i18next'
import { formatDate, intlLocale } from '../../../shared/rules/formats.ts'
import { shortcutLabel } from './shortcut-label.ts'
import frCharts from '../../i18n/locales/fr/charts.json' with { type: 'json' }
import frReports from '../../i18n/locales/fr/reports.json' with { type: 'json' }
import deCharts from '../../i18n/locales/de/charts.json' with { type: 'json' }

const tz = 'Europe/Zurich'
/** The translations and formats a French (or German) reader in Switzerland has. */
async function reader(lang: 'fr' | 'de') {
  const i18n = i18next.createInstance()
  await i18n.init({ lng: lang, resources: { fr: { charts: frCharts, reports: frReports }, de: { charts: deCharts } } })
  const locale = intlLocale(lang, 'CH')
  return { charts: i18n.getFixedT(lang, 'charts'), reports: i18n.getFixedT(lang, 'reports'), f: { locale, date: (v: string | number | Date) => formatDate(v, 'CH', tz) }, tz }
}

describe('a shortcut\'s name on Home (SPEC §2)', () => {
  it('names a chart pinned in German from its kind and period in the reader\'s language now', async () => {
    const pinned = { name: 'Solar · März 2026', url: '/facility/1/charts?kind=solar&period=month&date=2026-03-01' }
    expect(shortcutLabel(pinned, await reader('fr'))).toBe('Solaire · mars 2026')
    expect(shortcutLabel({ name: 'Verbrauch · 2026', url: '/facility/1/charts?kind=consumption&period=year&date=2026-01-01' }, await reader('fr'))).toBe('Consommation · 2026')
    expect(shortcutLabel({ name: 'x', url: '/facility/1/charts?kind=flowMeter&period=day&date=2026-03-04' }, await reader('de'))).toBe('Flussmesser · 04.03.2026')
  })

  it('names the reports screen by its title, and keeps the stored name of anything else', async () => {
    const fr = await reader('fr')
    expect(shortcutLabel({ name: 'Berichte', url: '/facility/1/reports' }, fr)).toBe('Rapports')
    expect(shortcutLabel({ name: 'Station 7', url: '/facility/1/power/stations/7' }, fr)).toBe('Station 7')
    // A chart link this version cannot read (an unknown kind or period, a broken date) keeps its name.
    expect(shortcutLabel({ name: 'Alt', url: '/facility/1/charts?kind=nope&period=month&date=2026-03-01' }, fr)).toBe('Alt')
    expect(shortcutLabel({ name: 'Alt', url: '/facility/1/charts?kind=solar&period=decade&date=2026-03-01' }, fr)).toBe('Alt')
    expect(shortcutLabel({ name: 'Alt', url: '/facility/1/charts?kind=solar&period=day&date=03/2026' }, fr)).toBe('Alt')
  })
})
