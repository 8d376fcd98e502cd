import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

test('the sidebar entry "Car charging stations" opens the station list on the Power page', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill('user@example.com')
  await page.getByLabel('Password', { exact: true }).fill('Cockpit-2026!')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/1$/)
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Car charging stations' }).click()
  await expect(page).toHaveURL(/\/facility\/1\/power#stations$/)
  const list = page.getByRole('list', { name: 'Charging stations' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(page.getByRole('heading', { level: 2, name: 'Charging stations' })).toBeInViewport()
})
