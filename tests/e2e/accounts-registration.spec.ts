import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn } from './fixtures.ts'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

test('an admin opens self-registration and the login page then offers it', async ({ page, request }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill('admin@example.com')
  await page.getByLabel('Password', { exact: true }).fill('Cockpit-2026!')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/1$/)
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management', exact: true }).click()
  const card = page.getByRole('region', { name: 'Self-registration' })
  const box = card.getByRole('checkbox', { name: 'Residents may register themselves for this facility' })
  await expect(box).not.toBeChecked()
  await box.check()
  await expect(card.getByRole('status')).toHaveText('Saved.')
  await page.reload()
  await expect(page.getByRole('region', { name: 'Self-registration' }).getByRole('checkbox')).toBeChecked()

  const other = await page.context().browser()!.newContext()
  const visitor = await other.newPage()
  await visitor.goto('/login?installation=1')
  await expect(visitor.getByRole('link', { name: 'Create an account' })).toBeVisible()
  // The terms and the privacy policy can be read before accepting them.
  await visitor.getByRole('link', { name: 'Create an account' }).click()
  await visitor.getByRole('button', { name: 'Privacy policy' }).click()
  const policy = visitor.getByRole('dialog', { name: 'Privacy policy' })
  await expect(policy).toContainText('Version 2025-04-01')
  await expect(policy.getByTestId('legal-text')).toContainText('We process your name, e-mail address')
  await policy.getByRole('button', { name: 'Close' }).click()
  await expect(policy).toBeHidden()
  await other.close()

  // Close it again so the other specs see the demo as seeded.
  await page.getByRole('region', { name: 'Self-registration' }).getByRole('checkbox').uncheck()
  await expect(page.getByRole('region', { name: 'Self-registration' }).getByRole('status')).toHaveText('Saved.')
  expect((await (await request.get('/api/users/can-register?installation=1')).json()).can_register).toBe(false)
})

test('a superuser publishes new terms; a resident is asked to read and accept them at the next sign-in', async ({ page }) => {
  await logIn(page, 'super@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Legal texts' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Legal texts' })).toBeVisible()
  const terms = page.getByRole('region', { name: 'Terms of use' })
  await expect(terms).toContainText('Version 2025-04-01')
  await terms.getByRole('button', { name: 'Read Terms of use version 2025-04-01 in German' }).click()
  await expect(page.getByRole('dialog')).toContainText('Nutzungsbedingungen des Cockpit-Portals')
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()

  const form = page.getByRole('form', { name: 'Publish a new version' })
  await form.getByLabel('Version', { exact: true }).fill('2026-12-01-e2e')
  await form.getByLabel('Text in English').fill('Terms of use, e2e edition.\n\n1. Be kind to the chargers.')
  await form.getByLabel('Text in Italian').fill('')
  await form.getByRole('button', { name: 'Publish' }).click()
  await expect(form.getByLabel('Text in Italian')).toHaveAttribute('aria-invalid', 'true')
  await form.getByLabel('Text in Italian').fill("Condizioni d'uso, edizione e2e.")
  await form.getByRole('button', { name: 'Publish' }).click()
  await page.getByRole('dialog', { name: 'Publish Terms of use version 2026-12-01-e2e?' }).getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByText('Terms of use version 2026-12-01-e2e is published.')).toBeVisible()
  await expect(terms).toContainText('Version 2026-12-01-e2e')

  // The resident signs in and is asked to read and accept the new terms.
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/login/)
  await logIn(page, 'user@example.com')
  const reminder = page.getByRole('region', { name: 'Legal texts to accept' })
  await expect(reminder).toContainText('Terms of use')
  await reminder.getByRole('link', { name: 'Read and accept' }).click()
  const card = page.getByRole('region', { name: 'Terms' })
  await expect(card).toContainText('Terms of use (version 2026-12-01-e2e)')
  await card.getByRole('button', { name: 'Read Terms of use' }).click()
  const dialog = page.getByRole('dialog', { name: 'Terms of use' })
  await expect(dialog.getByTestId('legal-text')).toContainText('1. Be kind to the chargers.')
  await dialog.getByRole('button', { name: 'Accept' }).click()
  await expect(dialog).toBeHidden()
  await expect(card.getByRole('button', { name: 'Accept Terms of use' })).toHaveCount(0)
  // Terms accepted; the demo resident accepted the privacy policy when the demo was seeded, so the reminder is gone.
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Power' })).toBeVisible()
  await expect(reminder).toHaveCount(0)
})
