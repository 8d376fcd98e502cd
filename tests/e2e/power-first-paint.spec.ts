import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

// Power paints the last known state at once, before the live stream has sent anything.
test('Power shows the tab\'s last figures, marked stale, while the live stream is held back', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill('admin@example.com')
  await page.getByLabel('Password').fill('Cockpit-2026!')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  const flow = page.getByRole('region', { name: 'Current power flow' })
  const grid = flow.getByRole('group', { name: 'Grid', exact: true })
  await expect(grid).toContainText('kW')
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible()

  // From now on the relay never answers: no ticket, no stream, no snapshot.
  await page.route('**/live/**', () => undefined)
  await page.reload()

  await expect(page.getByRole('heading', { level: 1, name: 'Power' })).toBeVisible()
  await expect(grid).toContainText('kW')
  await expect(page.getByRole('region', { name: 'Energy today' })).toContainText('kWh')
  await expect(page.getByRole('region', { name: 'Charging stations', exact: true }).getByRole('article')).toHaveCount(7)
  // Not passed off as live: the connection is still being made and the tiles say their data is stale.
  await expect(page.getByRole('status').filter({ hasText: 'Connecting' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Current power flow' }).getByText('Stale')).toBeVisible()
})
