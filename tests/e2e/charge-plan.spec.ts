import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn, PASSWORD } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * Charge plans (docs/decisions.md "Load management: charge plans"): Laura's car (user@example.com, her
 * card) plugs in at Station 1, a station she may only read. On its Status tab, on a phone, she sets
 * "30 kWh by 07:00, weekdays" with the keyboard (a wrong figure is refused at its field first); on a
 * desktop she sees it after a reload and removes it.
 */
test.describe.configure({ mode: 'serial' })

const STATION_ID = 1
const PAGE = `/facility/1/power/stations/${STATION_ID}`

test('a resident sets a charge plan for her car on a phone, sees it on a desktop and removes it', async ({ page }) => {
  test.setTimeout(120_000)
  const token = await page.request.post('/api/authentication/token/', { data: { email: 'admin@example.com', password: PASSWORD } })
  const asAdmin = { headers: { Authorization: `Bearer ${((await token.json()) as { access: string }).access}` } }
  const cards = (await (await page.request.get('/api/cockpit/installations/1/rfids/?limit=1000', asAdmin)).json()).results as { id: number; tag: string }[]
  const laurasCard = cards.find((c) => c.tag === '04A1B2C3D4E501')!
  const station = `/api/cockpit/installations/1/charging_stations/${STATION_ID}`
  expect((await page.request.post(`${station}/simulator/plug_in`, { ...asAdmin, data: { minutes: 120, energy_kwh: 40, rfid_id: laurasCard.id } })).status()).toBe(202)
  try {
    await page.setViewportSize({ width: 360, height: 740 })
    await logIn(page, 'user@example.com')
    await page.goto(PAGE)
    const plan = page.getByRole('region', { name: 'Charge plan' })
    // The simulator opens the session at its next 5-second step; the live stream brings it to the page.
    const add = plan.getByRole('button', { name: 'Set a charge plan' })
    await expect(add).toBeVisible({ timeout: 30_000 })
    await add.click()

    const energy = plan.getByLabel('Energy (kWh)')
    await energy.fill('500')
    await plan.getByLabel('Ready by').fill('07:00')
    await plan.getByRole('radio', { name: 'On these weekdays' }).check()
    await expect(plan.getByRole('checkbox', { name: 'Friday' })).toBeChecked()
    await expect(plan.getByRole('checkbox', { name: 'Saturday' })).not.toBeChecked()
    await plan.getByRole('button', { name: 'Save plan' }).click()
    await expect(energy).toHaveAttribute('aria-invalid', 'true')
    await expect(energy).toHaveAccessibleDescription('Enter the energy in kWh, more than 0 and at most 200, or choose “Full”.')

    // The keyboard alone: type the figure and send the form with Enter.
    await energy.fill('')
    await energy.pressSequentially('30')
    await energy.press('Enter')
    await expect(plan.getByTestId('plan-summary')).toHaveText(/^30(\.00)?\s?kWh by 07:00, weekdays$/)
    await expect(plan.getByRole('button', { name: 'Remove plan' })).toBeVisible()
    // Nothing pushes the phone's page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)

    await page.setViewportSize({ width: 1280, height: 800 })
    await page.reload()
    await expect(plan.getByTestId('plan-summary')).toHaveText(/^30(\.00)?\s?kWh by 07:00, weekdays$/)
    await plan.getByRole('button', { name: 'Remove plan' }).click()
    await expect(plan.getByTestId('plan-summary')).toHaveCount(0)
    await expect(plan.getByRole('button', { name: 'Set a charge plan' })).toBeVisible()
  } finally {
    await page.request.delete(`${station}/charge_plan`, asAdmin)
    await page.request.post(`${station}/simulator/unplug`, asAdmin)
  }
})
