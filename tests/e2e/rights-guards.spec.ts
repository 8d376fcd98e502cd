import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/** Admin-only screens (SPEC §2 Management, §6) with the heading an admin sees there. */
const adminScreens = (userId: string) => [
  { url: '/facility/1/management/users', heading: 'Users' },
  { url: `/facility/1/management/users/${userId}`, heading: 'Laura Brunner' },
  { url: `/facility/1/management/users/${userId}/permissions`, heading: 'Permissions' },
  { url: '/facility/1/rates', heading: 'Rates' },
  { url: '/facility/1/reports', heading: 'Reports' },
]

/** The demo resident's user id, from the session the login stored. */
async function residentId(page: Page): Promise<string> {
  await logIn(page, 'user@example.com')
  const id = await page.evaluate(() => localStorage.getItem('cockpit.userId'))
  expect(id).toMatch(/^\d+$/)
  return id!
}

async function openStationTab(page: Page, station: string, tab: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  await page.getByRole('link', { name: `Details of ${station}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: station })).toBeVisible()
  await page.getByRole('tablist', { name: 'Station pages' }).getByRole('tab', { name: tab }).click()
}

test('a resident typing an admin URL gets the no-access page, not a form that fails on save', async ({ page }) => {
  const userId = await residentId(page)
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  for (const name of ['Management', 'Rates', 'Reports']) await expect(sidebar.getByRole('link', { name, exact: true })).toHaveCount(0)

  const refused: string[] = []
  page.on('response', (r) => {
    if (r.status() === 403) refused.push(r.url())
  })
  for (const { url, heading } of adminScreens(userId)) {
    await page.goto(url)
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 1, name: 'No access' })).toBeVisible()
    await expect(main.getByRole('heading', { level: 1, name: heading, exact: true })).toHaveCount(0)
    await expect(main.getByRole('textbox')).toHaveCount(0)
    await expect(main.getByRole('button')).toHaveCount(0)
    await expect(main.getByRole('link', { name: 'Back to home' })).toBeVisible()
  }
  // The screens were never loaded: no admin call was made only to be refused.
  expect(refused).toEqual([])

  await page.getByRole('main').getByRole('link', { name: 'Back to home' }).click()
  await expect(page).toHaveURL(/\/facility\/1$/)
  await expect(page.getByRole('heading', { level: 1, name: /Laura/ })).toBeVisible()
})

test('a resident who may only read a station sees its settings as text, without save or mode controls', async ({ page }) => {
  await residentId(page)
  await openStationTab(page, 'Station 1', 'Management')
  const panel = page.getByRole('tabpanel')
  await expect(panel.getByText('You can see this station’s settings but not change them.')).toBeVisible()
  await expect(panel.getByRole('button')).toHaveCount(0)
  await expect(panel.getByRole('textbox')).toHaveCount(0)
  await expect(panel.getByRole('combobox')).toHaveCount(0)
  await expect(panel.getByRole('term').filter({ hasText: 'Charging mode' })).toBeVisible()
  await expect(panel.getByRole('term').filter({ hasText: 'Name' })).toBeVisible()

  // Their own card they may rename: the guard hides only what they cannot change.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'RFIDs', exact: true }).click()
  const card = page.getByRole('list', { name: 'RFID cards' }).getByRole('listitem', { name: '04A1B2C3D4E501' })
  await expect(card.getByRole('button', { name: 'Edit RFID 04A1B2C3D4E501' })).toBeEnabled()
  await expect(card.getByText('Read only')).toHaveCount(0)
  // Pricing: read, no tariff editing.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Pricing', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible()
  await expect(page.getByRole('button', { name: /New tariff version|Change the upcoming tariff/ })).toHaveCount(0)
})

test('an admin opens the same URLs and gets the screens and the station form', async ({ page }) => {
  const userId = await residentId(page)
  await page.getByRole('button', { name: 'Log out' }).click()
  await logIn(page, 'admin@example.com')
  for (const { url, heading } of adminScreens(userId)) {
    await page.goto(url)
    await expect(page.getByRole('main').getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'No access' })).toHaveCount(0)
  }
  await openStationTab(page, 'Station 1', 'Management')
  const panel = page.getByRole('tabpanel')
  await expect(panel.getByRole('combobox', { name: 'Charging mode' })).toBeEnabled()
  await expect(panel.getByRole('button', { name: 'Save' })).toBeEnabled()
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Pricing', exact: true }).click()
  await expect(page.getByRole('button', { name: /New tariff version|Change the upcoming tariff/ })).toBeEnabled()
})
