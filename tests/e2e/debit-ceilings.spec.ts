import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { apiSession, logIn } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * Management → Installation settings, the debit ceilings (docs/decisions.md "Charging: plausible charger
 * figures and debit ceilings"): a superuser types them in the region's number format (both "." and ","
 * as the decimal sign, an ambiguous "1,234" refused at the field), the API's refusal of an amount below
 * CHF 1 shows at its field, and what was saved comes back after a reload (on an installation of its own,
 * made through the API: the demo's has no address, which the form needs); the demo installation's admin
 * sees its ceilings read-only.
 */
test.describe.configure({ mode: 'serial' })

let made = 0

test.afterAll(async ({ request }) => {
  if (!made) return
  const { headers } = await apiSession(request, 'super@example.com')
  expect([204, 404]).toContain((await request.delete(`/api/cockpit/installations/${made}/`, { headers })).status())
})

test('a superuser sets the monthly ceiling in CHF: refusals at the field, the saved amount after a reload', async ({ page, request }) => {
  const { headers } = await apiSession(request, 'super@example.com')
  const r = await request.post('/api/cockpit/installations/', {
    headers, data: { name: `Ceilings ${Date.now() % 100_000}`, timezone: 'Europe/Zurich', address: { street: 'Bahnhofstrasse', building_number: '1', zip: '3000', city: 'Bern', country: 'CH' } },
  })
  expect(r.status()).toBe(201)
  made = ((await r.json()) as { id: number }).id
  const PAGE = `/facility/${made}/management/installation`
  await logIn(page, 'super@example.com')
  await page.goto(PAGE)
  const form = page.getByRole('region', { name: 'Installation', exact: true })
  const limits = form.getByRole('group', { name: 'Debit limits for charging' })
  await expect(limits).toBeVisible({ timeout: 30_000 })
  const month = limits.getByLabel('Limit per resident and month (CHF)')
  const session = limits.getByLabel('Limit per session (CHF)')
  // The defaults apply: empty fields, the default as their placeholder.
  await expect(month).toHaveValue('')
  // In the superuser's region format (en-CH: 1'000.00).
  await expect(month).toHaveAttribute('placeholder', /^1\D000\.00$/)
  await expect(session).toHaveAttribute('placeholder', '200.00')

  // "1,234" could be 1.234 or 1234 in en-CH: refused before anything is sent.
  await month.fill('1,234')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(month).toHaveAttribute('aria-invalid', 'true')
  await expect(month).toHaveAccessibleDescription('Please enter an amount in CHF, for example 250.50, or leave the field empty for the default.')

  // Below CHF 1: the API refuses it, at the field.
  await month.fill('0.5')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByRole('alert')).toContainText('Please double-check the highlighted fields.')
  await expect(month).toHaveAttribute('aria-invalid', 'true')
  await expect(month).toHaveAccessibleDescription(/\S/)
  await expect(session).not.toHaveAttribute('aria-invalid', 'true')

  // A comma as the decimal sign is read as one too, and the field says what will be saved.
  await month.fill('250,50')
  await expect(limits).toContainText('Will be saved as CHF 250.50.')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByRole('status')).toContainText('The installation settings were saved.')

  await page.reload()
  await expect(page.getByRole('region', { name: 'Installation', exact: true }).getByLabel('Limit per resident and month (CHF)')).toHaveValue('250.50')
  const saved = (await (await request.get(`/api/cockpit/installations/${made}/`, { headers })).json()) as { debit_ceilings: unknown }
  expect(saved.debit_ceilings).toEqual({ session: 200, month: 250.5, custom: true })
})

test("the installation's admin sees the ceilings read-only", async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.goto('/facility/1/management/installation')
  const limits = page.getByRole('group', { name: 'Debit limits for charging' })
  // The installation's details come after the page (a loaded CI machine took over 10 s).
  await expect(limits).toBeVisible({ timeout: 30_000 })
  await expect(limits).toContainText('Limit per resident and month (CHF)')
  await expect(limits).toContainText(/CHF\s1\D000\.00 \(default\)/)
  await expect(limits).toContainText(/CHF\s200\.00 \(default\)/)
  await expect(limits).toContainText("Only the operator's superusers change these limits.")
  await expect(limits.getByRole('textbox')).toHaveCount(0)
})
