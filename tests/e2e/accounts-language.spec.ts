import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { apiSession, PASSWORD, savedLanguageTag, saveLanguageTag } from './fixtures.ts'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')
// A step that cannot happen fails within 15 s, not at the test's timeout: `finally` then still has the
// time to put the demo account's language back for the other specs.
test.use({ actionTimeout: 15_000 })

// One language state (SPEC §9 "language and region", client/session/language.ts): signed in, the
// language saved on the account is the UI's, whatever the browser says; the header's picker saves to it.

/** A fresh browser (no stored choice) whose language is `locale`. */
async function browserIn(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, timezoneId: 'Europe/Zurich' })
  return context.newPage()
}

/** Sign in on the login page as it shows in a German browser. */
async function logInGerman(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await expect(page.getByRole('heading', { level: 1, name: 'Willkommen bei Cockpit' })).toBeVisible()
  await page.getByLabel('E-Mail').fill(email)
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Anmelden' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

test('a German browser signing in as an English user shows English; the header picker saves the language, Settings shows it, and the next sign-in elsewhere uses it', async ({ browser, request }) => {
  const email = 'user@example.com'
  const before = await savedLanguageTag(request, email)
  await saveLanguageTag(request, email, 'en-GB')
  try {
    const page = await browserIn(browser, 'de-CH')
    await logInGerman(page, email)
    // The first screen after sign-in is already English (no German frame first), and stays so.
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
    await expect(sidebar.getByRole('link', { name: 'Settings', exact: true })).toBeVisible()
    await expect(page.getByRole('banner').getByRole('combobox', { name: 'Language' })).toHaveValue('en')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    // A reload with the session keeps it (the browser remembers the account's choice now).
    await page.reload()
    await expect(sidebar.getByRole('link', { name: 'Settings', exact: true })).toBeVisible()

    // Settings shows what the header shows.
    await sidebar.getByRole('link', { name: 'Settings', exact: true }).click()
    const section = page.getByRole('region', { name: 'Language and region format' })
    await expect(section.getByLabel('Language', { exact: true })).toHaveValue('en')
    await expect(section.getByLabel('Region format')).toHaveValue('GB')

    // French in the header: the UI switches, Settings follows at once (same page), the region stays.
    await page.getByRole('banner').getByRole('combobox', { name: 'Language' }).selectOption('fr')
    await expect(page.getByRole('heading', { level: 1, name: 'Paramètres' })).toBeVisible()
    const langue = page.getByRole('region', { name: 'Langue et format régional' })
    await expect(langue.getByLabel('Langue', { exact: true })).toHaveValue('fr')
    await expect(langue.getByLabel('Format régional')).toHaveValue('GB')
    await expect.poll(() => savedLanguageTag(request, email)).toBe('fr-GB')
    await page.context().close()

    // Another browser, English this time: the account's French wins after sign-in.
    const other = await browserIn(browser, 'en-GB')
    await other.goto('/login')
    await other.getByLabel('E-mail').fill(email)
    await other.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await other.getByRole('button', { name: 'Log in' }).click()
    await expect(other).toHaveURL(/\/facility\/\d+$/)
    await expect(other.getByRole('navigation', { name: 'Barre latérale' }).getByRole('link', { name: 'Paramètres', exact: true })).toBeVisible()
    await expect(other.getByRole('banner').getByRole('combobox', { name: 'Langue' })).toHaveValue('fr')
    await other.context().close()
  } finally {
    await saveLanguageTag(request, email, before)
  }
})

test('the new-user form starts at the admin’s language and region, and a user created so gets them', async ({ browser, request }) => {
  const admin = 'admin@example.com'
  const email = `lang-${Date.now()}@example.com`
  const before = await savedLanguageTag(request, admin)
  await saveLanguageTag(request, admin, 'en-GB')
  let created: number | null = null
  try {
    const page = await browserIn(browser, 'de-CH')
    await logInGerman(page, admin)
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management', exact: true }).click()
    await page.getByRole('button', { name: 'New user' }).click()
    const form = page.getByRole('region', { name: 'New user' })
    await expect(form.getByLabel('Language', { exact: true })).toHaveValue('en')
    await expect(form.getByLabel('Region format')).toHaveValue('GB')
    await form.getByLabel('E-mail', { exact: true }).fill(email)
    await form.getByLabel('First name').fill('Elena')
    await form.getByLabel('Last name').fill('Lang')
    await form.getByLabel('Send the welcome e-mail now').uncheck()
    const answer = page.waitForResponse((r) => r.url().includes('/api/users/create/'))
    await form.getByRole('button', { name: 'Create user' }).click()
    created = ((await (await answer).json()) as { id: number }).id
    await page.getByRole('link', { name: 'Elena Lang' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Elena Lang' })).toBeVisible()
    const { headers } = await apiSession(request, admin)
    const user = await request.get(`/api/cockpit/users/${created}/`, { headers })
    expect(((await user.json()) as { ietf_lang_tag: string }).ietf_lang_tag).toBe('en-GB')
    await page.context().close()
  } finally {
    if (created) {
      const { headers } = await apiSession(request, admin)
      await request.delete(`/api/users/${created}/`, { headers })
    }
    await saveLanguageTag(request, admin, before)
  }
})
