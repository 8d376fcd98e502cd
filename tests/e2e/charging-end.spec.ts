import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { apiSession, connectChargePoint, logIn, PASSWORD, serverNow } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * A charger that never stops its transaction (docs/decisions.md "Charging: plausible charger figures and
 * debit ceilings"): the demo's OCPP charge point DEMO-CP-1 starts one for user@example.com's card and goes
 * away. The resident sees the session running and cannot end it; the admin ends it on the session's page
 * with a reason (after a refusal without one), and the page shows it ended.
 */
test.describe.configure({ mode: 'serial' })

const CHARGE_POINT = 'DEMO-CP-1'
const STATION = 'Garage OCPP'
/** user@example.com's card, valid at every station of the demo. */
const CARD = '04A1B2C3D4E501'

let sessionId = 0

test('a transaction the charger never stops leaves the session open', async ({ page, baseURL, request }) => {
  const cp = await connectChargePoint(`${baseURL!.replace(/^http/, 'ws')}/ocpp/${CHARGE_POINT}`, CHARGE_POINT, PASSWORD)
  try {
    await cp.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Box' })
    const now = await serverNow(page)
    await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 5_000_000, timestamp: new Date(now.getTime() - 120_000).toISOString() })
    await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' })
  } finally {
    await cp.close({ force: true })
  }
  const { headers } = await apiSession(request, 'admin@example.com')
  await expect(async () => {
    const r = await request.get('/api/rfids-charge/?installation=1&running=true&limit=100', { headers })
    const open = ((await r.json()) as { results: { id: number; station_name: string; end: string | null }[] }).results
    const ours = open.find((s) => s.station_name === STATION && s.end === null)
    expect(ours).toBeTruthy()
    sessionId = ours!.id
  }).toPass({ timeout: 15_000 })
})

test('the resident sees the session running and has no way to end it', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.goto(`/facility/1/sessions/${sessionId}`)
  await expect(page.getByRole('heading', { name: STATION })).toBeVisible()
  await expect(page.getByText('Still charging').first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'End session' })).toHaveCount(0)
})

test('the admin ends it by hand with a reason, and the page shows it ended', async ({ page, request, baseURL }) => {
  await logIn(page, 'admin@example.com')
  await page.goto(`/facility/1/sessions/${sessionId}`)
  await page.getByRole('button', { name: 'End session' }).click()
  const dialog = page.getByRole('dialog', { name: 'End this charging session?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(`${STATION}, started`)
  // Without a reason it is refused at the field, and nothing ends.
  await dialog.getByRole('button', { name: 'End session' }).click()
  await expect(dialog.getByText('Please give a reason of at least 3 characters.')).toBeVisible()
  await dialog.getByLabel('Reason (recorded with the change)').fill('The charger never stopped it; the car left at noon.')
  await dialog.getByRole('button', { name: 'End session' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('note')).toContainText('The session ended at')
  await expect(page.getByRole('button', { name: 'End session' })).toHaveCount(0)
  await expect(page.getByText('Still charging')).toHaveCount(0)
  const { headers } = await apiSession(request, 'admin@example.com')
  const s = (await (await request.get(`/api/rfids-charge/${sessionId}/`, { headers })).json()) as { end: string | null }
  expect(s.end).not.toBeNull()
  // The charger comes back free, as the other specs on DEMO-CP-1 expect to find it.
  const cp = await connectChargePoint(`${baseURL!.replace(/^http/, 'ws')}/ocpp/${CHARGE_POINT}`, CHARGE_POINT, PASSWORD)
  try {
    await cp.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Box' })
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError' })
  } finally {
    await cp.close({ force: true })
  }
})
