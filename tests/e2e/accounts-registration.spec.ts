import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

test('an admin opens self-registration and the login page then offers it', async ({ page, request }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill('admin@example.com')
  await page.getByLabel('Password', { exact: true }).fill('Cockpit-2026!')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/1$/)
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management' }).click()
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
  await other.close()

  // Close it again so the other specs see the demo as seeded.
  await page.getByRole('region', { name: 'Self-registration' }).getByRole('checkbox').uncheck()
  await expect(page.getByRole('region', { name: 'Self-registration' }).getByRole('status')).toHaveText('Saved.')
  expect((await (await request.get('/api/users/can-register?installation=1')).json()).can_register).toBe(false)
})
