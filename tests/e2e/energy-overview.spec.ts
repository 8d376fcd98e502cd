import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

const PASSWORD = 'Cockpit-2026!'

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name, exact: true }).click()

test('an admin sees the overview cards and the installation tree', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await nav(page, 'Overview')
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()
  for (const title of ['Main power connection', 'Power monitoring', 'Flow meter', 'PV', 'Battery', 'Energy return', 'Water meter', 'Heating meter', 'Charging stations']) {
    await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible()
  }
  await expect(page.getByRole('region', { name: 'Water meter' })).toContainText('m3')
  await expect(page.getByRole('region', { name: 'Battery' })).toContainText('%')

  await nav(page, 'Installation view')
  await expect(page.getByRole('heading', { level: 1, name: 'Installation view' })).toBeVisible()
  const building = page.getByRole('region', { name: 'Residence Zürich' })
  await expect(building.getByRole('link', { name: 'Main power connection' })).toBeVisible()
  const garage = page.getByRole('region', { name: 'Garage' })
  await expect(garage.getByRole('link')).toHaveCount(7)
  await garage.getByRole('link', { name: 'Station 1', exact: true }).click()
  await expect(page).toHaveURL(/\/power\/stations\/\d+$/)
})

test('a user without the overview switch sees only their charging stations', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await nav(page, 'Overview')
  await expect(page.getByText('Main meters, PV, battery and the flow meter are shown to users with the overview permission.')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Charging stations' })).toContainText('kWh')
  await expect(page.getByRole('region', { name: 'Main power connection' })).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Energy return' })).toHaveCount(0)
  await nav(page, 'Installation view')
  await expect(page.getByRole('region', { name: 'Your charging stations' }).getByRole('link')).toHaveCount(2)
})
