import { AxeBuilder } from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { apiSession, connectChargePoint, logIn, PASSWORD, serverNow, type ChargePoint } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * Charging sessions → Sessions held for review (docs/decisions.md "Charging: plausible charger figures and
 * debit ceilings"): the demo's OCPP charge point DEMO-CP-1 reports 2,000,000 kWh in one minute on its 11 kW
 * station, the session is held; the admin finds it from Charging sessions, sees why, corrects it to
 * 0.15 kWh with a reason (after a refusal at the field), and the session leaves the list with the corrected
 * energy on its page. A resident gets no review screen.
 */
test.describe.configure({ mode: 'serial' })

const CHARGE_POINT = 'DEMO-CP-1'
const STATION = 'Garage OCPP'
/** user@example.com's card, valid at every station of the demo. */
const CARD = '04A1B2C3D4E501'
const REASON = 'The charger reported more energy than the station can deliver.'

let heldId = 0

test('a charger figure the station cannot deliver holds the session', async ({ page, baseURL, request }) => {
  let cp: ChargePoint | undefined
  try {
    cp = await connectChargePoint(`${baseURL!.replace(/^http/, 'ws')}/ocpp/${CHARGE_POINT}`, CHARGE_POINT, PASSWORD)
    await cp.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Box' })
    const now = await serverNow(page)
    const { transactionId } = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 1_000_000, timestamp: new Date(now.getTime() - 60_000).toISOString() })) as { transactionId: number }
    await cp.call('StopTransaction', { transactionId, meterStop: 1_000_000 + 2_000_000_000, timestamp: now.toISOString(), idTag: CARD, reason: 'Local' })
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError' })
  } finally {
    await cp?.close({ force: true })
  }
  const { headers } = await apiSession(request, 'admin@example.com')
  await expect(async () => {
    const r = await request.get('/api/rfids-charge/?installation=1&status=held', { headers })
    const held = ((await r.json()) as { results: { id: number; station_name: string; hold_reason: string }[] }).results
    const ours = held.find((s) => s.station_name === STATION && s.hold_reason === 'energyImplausible')
    expect(ours).toBeTruthy()
    heldId = ours!.id
  }).toPass({ timeout: 15_000 })
})

test('on a phone the held session fits the width, and the screen has no serious axe violations', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  for (const size of [{ width: 360, height: 740 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size)
    await page.goto('/facility/1/sessions/review')
    await expect(page.getByRole('heading', { level: 1, name: 'Sessions held for review' })).toBeVisible()
    await expect(page.getByRole('article').filter({ hasText: REASON }).first()).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
    const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    const serious = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.id === 'region')
    expect(serious.map((v) => `${size.width}: ${v.id} × ${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
})

test('the admin finds it from Charging sessions, sees why, corrects it, and it leaves the list', async ({ page }) => {
  expect(heldId).toBeGreaterThan(0)
  await logIn(page, 'admin@example.com')
  // The session's own page (where the admins' mail leads) shows why and the way to the review screen.
  await page.goto(`/facility/1/sessions/${heldId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Session details' })).toBeVisible()
  await expect(page.getByText(REASON)).toBeVisible()
  await expect(page.getByRole('main').getByRole('link', { name: 'Sessions held for review' })).toBeVisible()
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charging Sessions' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Charging sessions' })).toBeVisible()
  const note = page.getByRole('note').filter({ hasText: 'Sessions held for review' })
  await expect(note).toContainText(/\d+ waits?/)
  await note.getByRole('link', { name: 'Sessions held for review' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions held for review' })).toBeVisible()

  const card = page.getByRole('article').filter({ has: page.locator(`a[href$="/sessions/${heldId}"]`) })
  await expect(card).toContainText(REASON)
  await expect(card).toContainText(STATION)
  await expect(card).toContainText('Laura Brunner')
  await expect(card).toContainText(CARD)

  // Keyboard: the action opens its confirmation with Enter, Escape closes it and nothing changed.
  await card.getByRole('button', { name: 'Correct energy' }).focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Correct the energy?' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('Energy charged (kWh)')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(card).toBeVisible()

  await card.getByRole('button', { name: 'Correct energy' }).click()
  const energy = dialog.getByLabel('Energy charged (kWh)')
  // Nothing typed: each field says what to do, announced with it.
  await dialog.getByRole('button', { name: 'Correct and release' }).click()
  await expect(energy).toHaveAttribute('aria-invalid', 'true')
  await expect(energy).toHaveAccessibleDescription('Please enter the energy in kWh, for example 12.5.')
  await expect(dialog.getByLabel('Reason (recorded with the change)')).toHaveAccessibleDescription('Please give a reason of at least 3 characters.')

  await energy.fill('0.15')
  await expect(dialog).toContainText('Will be saved as 0.15 kWh.')
  await dialog.getByLabel('Reason (recorded with the change)').fill('Meter photo: 0.15 kWh')
  await dialog.getByRole('button', { name: 'Correct and release' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('status')).toContainText(/Corrected to 0\.15\skWh \(CHF\s0\.\d\d\): the session is billed\./)
  await expect(card).toHaveCount(0)

  // Its page shows the corrected figure, billed like any other session.
  await page.getByRole('link', { name: 'Open the session' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Session details' })).toBeVisible()
  const field = (label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd')
  await expect(field('Energy charged')).toHaveText(/^0\.15\skWh$/)
  await expect(field('Payment')).toHaveText('Unpaid')
})

test('with nothing held the screen says so', async ({ page, request }) => {
  const { headers } = await apiSession(request, 'admin@example.com')
  const held = ((await (await request.get('/api/rfids-charge/?installation=1&status=held', { headers })).json()) as { results: { id: number }[] }).results
  // Sessions held by anything else are released through the API, as the screen would.
  for (const s of held) {
    const r = await request.post(`/api/cockpit/installations/1/charging_sessions/${s.id}/review`, { headers, data: { action: 'approve', reason: 'e2e: released' } })
    expect(r.ok()).toBe(true)
  }
  await logIn(page, 'admin@example.com')
  await page.goto('/facility/1/sessions/review')
  await expect(page.getByText('No charging session waits for review.')).toBeVisible()
})

test('a resident gets no review screen and no link to it', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charging Sessions' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Charging sessions' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sessions held for review' })).toHaveCount(0)
  await page.goto('/facility/1/sessions/review')
  await expect(page.getByRole('heading', { level: 1, name: 'No access' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Correct energy' })).toHaveCount(0)
})
