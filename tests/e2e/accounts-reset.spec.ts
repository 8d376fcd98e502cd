import { test, expect, type Page } from '@playwright/test'
import { captureMail, decodeQp } from './mail-capture.ts'
import { existsSync } from 'node:fs'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * Forgot password → reset through the link captured from SMTP → log in with the new password.
 * The server sends mail to 127.0.0.1:(E2E_PORT + 1000) (config/playwright.config.ts); this spec listens there.
 */
const PASSWORD = 'Cockpit-2026!'
const EMAIL = 'super@example.com'

const mails = captureMail()

/** The path and query of the reset link in the next mail to `to` after `seen` mails (the outbox sends every 10 s). */
async function nextResetLink(to: string, seen: number): Promise<string> {
  let link: string | undefined
  await expect
    .poll(() => {
      const m = mails.slice(seen).find((x) => x.to === to)
      link = m ? /https?:\/\/[^/\s"]+(\/login\/reset\?token=[A-Za-z0-9_-]+[^\s"<]*)/.exec(decodeQp(m.raw))?.[1] : undefined
      return link
    }, { timeout: 30_000, intervals: [250] })
    .toBeTruthy()
  return link!.replace(/&amp;/g, '&')
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

test('forgot password → link from the mail → new password → log in with it', async ({ page, request }) => {
  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot password?' })).toBeVisible()

  // Client-side validation, then the same SPEC §8 notice for any address.
  await page.getByRole('button', { name: 'Request reset link' }).click()
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('The field is required.')
  const seen = mails.length
  await page.getByLabel('E-mail').fill(EMAIL)
  await page.getByRole('button', { name: 'Request reset link' }).click()
  await expect(page.getByRole('status')).toHaveText('If you have entered the correct email address, you will soon receive an email with further instructions.')

  const link = await nextResetLink(EMAIL, seen)
  await page.goto(link)
  await expect(page.getByRole('heading', { level: 1, name: 'Create new password' })).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill('short')
  await page.getByLabel('Repeat new password').fill('other')
  await page.getByRole('button', { name: 'Save new password' }).click()
  await expect(page.getByLabel('New password', { exact: true })).toHaveAccessibleDescription('The password must be at least 8 characters long and contain a number and a symbol.')
  await expect(page.getByLabel('Repeat new password')).toHaveAccessibleDescription('The entered passwords do not match')
  await page.getByLabel('New password', { exact: true }).fill('Neu-Passwort-7')
  await page.getByLabel('Repeat new password').fill('Neu-Passwort-7')
  await page.getByRole('button', { name: 'Save new password' }).click()
  await expect(page.getByText('Your password has been changed.')).toBeVisible()

  // The link is single use: opening it again shows the expired-link notice.
  await page.goto(link)
  await expect(page.getByRole('alert')).toHaveText('The link has expired. Please create a new link')
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible()

  // The old password no longer works; the new one does.
  await logIn(page, EMAIL, PASSWORD)
  await expect(page.getByRole('alert')).toContainText('No active account')
  await logIn(page, EMAIL, 'Neu-Passwort-7')
  await expect(page).toHaveURL(/\/facility\/\d+/)

  // Put the demo password back for other specs that share this server.
  const again = mails.length
  await request.post('/api/password-reset/', { data: { email: EMAIL } })
  const token = new URLSearchParams((await nextResetLink(EMAIL, again)).split('?')[1]).get('token')
  expect((await request.post('/api/password-reset/confirm/', { data: { token, password: PASSWORD } })).status()).toBe(200)
})

test('an unknown or broken link shows the expired-link notice in German', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('combobox', { name: 'Language' }).selectOption('de')
  await page.goto('/login/reset?token=not-a-real-token')
  await expect(page.getByRole('heading', { level: 1, name: 'Neues Passwort erstellen' })).toBeVisible()
  await expect(page.getByRole('alert')).toHaveText('Der Link ist abgelaufen. Bitte fordern Sie einen neuen Link an')
  await page.getByRole('link', { name: 'Neuen Link anfordern' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Passwort vergessen?' })).toBeVisible()
})
