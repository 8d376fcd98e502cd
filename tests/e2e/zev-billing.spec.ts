import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')


test('an admin picks the ZEV billing model on Pricing; a flat rate above 80 % is refused; the ZEV report states the model', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Pricing', exact: true }).click()
  const card = page.getByRole('region', { name: 'ZEV billing' })
  await expect(card.getByRole('form')).toHaveAttribute('aria-busy', 'false')
  await expect(card.getByLabel('Billing model')).toHaveValue('flat_rate')
  await card.getByLabel(/Flat rate, % of the standard product/).fill('85')
  await card.getByRole('button', { name: 'Save ZEV billing' }).click()
  await expect(card).toContainText('the flat rate is at most 80 % of the external standard electricity product')

  await card.getByLabel('Billing model').selectOption('actual_costs')
  await card.getByRole('button', { name: 'Save ZEV billing' }).click()
  await expect(card.getByRole('status')).toContainText('The ZEV billing model has been saved.')

  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charts', exact: true }).click()
  await page.getByLabel('Chart').selectOption({ label: 'ZEV' })
  const zev = page.getByRole('region', { name: 'ZEV allocation' })
  await expect(zev).toContainText('Model: actual costs less feed-in revenue (EnV Art. 16 para. 2)')
  await expect(zev).toContainText('Cap: 100% of the external standard product')
  await expect(zev).toContainText('Feed-in revenue deducted: CHF')

  // Back to the default, so other specs see the demo as seeded.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Pricing', exact: true }).click()
  await card.getByLabel('Billing model').selectOption('flat_rate')
  await card.getByLabel(/Flat rate, % of the standard product/).fill('80')
  await card.getByRole('button', { name: 'Save ZEV billing' }).click()
  await expect(card.getByRole('status')).toContainText('The ZEV billing model has been saved.')
  // The report read seconds ago is still fresh (30 s): the save itself must refresh it.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charts', exact: true }).click()
  await page.getByLabel('Chart').selectOption({ label: 'ZEV' })
  await expect(zev).toContainText(/Model: flat rate, 80\s?%/)
})
