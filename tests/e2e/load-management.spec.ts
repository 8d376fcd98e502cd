import { AxeBuilder } from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { connectChargePoint, logIn, PASSWORD, savedLanguageTag, saveLanguageTag, serverNow, type ChargePoint } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * Management → Load management (docs/decisions.md "Load management: model, controller and reasons"):
 * an admin sets the grid connection's limit (a negative one is refused at its field, SPEC §5), puts the
 * demo's OCPP station "Garage OCPP" on a 10 A circuit, and sees it all again after a reload. The demo's
 * charge point DEMO-CP-1 then charges a car there; the load controller (every 10 s of the server's
 * clock) holds it at the circuit's 10 A, and the station's card on its Status tab says why, in each of
 * the four languages. Last, switching off asks first, and the settings are as before the spec.
 */
test.describe.configure({ mode: 'serial' })

const STATION = 'Garage OCPP'
const CHARGE_POINT = 'DEMO-CP-1'
/** user@example.com's card, valid at every station of the demo. */
const CARD = '04A1B2C3D4E501'

/** The controller's reason for a car held by a circuit's limit, as each language says it. */
const THROTTLED = {
  en: 'The circuit OCPP row is at its limit: 10 A for this car (1 charging).',
  de: 'Der Stromkreis OCPP row ist ausgelastet: 10 A für dieses Auto (1 laden).',
  fr: 'Le circuit OCPP row est à sa limite : 10 A pour cette voiture (1 en recharge).',
  it: 'Il circuito OCPP row è al limite: 10 A per questa auto (1 in ricarica).',
} as const
const HEADINGS = { en: 'Status', de: 'Status', fr: 'Statut', it: 'Stato' }

async function openLoadManagement(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Load management' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Load management' })).toBeVisible()
}

test('an admin sets the grid limit and a circuit; a negative limit is refused at its field; both stay after a reload', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await openLoadManagement(page)
  const toggle = page.getByRole('switch', { name: 'Load management' })
  await expect(toggle).toHaveAttribute('aria-checked', 'false')
  await expect(page.getByText('There are no circuits: every station hangs on the grid connection directly.')).toBeVisible()

  // Keyboard: the switch toggles with Space.
  await toggle.focus()
  await page.keyboard.press('Space')
  await expect(toggle).toHaveAttribute('aria-checked', 'true')

  const gridA = page.getByLabel('Grid connection limit (A per phase)')
  await gridA.fill('-63')
  await page.getByRole('button', { name: 'Save' }).click()
  // The server's words (SPEC §5), at the field and announced with it.
  await expect(gridA).toHaveAttribute('aria-invalid', 'true')
  await expect(gridA).toHaveAccessibleDescription('The value is not valid.')
  await expect(page.getByRole('alert')).toBeVisible()

  await gridA.fill('400')
  await page.getByRole('button', { name: 'Add circuit' }).click()
  await page.getByLabel('Short name (id)').fill('ocpp-row')
  await page.getByLabel('Name', { exact: true }).fill('OCPP row')
  await page.getByLabel('Limit (A per phase)', { exact: true }).fill('10')
  await page.getByLabel(`Circuit of ${STATION}`).selectOption({ label: 'OCPP row' })
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Load management was saved.')).toBeVisible()
  await expect(page.getByText('Limit in force: 400 A per phase.')).toBeVisible()

  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Load management' })).toBeVisible()
  await expect(page.getByRole('switch', { name: 'Load management' })).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByLabel('Grid connection limit (A per phase)')).toHaveValue('400')
  await expect(page.getByRole('group', { name: 'Circuit OCPP row' })).toBeVisible()
  await expect(page.getByLabel('Limit (A per phase)', { exact: true })).toHaveValue('10')
  await expect(page.getByLabel(`Circuit of ${STATION}`).locator('option:checked')).toHaveText('OCPP row')
})

