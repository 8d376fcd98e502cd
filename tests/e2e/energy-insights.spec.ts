import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync, readFileSync } from 'node:fs'
import { logIn, savedLanguageTag, saveLanguageTag, serverNow, zurichDay } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

// What evcc and Home Assistant users expect (docs/decisions.md "Screens: solar share, ratios,
// comparisons"), in German: sessions filtered by station and person with their totals on screen and in
// the export, each session's solar share and price per kWh, and on Charts the self-sufficiency and
// self-consumption against the previous period.

/** A figure as the page writes it in de-CH ("1’234.56 kWh", "42.9 %", "−3.5 Pkt.") → 1234.56, 42.9, −3.5. */
const figure = (text: string) => Number(text.replace(/−/g, '-').replace(/[^\d.-]/g, ''))

async function inGerman(page: Page) {
  await page.getByRole('combobox', { name: 'Language' }).selectOption('de')
  await expect(page.getByRole('combobox', { name: 'Sprache' })).toHaveValue('de')
}

test('an admin filters the sessions by station and person, sees the totals, exports them and opens one (German)', async ({ page, request }) => {
  // The header's picker saves the language on the admin's account: put it back.
  const language = await savedLanguageTag(request, 'admin@example.com')
  try {
    await logIn(page, 'admin@example.com')
    await inGerman(page)
    await page.getByRole('navigation', { name: 'Seitenleiste' }).getByRole('link', { name: 'Ladevorgänge' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Ladevorgänge' })).toBeVisible()
    // The backfilled 30 days: the year of 15 days ago has sessions at every station.
    const year = zurichDay(await serverNow(page), -15).slice(0, 4)
    await page.getByLabel('Zeitraum').selectOption('given')
    await page.getByLabel('Jahr').selectOption(year)
    const table = page.getByRole('table', { name: 'Ladevorgänge' })
    const totals = table.getByRole('row', { name: /Total der Periode/ })
    await expect(totals).toContainText(/\d\skWh/)
    const allKwh = figure((await totals.getByRole('cell').nth(1).innerText()).split('\n')[0])
    expect(allKwh).toBeGreaterThan(0)
    // Sessions measured while the installation's PV ran carry their solar share.
    await expect(table.getByText(/\d+\s?% Solar/).first()).toBeVisible()

    // One station: every row is at that station, and the totals are that station's.
    const station = page.getByLabel('Ladestation', { exact: true })
    const stationName = (await station.locator('option').nth(1).innerText()).trim()
    await station.selectOption({ label: stationName })
    await expect(table.getByRole('row').nth(1)).toContainText(stationName)
    const stationRows = table.locator('tbody tr')
    for (const row of await stationRows.all()) await expect(row).toContainText(stationName)
    await expect.poll(async () => figure((await totals.getByRole('cell').nth(1).innerText()).split('\n')[0])).toBeLessThan(allKwh)
    const stationKwh = figure((await totals.getByRole('cell').nth(1).innerText()).split('\n')[0])

    // The export has the same sessions and the same total, in the installation's local time.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Als CSV exportieren' }).click()])
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(csv[0]).toContain('Beginn (Europe/Zurich)')
    expect(csv[0]).toContain('Solaranteil %')
    const body = csv.slice(1, -1)
    expect(body.length).toBeGreaterThan(0)
    for (const line of body) expect(line).toContain(stationName)
    const header = csv[0].split(',')
    const total = csv.at(-1)!.split(',')
    expect(total[0]).toBe('Total')
    expect(Number(total[header.indexOf('Energie kWh')])).toBeCloseTo(stationKwh, 1)

    // And one person at that station: their sessions only, with a smaller or equal total.
    const person = page.getByLabel('Person', { exact: true })
    await expect(person.locator('option')).not.toHaveCount(1)
    await person.selectOption({ label: 'Laura Brunner' })
    await expect.poll(async () => (await table.locator('tbody tr').allInnerTexts()).every((r) => r.includes('Laura Brunner')) || (await page.getByText('Keine Ladevorgänge in diesem Zeitraum.').isVisible())).toBe(true)

    // Back to all people, open a session: its solar share and average price per kWh.
    await person.selectOption({ label: 'Alle Personen' })
    await table.locator('tbody tr').filter({ hasText: /% Solar/ }).first().getByRole('link').click()
    await expect(page.getByRole('heading', { level: 1, name: 'Details zum Ladevorgang' })).toBeVisible()
    const field = (label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd')
    await expect(field('Solaranteil')).toHaveText(/^\d+(\.\d)?\s?% \(\d+\.\d{2}\skWh aus der PV-Anlage\)$/)
    const price = figure(await field('Preis').innerText())
    const energy = figure(await field('Geladene Energie').innerText())
    const perKwh = figure(await field('Durchschnittspreis pro kWh').innerText())
    // The page rounds CHF and kWh to cents and hundredths (a 0.02 kWh session costs CHF 0.01): the
    // figures agree within that rounding.
    expect(Math.abs(perKwh * energy - price)).toBeLessThanOrEqual(0.005 + perKwh * 0.005 + 0.001)
  } finally {
    await saveLanguageTag(request, 'admin@example.com', language)
  }
})

test('on a phone, Charts shows self-sufficiency and self-consumption against the previous day and week (German)', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const language = await savedLanguageTag(request, 'admin@example.com')
  try {
    await logIn(page, 'admin@example.com')
    await inGerman(page)
    await page.goto('/facility/1/charts')
    const card = page.getByRole('region', { name: 'Autarkie und Vergleich' })
    await expect(card).toBeVisible()
    const sufficiency = card.getByRole('group', { name: 'Autarkiegrad' })
    await expect(sufficiency).toContainText('%')
    await expect(sufficiency).toContainText(/Pkt\. ggü\. Vortag|Kein Wert für den vorherigen Zeitraum/)
    await expect(card.getByRole('group', { name: 'Eigenverbrauchsquote' })).toContainText('%')
    // Today runs: compared until now with yesterday until the same time, and the card says so.
    await expect(card).toContainText('Der Zeitraum läuft noch')
    // The ratio is the one the card's own figures give: 1 − grid import ÷ consumption.
    const row = (name: string) => card.getByRole('row', { name: new RegExp(`^${name}`) })
    const consumption = figure(await row('Verbrauch').getByRole('cell').first().innerText())
    const gridImport = figure(await row('Netzbezug').getByRole('cell').first().innerText())
    if (consumption > 0) {
      const shown = figure((await sufficiency.locator('p').nth(1).innerText()))
      expect(shown).toBeCloseTo(Math.max(0, 100 * (1 - gridImport / consumption)), 0)
    }
    // The card fits the phone's width.
    const box = await card.boundingBox()
    expect(box!.width).toBeLessThanOrEqual(390)

    await page.getByRole('group', { name: 'Zeitraum' }).getByRole('button', { name: 'Woche' }).click()
    await expect(card.getByRole('table')).toContainText('Energiesummen ggü. Vorwoche')
    await expect(row('Solarproduktion').getByRole('cell').nth(2)).toHaveText(/^[+−±]\d|^–$/)
  } finally {
    await saveLanguageTag(request, 'admin@example.com', language)
  }
})

test('a resident without the overview right sees no ratios on Charts', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.goto('/facility/1/charts')
  await expect(page.getByRole('heading', { level: 1, name: 'Charts' })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Charging stations', exact: true })).toContainText('kWh')
  await expect(page.getByRole('region', { name: 'Self-sufficiency and comparison' })).toHaveCount(0)
})
