import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill('Cockpit-2026!')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

test('an admin creates a monthly report, sends it now and deletes it after confirming', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Reports', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible()
  await expect(page.getByText('No reports yet.')).toBeVisible()

  await page.getByRole('button', { name: 'New report' }).click()
  const form = page.getByRole('form', { name: 'New report' })
  await form.getByLabel('Name').fill('Water monthly')
  await form.getByLabel('Report', { exact: true }).selectOption({ label: 'Water report' })
  await form.getByLabel('Recipients', { exact: true }).fill('caretaker@example.org, nope')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByText('The field is not a valid email address')).toBeVisible()
  await form.getByLabel('Recipients', { exact: true }).fill('caretaker@example.org')
  // The year and output directory of SPEC §3/§7 are in the form and on the card.
  await form.getByLabel('Year', { exact: true }).fill('2025')
  await form.getByLabel('Output directory').fill('../outside')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByLabel('Output directory')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByText('Please enter a valid output directory: folder names separated by "/", e.g. exports/heat')).toBeVisible()
  await form.getByLabel('Output directory').fill('exports/water')
  await form.getByLabel('Quarterly').check()
  await form.getByLabel('Show changes to the previous period').check()
  await form.getByRole('button', { name: 'Save' }).click()

  const card = page.getByRole('article', { name: 'Water monthly' })
  await expect(card).toContainText('Water report · Monthly, Quarterly · Show changes to the previous period')
  await expect(card).toContainText('caretaker@example.org')
  await expect(card).toContainText('Year: 2025 · Output directory: exports/water')
  await card.getByRole('button', { name: 'Send Water monthly now' }).click()
  await expect(page.getByText('The report has been queued for sending.')).toBeVisible()

  await card.getByRole('button', { name: 'Delete Water monthly' }).click()
  await page.getByRole('alertdialog', { name: 'Delete the report Water monthly?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('article', { name: 'Water monthly' })).toHaveCount(0)
  await expect(page.getByText('No reports yet.')).toBeVisible()

  // The ZEV report is listed with the others and opens on screen.
  await page.getByRole('region', { name: 'ZEV report' }).getByRole('link', { name: 'Open the ZEV report' }).click()
  await expect(page).toHaveURL(/\/charts\?kind=zev&period=month$/)
  await expect(page.getByRole('heading', { name: 'ZEV allocation' })).toBeVisible()
})