test('on a phone and a desktop the screen fits its width and has no serious axe violations', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  for (const size of [{ width: 360, height: 740 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size)
    await page.goto('/facility/1/management/load-management')
    await expect(page.getByRole('group', { name: 'Circuit OCPP row' })).toBeVisible()
    // Nothing pushes the page sideways: every field and button is on the first view's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
    const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    const serious = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.id === 'region')
    expect(serious.map((v) => `${size.width}: ${v.id} × ${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
})

test('a car held by its circuit says why on its station\'s Status tab, in all four languages; switching off asks first', async ({ page, baseURL, request }) => {
  // Up to a few control rounds of 10 s, and a page load per language, on a loaded machine.
  test.setTimeout(150_000)
  let cp: ChargePoint | undefined
  // The header's picker saves the language on the admin's account (client/session/language.ts): put it back.
  const language = await savedLanguageTag(request, 'admin@example.com')
  try {
    cp = await connectChargePoint(`${baseURL!.replace(/^http/, 'ws')}/ocpp/${CHARGE_POINT}`, CHARGE_POINT, PASSWORD)
    for (const method of ['SetChargingProfile', 'ClearChargingProfile']) cp.handle(method, async () => ({ status: 'Accepted' }))
    const now = (await serverNow(page)).toISOString()
    await cp.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Box' })
    await cp.call('StatusNotification', { connectorId: 1, status: 'Preparing', errorCode: 'NoError' })
    const { transactionId } = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 100_000, timestamp: now })) as { transactionId: number }
    await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' })

    await logIn(page, 'admin@example.com')
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
    await page.getByRole('link', { name: `Details of ${STATION}` }).click()
    await expect(page.getByRole('heading', { level: 1, name: STATION })).toBeVisible()
    const card = page.getByRole('tabpanel').getByRole('article')
    // The controller runs every 10 s of the server's clock; the station's page shows its last reason.
    await expect(async () => {
      await page.reload()
      await expect(card).toContainText(THROTTLED.en, { timeout: 2_000 })
    }).toPass({ timeout: 75_000, intervals: [2_000] })

    for (const lang of ['de', 'fr', 'it', 'en'] as const) {
      await page.getByRole('combobox', { name: /^(Language|Sprache|Langue|Lingua)$/ }).selectOption(lang)
      await expect(page.getByRole('tab', { name: HEADINGS[lang], selected: true })).toBeVisible()
      await expect(card).toContainText(THROTTLED[lang])
    }

    await cp.call('StopTransaction', { transactionId, meterStop: 100_500, timestamp: (await serverNow(page)).toISOString(), idTag: CARD })
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError' })
  } finally {
    await cp?.close({ force: true })
    await saveLanguageTag(request, 'admin@example.com', language)
  }

  // Back as before: no circuit, no limit, switched off (asked first).
  await openLoadManagement(page)
  await page.getByRole('button', { name: 'Remove circuit OCPP row' }).click()
  await page.getByLabel('Grid connection limit (A per phase)').fill('')
  await page.getByRole('switch', { name: 'Load management' }).click()
  await page.getByRole('button', { name: 'Save' }).click()
  const dialog = page.getByRole('dialog', { name: 'Switch load management off?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Load management was saved.')).toBeHidden()
  await page.getByRole('button', { name: 'Save' }).click()
  await dialog.getByRole('button', { name: 'Switch off' }).click()
  await expect(page.getByText('Load management was saved.')).toBeVisible()
  await expect(page.getByRole('switch', { name: 'Load management' })).toHaveAttribute('aria-checked', 'false')
  await expect(page.getByText('No limit is set.')).toBeVisible()
})

test('a resident has no Load management entry and gets the no-access page at its address', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await expect(page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Load management' })).toHaveCount(0)
  await page.goto('/facility/1/management/load-management')
  await expect(page.getByRole('heading', { level: 1, name: 'No access' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'Load management' })).toHaveCount(0)
})

test('an admin sets peak shaving: a missing peak is refused at its field, the peak stays after a reload, and it can be switched off again', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await openLoadManagement(page)
  const peak = page.getByRole('switch', { name: 'Keep grid import under a peak' })
  await expect(peak).toHaveAttribute('aria-checked', 'false')
  await peak.click()
  await expect(peak).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByText('The battery discharges for what goes above the peak; when it is empty, the cars are held back.')).toBeVisible()
  const peakKw = page.getByLabel('Peak (kW)')
  await page.getByRole('button', { name: 'Save' }).click()
  // The server's words (SPEC §5) at the field.
  await expect(peakKw).toHaveAttribute('aria-invalid', 'true')
  await expect(peakKw).toHaveAccessibleDescription('The field is required.')
  await peakKw.fill('30')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Load management was saved.')).toBeVisible()

  await page.reload()
  await expect(page.getByRole('switch', { name: 'Keep grid import under a peak' })).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByLabel('Peak (kW)')).toHaveValue('30')
  // Back off, as before the test.
  await page.getByRole('switch', { name: 'Keep grid import under a peak' }).click()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Load management was saved.')).toBeVisible()
  await expect(page.getByRole('switch', { name: 'Keep grid import under a peak' })).toHaveAttribute('aria-checked', 'false')
})
