import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'

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

async function openRfids(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'RFIDs', exact: true }).click()
  await expect(page).toHaveURL(/\/facility\/\d+\/rfids$/)
  await expect(page.getByRole('heading', { level: 1, name: 'RFIDs' })).toBeVisible()
}

test('an admin adds, edits and deletes an RFID card; a tag with spaces is refused', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await openRfids(page)
  const list = page.getByRole('list', { name: 'RFID cards' })
  await expect(list.getByRole('listitem')).toHaveCount(6)

  await page.getByRole('button', { name: 'Add RFID' }).click()
  const form = page.getByRole('form', { name: 'Add RFID' })
  await form.getByLabel('Tag').fill('04 AA BB')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByText('The RFID tag must not contain spaces.')).toBeVisible()
  await form.getByLabel('Tag').fill('04AABBCCDD')
  await form.getByLabel(/Description/).fill('Visitor card')
  await form.getByLabel('All charging stations').uncheck()
  await form.getByLabel('Station 3').check()
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The data has been saved.' })).toBeVisible()
  const card = list.getByRole('listitem', { name: '04AABBCCDD' })
  await expect(card).toContainText('Visitor card')
  await expect(card).toContainText('Station 3')

  await card.getByRole('button', { name: 'Edit RFID 04AABBCCDD' }).click()
  await page.getByRole('form', { name: 'Edit RFID' }).getByLabel(/Description/).fill('Cleaning service')
  await page.getByRole('form', { name: 'Edit RFID' }).getByRole('button', { name: 'Save' }).click()
  await expect(card).toContainText('Cleaning service')

  await card.getByRole('button', { name: 'Delete RFID 04AABBCCDD' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete this RFID?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(card).toBeVisible()
  await card.getByRole('button', { name: 'Delete RFID 04AABBCCDD' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('RFID 04AABBCCDD has been deleted.')).toBeVisible()
  await expect(list.getByRole('listitem', { name: '04AABBCCDD' })).toHaveCount(0)
})

test('an admin learns a new card at a station with a car plugged in; it appears live and is registered', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  // Demo control: a guest car plugs in at Station 2, whatever the hour (docs/decisions.md).
  const token = await page.request.post('/api/authentication/token/', { data: { email: 'admin@example.com', password: PASSWORD } })
  const { access } = (await token.json()) as { access: string }
  const plug = await page.request.post('/api/cockpit/installations/1/charging_stations/2/simulator/plug_in', {
    headers: { Authorization: `Bearer ${access}` },
    data: { minutes: 30 },
  })
  expect(plug.status()).toBe(202)

  await openRfids(page)
  const learning = page.getByRole('region', { name: 'Learning mode' })
  const row = learning.getByRole('listitem', { name: 'Station 2' })
  await expect(row).toContainText('Car plugged in', { timeout: 20_000 })
  await row.getByRole('button', { name: 'Start learning at Station 2' }).click()
  await expect(row.getByRole('button', { name: 'Stop learning at Station 2' })).toBeVisible()

  // The station learns the next unknown badge; it arrives through the live stream.
  const detected = row.getByRole('region', { name: 'New RFID detected' })
  await expect(detected).toBeVisible({ timeout: 20_000 })
  const tag = (await detected.locator('.font-mono').innerText()).trim()
  expect(tag).toMatch(/^[0-9A-F]{14}$/)
  await detected.getByLabel(/Description/).fill('Guest Polestar')
  await detected.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByText(`RFID ${tag} has been registered. It is ready in about 3 minutes.`)).toBeVisible()
  const card = page.getByRole('list', { name: 'RFID cards' }).getByRole('listitem', { name: tag })
  await expect(card).toContainText('Guest Polestar')
  await expect(card).toContainText('Ready in about 3 minutes')
  await expect(row.getByRole('button', { name: 'Start learning at Station 2' })).toBeVisible({ timeout: 15_000 })
})

test('a resident sees only their own card and no learning mode', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await openRfids(page)
  const list = page.getByRole('list', { name: 'RFID cards' })
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByRole('listitem', { name: '04A1B2C3D4E501' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Learning mode' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Add RFID' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Delete RFID/ })).toHaveCount(0)

  // Order a new card: CHF 25, 3–4 working days, through the mail outbox.
  await page.getByRole('button', { name: 'Order new RFID' }).click()
  const form = page.getByRole('form', { name: 'Order a new RFID card' })
  await expect(form).toContainText('CHF 25')
  await form.getByRole('button', { name: 'Order' }).click()
  await expect(form.getByText('The field is required.').first()).toBeVisible()
  await form.getByRole('button', { name: 'Use billing details' }).click()
  await expect(form.getByLabel('First name')).toHaveValue('Laura')
  await expect(form.getByLabel('Last name')).toHaveValue('Brunner')
  await form.getByLabel('Address').fill('Seestrasse 12')
  await form.getByLabel('ZIP code').fill('8002')
  await form.getByLabel('City').fill('Zürich')
  await form.getByLabel('Number of cards').fill('2')
  await expect(form).toContainText('Total: CHF 50.00')
  await form.getByRole('button', { name: 'Order' }).click()
  await expect(page.getByText('The RFID has been ordered. It will be delivered in 3–4 working days.')).toBeVisible()
  await expect(form).toHaveCount(0)
})
