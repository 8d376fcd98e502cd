import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync, readFileSync } from 'node:fs'
import { PDFParse } from 'pdf-parse'
import { serverNow, zurichDay } from './fixtures.ts'

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

test('a resident filters their sessions by period, opens one and downloads its invoice', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charging Sessions' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Charging sessions' })).toBeVisible()

  // The simulator's backfill covers the last 30 days: the year of 15 days ago has sessions.
  const year = zurichDay(await serverNow(page), -15).slice(0, 4)
  await page.getByLabel('Period').selectOption('given')
  await page.getByLabel('Year').selectOption(year)
  const table = page.getByRole('table', { name: 'Sessions' })
  await expect(table.getByRole('columnheader', { name: 'End date' })).toBeVisible()
  await expect(table.getByRole('columnheader', { name: 'Price' })).toBeVisible()
  await expect(table.getByRole('columnheader', { name: 'Status' })).toBeVisible()
  const rows = table.getByRole('row')
  await expect(rows.nth(1)).toBeVisible()
  // Only their own sessions are listed (shared/rules/visibility.ts), each with a price; which comes first
  // depends on the simulated day. Running sessions are listed on top: in
  // the evening the resident's car is charging, so take an ended one (paid or unpaid).
  const own = rows.filter({ hasText: 'CHF' }).filter({ hasText: /Paid|Unpaid/ }).filter({ has: page.getByRole('link') }).first()
  await expect(own).toBeVisible()

  await own.getByRole('link').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Session details' })).toBeVisible()
  const details = page.locator('section[aria-labelledby="session-title"]')
  await expect(details).toContainText('Transaction fee')
  await expect(details).toContainText(/Paid on|Unpaid/)
  // SPEC §3: the energy price, the transaction fee and their total, as the invoice prints them.
  const field = async (label: string) => (await page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd').innerText()).trim()
  const price = await field('Price')
  const total = await field('Total')
  // Intl writes a no-break space between the currency and the digits.
  expect(price).toMatch(/^CHF\s\d+\.\d{2}$/)
  expect(total).toMatch(/^CHF\s\d+\.\d{2}$/)
  const chf = (text: string) => Number(text.replace(/[^\d.]/g, ''))
  expect(chf(total)).toBeCloseTo(chf(price) + chf(await field('Transaction fee')), 2)

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download invoice' }).click()])
  expect(download.suggestedFilename()).toMatch(/^invoice-\d+\.pdf$/)
  const file = readFileSync(await download.path())
  expect(file.subarray(0, 4).toString()).toBe('%PDF')
  const parser = new PDFParse({ data: new Uint8Array(file) })
  const text = (await parser.getText()).text
  await parser.destroy()
  expect(text).toContain('Invoice')
  // The PDF writes plain spaces where the page has Intl's no-break space (PDFKit's fonts lack U+202F).
  expect(text).toContain(`Total ${total.replace(/\s/g, ' ')}`)
})

test('an admin pages through the period with its totals, sees who charged and exports it', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charging Sessions' }).click()
  // The backfilled 30 days: the current year (or, early in January, the one of 15 days ago) has many sessions.
  const year = zurichDay(await serverNow(page), -15).slice(0, 4)
  await page.getByLabel('Period').selectOption('given')
  await page.getByLabel('Year').selectOption(year)
  const table = page.getByRole('table', { name: 'Sessions' })
  await expect(table.getByRole('columnheader', { name: 'User' })).toBeVisible()
  const totals = table.getByRole('row', { name: /Total for the period/ })
  await expect(totals).toContainText(/\d\skWh/)
  await expect(totals).toContainText(/CHF\s\d/)
  const pages = page.getByRole('navigation', { name: 'Pages of sessions' })
  await expect(pages.getByRole('status')).toHaveText(/^1–20 of \d+$/)
  await pages.getByRole('button', { name: 'Next' }).click()
  await expect(pages.getByRole('status')).toHaveText(/^21–/)
  // The second page still shows the period's totals (their exact sums are the integration test's).
  await expect(totals).toContainText(/CHF\s\d/)

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
  expect(download.suggestedFilename()).toBe('charging-sessions.csv')
  const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n')
  expect(csv[0]).toBe('Start (Europe/Zurich),End (Europe/Zurich),Charging station,User,RFID,Energy kWh,Price CHF,Transaction fee CHF,Total CHF,Average CHF/kWh,Solar share %,Status')
  // Local times of the installation, as the list shows them, in a form spreadsheets read as dates.
  expect(csv[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/)
  expect(csv[csv.length - 1]).toMatch(/^Total,/)
})

test('an unknown session shows "Session is not found"', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.goto('/facility/1/sessions/999999')
  await expect(page.getByRole('alert')).toHaveText('Session is not found')
})
