import { expect, test } from '@playwright/test'
import type { APIRequestContext } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn, PASSWORD, serverNow } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')


async function token(request: APIRequestContext, email: string): Promise<string> {
  const r = await request.post('/api/authentication/token/', { data: { email, password: PASSWORD } })
  expect(r.ok()).toBe(true)
  return (await r.json()).access as string
}

interface Session { id: number; user_id: number | null; station_id: number; start: string; status: string; end: string | null; price: number | null; transaction_fee: number | null }

test('a resident adds a card through the demo checkout, makes it primary and sees a session paid with the fee', async ({ page }) => {
  test.setTimeout(120_000)
  await logIn(page, 'user@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Settings', exact: true }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Payment methods' })).toBeVisible()
  await page.getByRole('link', { name: 'Manage payment methods' }).click()
  await expect(page).toHaveURL(/\/facility\/1\/settings\/payment-method$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Payment methods' })).toBeVisible()
  // The card fees as SPEC §9 states them, with VAT and international cards.
  await expect(page.getByText(/^Card fees:/)).toContainText('prices include VAT. International cards may cost more or be blocked.')
  const list = page.getByRole('list', { name: 'Your cards' })
  // The demo resident starts with a stored Mastercard, primary.
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByRole('listitem').first()).toContainText('Mastercard •••• •••• •••• 4444')
  await expect(list.getByRole('listitem').first()).toContainText('Primary')

  // The provider's hosted checkout (the built-in DEMO provider).
  await page.getByRole('button', { name: 'Add a card' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Demo checkout' })).toBeVisible()
  const year = String((await serverNow(page)).getUTCFullYear() + 2)
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry month').selectOption('12')
  await page.getByLabel('Expiry year').selectOption(year)
  await page.getByRole('button', { name: 'Authorise' }).click()

  // Back with ?success, shown once and removed from the address.
  await expect(page).toHaveURL(/\/facility\/1\/settings\/payment-method$/)
  await expect(page.getByRole('status').filter({ hasText: 'The card has been added.' })).toBeVisible()
  const visa = list.getByRole('listitem').filter({ hasText: 'Visa •••• •••• •••• 4242' })
  await expect(visa).toContainText(`Expires 12/${year}`)
  await expect(visa).not.toContainText('Primary')
  await expect(page.getByText('4242424242424242')).toHaveCount(0)

  await visa.getByRole('button', { name: 'Set as primary: Visa •••• •••• •••• 4242' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The primary payment method has been changed.' })).toBeVisible()
  await expect(visa).toContainText('Primary')
  await expect(list.getByRole('listitem').filter({ hasText: 'Mastercard' })).not.toContainText('Primary')

  // A finished, unpaid session of the resident, made now with the demo controls: the backfill's unpaid
  // sessions are charged by the quarter-hourly job, which may already have run when this test starts.
  const userToken = await token(page.request, 'user@example.com')
  const adminToken = await token(page.request, 'admin@example.com')
  const asUser = { headers: { Authorization: `Bearer ${userToken}` } }
  const asAdmin = { headers: { Authorization: `Bearer ${adminToken}` } }
  const meId = Number(JSON.parse(Buffer.from(userToken.split('.')[1], 'base64url').toString()).user_id)
  const cards = (await (await page.request.get('/api/cockpit/installations/1/rfids/?limit=1000', asAdmin)).json()).results as { id: number; user_id: number | null }[]
  const myCard = cards.find((c) => c.user_id === meId)!
  const station1 = '/api/cockpit/installations/1/charging_stations/1/simulator'
  // The guest car's session is the one opened at Station 1 after it plugged in: in the evening the
  // resident's own scheduled car may be charging too (another running session of theirs).
  const pluggedAt = (await serverNow(page)).getTime() - 10_000
  expect((await page.request.post(`${station1}/plug_in`, { ...asAdmin, data: { minutes: 60, energy_kwh: 20, rfid_id: myCard.id } })).status()).toBe(202)
  const mine = async () => ((await (await page.request.get('/api/rfids-charge/?installation=1&limit=1000', asUser)).json()).results as (Session & { energy_kwh: number })[])
    .filter((s) => s.user_id === meId)
  let running: (Session & { energy_kwh: number }) | undefined
  await expect.poll(async () => (running = (await mine()).find((s) => !s.end && s.station_id === 1 && Date.parse(s.start) >= pluggedAt))?.energy_kwh ?? 0, { timeout: 40_000, intervals: [1000] }).toBeGreaterThan(0.05)
  expect((await page.request.post(`${station1}/unplug`, asAdmin)).status()).toBe(202)
  let unpaid: Session | undefined
  await expect.poll(async () => (unpaid = (await mine()).find((s) => s.id === running!.id))?.status, { timeout: 15_000, intervals: [1000] }).toBe('unpaid')
  expect(unpaid!.price).toBeGreaterThan(0)
  await page.goto(`/facility/1/sessions/${unpaid!.id}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Session details' })).toBeVisible()
  await expect(page.locator('section[aria-labelledby="session-title"]')).toContainText('Unpaid')

  // Run the charge job now (superuser-only hook; the job runs every 15 minutes otherwise).
  const superToken = await token(page.request, 'super@example.com')
  const run = await page.request.post('/api/payments/charge-due/', { headers: { Authorization: `Bearer ${superToken}` } })
  expect(run.ok()).toBe(true)

  // Credit card fee (SPEC §9): 2.5 % + CHF 0.10 on the price.
  const base = Math.round(unpaid!.price! * 100)
  const fee = Math.round(base * 0.025) + 10
  await page.reload()
  const details = page.locator('section[aria-labelledby="session-title"]')
  await expect(details).toContainText('Paid on')
  const feeText = (await page.locator('dt', { hasText: /^Transaction fee$/ }).locator('xpath=following-sibling::dd').innerText()).trim().replace(/\s/g, ' ') // Intl's no-break space
  expect(feeText).toBe(`CHF ${(fee / 100).toFixed(2)}`)
  // SPEC §3 as the invoice: the price (energy) unchanged, the fee apart, the total their sum.
  const priceText = (await page.locator('dt', { hasText: /^Price$/ }).locator('xpath=following-sibling::dd').innerText()).trim().replace(/\s/g, ' ')
  expect(priceText).toBe(`CHF ${(base / 100).toFixed(2)}`)
  const totalText = (await page.locator('dt', { hasText: /^Total$/ }).locator('xpath=following-sibling::dd').innerText()).trim().replace(/\s/g, ' ')
  expect(totalText).toBe(`CHF ${((base + fee) / 100).toFixed(2)}`)
})

test('at 360 px: a cancelled checkout, a card expiring this month and removing a card with confirmation', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await logIn(page, 'user@example.com')
  await page.goto('/facility/1/settings/payment-method')
  await expect(page.getByRole('heading', { level: 1, name: 'Payment methods' })).toBeVisible()
  await fits()
  await page.getByRole('button', { name: 'Add a card' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Demo checkout' })).toBeVisible()
  await fits()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'The operation was canceled.' })).toBeVisible()

  // The demo card 4000 0000 0000 0069 expires this month (SPEC §5 notice).
  await page.getByRole('button', { name: 'Add a card' }).click()
  await page.getByLabel('Card number').fill('4000 0000 0000 0069')
  await page.getByRole('button', { name: 'Authorise' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The card has been added.' })).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: 'Your credit card is about to expire, please add a new one' })).toBeVisible()
  await fits()

  const list = page.getByRole('list', { name: 'Your cards' })
  const expiring = list.getByRole('listitem').filter({ hasText: '0069' })
  await expect(expiring).toContainText('Expires soon')
  await expiring.getByRole('button', { name: /^Remove Visa/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove this payment method?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The payment method has been removed.' })).toBeVisible()
  await expect(list.getByRole('listitem').filter({ hasText: '0069' })).toHaveCount(0)
  await expect(page.getByRole('alert').filter({ hasText: 'about to expire' })).toHaveCount(0)
})
