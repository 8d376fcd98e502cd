import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc.js'
import timezone from 'dayjs/plugin/timezone.js'
import { serverNow, zurichDay } from './fixtures.ts'

dayjs.extend(utc)
dayjs.extend(timezone)

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

const PASSWORD = 'Cockpit-2026!'

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

/** The number in a KPI card, e.g. "1,234.56 kWh" → 1234.56. */
const figure = (text: string) => Number(text.replace(/[^\d.,-]/g, '').replace(/,/g, ''))

test('an admin opens Charts, switches day → month, goes back one period and sees values', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charts', exact: true }).click()
  await expect(page).toHaveURL(/\/facility\/\d+\/charts$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Charts' })).toBeVisible()

  const periods = page.getByRole('group', { name: 'Period' })
  await expect(periods.getByRole('button', { name: 'Day' })).toHaveAttribute('aria-pressed', 'true')
  const consumption = page.getByRole('group', { name: 'Consumption', exact: true })
  await expect(consumption).toContainText('kWh')
  // Today: hourly buckets from local midnight (the table lists them), in Swiss 24-hour time by default.
  await page.getByText('Show the values as a table').click()
  // The chart's own table (the ratios card below has a table of its own).
  const chart = page.getByRole('region', { name: 'Consumption', exact: true })
  await expect(chart.getByRole('rowheader').first()).toContainText('00:00')
  // The hours of the server's local day in Zürich (23 or 25 on the days the clocks change).
  const today = dayjs.tz(zurichDay(await serverNow(page)), 'Europe/Zurich')
  const hours = today.add(1, 'day').diff(today, 'hour')
  await expect(chart.getByRole('rowheader')).toHaveCount(hours)

  await periods.getByRole('button', { name: 'Month' }).click()
  await expect(periods.getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true')
  const label = page.getByTestId('period-label')
  const thisMonth = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'Europe/Zurich' }).format(await serverNow(page))
  await expect(label).toHaveText(thisMonth)
  await expect(consumption).toContainText('kWh')
  const monthTotal = figure(await consumption.locator('p').nth(1).innerText())
  expect(monthTotal).toBeGreaterThan(0)

  await page.getByRole('button', { name: 'Previous period' }).click()
  await expect(label).not.toHaveText(thisMonth)
  await expect(consumption).toContainText('kWh')
  // The demo backfills 30 days, so last month has measurements too.
  await expect.poll(async () => figure(await consumption.locator('p').nth(1).innerText())).toBeGreaterThan(0)

  // Another chart kind, in CHF.
  await page.getByLabel('Chart').selectOption({ label: 'Cost' })
  await expect(page.getByRole('group', { name: 'Cost', exact: true })).toContainText('CHF')

  // ZEV: the period's energy allocated to the participants (a meter per flat), with their cost, the
  // model and its cap (EnV Art. 16), a total row, and a warning: the demo's 30 days do not cover last month.
  await page.getByLabel('Chart').selectOption({ label: 'ZEV' })
  const zev = page.getByRole('region', { name: 'ZEV allocation' })
  await expect(zev.getByRole('row', { name: /Building/ })).toContainText('kWh')
  await expect(zev.getByRole('row', { name: /Building/ })).toContainText('CHF')
  await expect(zev.getByRole('row', { name: /Apartment 1/ })).toContainText('CHF')
  await expect(zev.getByRole('row', { name: /Station 1 \(billed per charging session\)/ })).toContainText('CHF 0.00')
  await expect(zev.getByRole('row', { name: /Total/ })).toContainText('CHF')
  await expect(zev).toContainText(/Model: (flat rate, \d+%|actual costs)/)
  await expect(zev).toContainText(/Cap: \d+% of the external standard product/)
  await expect(zev.getByRole('status')).toContainText('missing meter data')
})

test('a user without the overview switch sees only charging stations', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charts', exact: true }).click()
  await expect(page.getByRole('group', { name: 'Charging stations', exact: true })).toContainText('kWh')
  await expect(page.getByLabel('Chart').locator('option')).toHaveText(['Charging stations'])
  // Usable at 360 px: nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 740 })
  await expect(page.getByRole('button', { name: 'Next period' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.screenshot({ path: 'test-results/energy-charts-360.png', fullPage: true })
})

test('an admin sees Tremor bars and KPI cards, the flow meter and the battery chart', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charts', exact: true }).click()
  await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Month' }).click()
  // Energy per bucket: a Tremor (recharts) bar chart, with the total in a Tremor KPI card.
  const consumption = page.getByRole('group', { name: 'Consumption', exact: true })
  await expect(consumption).toContainText('kWh')
  await expect(consumption).toHaveClass(/tremor-Card/)
  const bars = page.getByTestId('bar-chart')
  await expect.poll(() => bars.locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0)
  await page.screenshot({ path: 'test-results/energy-charts-bars.png', fullPage: true })

  // The flow meter: kW between grid, PV, battery, building and stations, drawn as lines.
  await page.getByLabel('Chart').selectOption({ label: 'Flow meter' })
  for (const name of ['Grid power', 'Solar power', 'Battery charging power', 'Battery discharging power', 'Building power', 'Charging power']) {
    await expect(page.getByRole('group', { name, exact: true })).toContainText('kW')
  }
  await expect(page.getByTestId('line-chart').locator('canvas').first()).toBeVisible()
  await page.getByText('Show the values as a table').click()
  await expect(page.getByRole('columnheader', { name: 'Building power' })).toBeVisible()

  // The battery: charge and discharge as bars, the state of charge as a line.
  await page.getByLabel('Chart').selectOption({ label: 'Battery' })
  await expect(page.getByRole('group', { name: 'Battery charge', exact: true })).toContainText('kWh')
  await expect(page.getByRole('group', { name: 'State of charge', exact: true })).toContainText('%')
  await expect.poll(() => page.getByTestId('bar-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0)
  await expect(page.getByTestId('line-chart').locator('canvas').first()).toBeVisible()
  await page.screenshot({ path: 'test-results/energy-charts-battery.png', fullPage: true })
})

test("the installation view opens a meter's and a flat's own charts in the period last looked at", async ({ page }) => {
  await logIn(page, 'admin@example.com')
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  await sidebar.getByRole('link', { name: 'Charts', exact: true }).click()
  await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Month' }).click()
  await expect(page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true')

  await sidebar.getByRole('link', { name: 'Installation view', exact: true }).click()
  await page.getByRole('link', { name: 'Charts of Heat apartment 1' }).click()
  await expect(page).toHaveURL(/\/charts\?meter=\d+&period=month&date=\d{4}-\d{2}-\d{2}$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Heat apartment 1' })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true')
  // Only this meter's heat: one chart in kWh, no facility series (consumption, grid, PV).
  await expect(page.getByRole('region', { name: 'Heating (kWh)' })).toBeVisible()
  const totals = page.getByRole('list', { name: 'Totals' })
  await expect(totals.getByRole('listitem')).toHaveCount(1)
  await expect(totals).toContainText(/Heating\s*[\d,.]+ kWh/)

  await page.goBack()
  await page.getByRole('link', { name: 'Charts of Apartment 1' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Apartment 1' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Totals' })).toContainText('Electricity')
  await expect(page.getByRole('list', { name: 'Totals' })).toContainText('Cold water')
  await expect(page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true')

  await page.getByRole('link', { name: 'Charts of the whole facility (same period)' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Charts' })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true')
})
