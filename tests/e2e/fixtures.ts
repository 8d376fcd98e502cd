import { expect } from '@playwright/test'
import type { Page } from '@playwright/test'

/** The password of every demo account (README, server/db/demo-seed.ts). */
export const PASSWORD = 'Cockpit-2026!'

/** Log in through the login page and wait for the facility home. */
export async function logIn(page: Page, email: string, password: string = PASSWORD): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}
