import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn } from './fixtures.ts'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/** How long the API takes to answer a list below: far longer than a page may show a spinner for. */
const SLOW_MS = 8_000

// Screens read through TanStack Query. What a user notices: a screen opened again shows
// its data at once even while the API is slow, and a save shows on another screen without a reload,
// although that screen's list was read (and cached) before the save.
test('a screen opened again shows its data at once while the API is slow; a pin shows on Home without a reload', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  const shortcuts = page.getByRole('region', { name: 'Your shortcuts' })
  // Home has read the (cached) shortcut list: Reports is not on it.
  await expect(shortcuts.getByRole('list').or(shortcuts.getByText('Pin a charging station', { exact: false }))).toBeVisible()
  await expect(shortcuts.getByRole('link', { name: 'Reports', exact: true })).toHaveCount(0)

  await sidebar.getByRole('link', { name: 'Rates', exact: true }).click()
  const firstRate = page.getByRole('article').first()
  await expect(firstRate).toBeVisible()
  const rateName = (await firstRate.getByRole('heading').textContent()) ?? ''

  // Pinning Reports changes the shortcut list Home read at login: Home must show it on return.
  await sidebar.getByRole('link', { name: 'Reports', exact: true }).click()
  await page.getByRole('button', { name: 'Pin to Home' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The shortcut has been added.' })).toBeVisible()
  await sidebar.getByRole('link', { name: 'Main Menu', exact: true }).click()
  await expect(shortcuts.getByRole('link', { name: 'Reports', exact: true })).toBeVisible()

  // From now on the rates API answers only after SLOW_MS: the list read before still shows at once.
  let slowAnswers = 0
  await page.route('**/api/cockpit/installations/*/rates/**', async (route) => {
    slowAnswers++
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS))
    await route.continue().catch(() => undefined)
  })
  await sidebar.getByRole('link', { name: 'Rates', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Rates' })).toBeVisible()
  await expect(page.getByRole('article', { name: rateName })).toBeVisible({ timeout: 2_000 })
  await expect(page.getByText('Loading rates…')).toHaveCount(0)
  await page.unroute('**/api/cockpit/installations/*/rates/**')
  // A fresh answer is not asked for within the cache's 30 s (or only in the background).
  expect(slowAnswers).toBeLessThanOrEqual(1)

  // Leave Home as it was.
  await sidebar.getByRole('link', { name: 'Main Menu', exact: true }).click()
  await page.getByRole('button', { name: 'Remove shortcut Reports' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The shortcut has been removed.' })).toBeVisible()
  await expect(shortcuts.getByRole('link', { name: 'Reports', exact: true })).toHaveCount(0)
})
