import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

// The address a new user types is the bare origin; it answered 403 {"detail":"Forbidden"}.
test('a newcomer opens / in a fresh browser, lands on the login and reaches home after logging in', async ({ page }) => {
  const response = await page.goto('/')
  expect(response?.status()).toBe(200)
  expect(response?.headers()['content-type']).toMatch(/^text\/html/)
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Cockpit' })).toBeVisible()
  await page.getByLabel('E-mail').fill('admin@example.com')
  await page.getByLabel('Password').fill('Cockpit-2026!')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: /Andreas/ })).toBeVisible()
})

// A first start that explains itself: with the demo on, the login page says how to sign in.
test('the demo\'s login page lists its accounts; picking one fills the form and Enter signs in', async ({ page }) => {
  await page.goto('/login')
  const demo = page.getByRole('region', { name: 'Demo facility' })
  await expect(demo).toContainText('Password for all: Cockpit-2026!')
  await expect(demo.getByRole('button')).toHaveText([/super@example\.com.*Superuser, every installation/, /admin@example\.com.*Facility admin, Demo Residence Zürich/, /user@example\.com.*Resident, Demo Residence Zürich/, /admin2@example\.com.*Facility admin, Demo Office Bern/])
  await demo.getByRole('button', { name: /user@example\.com/ }).click()
  await expect(page.getByLabel('E-mail')).toHaveValue('user@example.com')
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('Cockpit-2026!')
  await expect(page.getByRole('button', { name: 'Log in' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/facility\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: /Laura/ })).toBeVisible()
})
