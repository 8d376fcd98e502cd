import { test, expect, type Page } from '@playwright/test'
import { captureMail, decodeQp } from './mail-capture.ts'
import { apiSession, logIn, PASSWORD } from './fixtures.ts'
import { existsSync } from 'node:fs'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * The admin of the second demo installation creates a user with the address of a resident of the first
 * (docs/decisions.md "Accounts: creating a user whose address has an account elsewhere"): the resident is
 * invited by mail (captured from SMTP at 127.0.0.1:(E2E_PORT + 1000)), accepts on /login/invitation and then
 * sees that installation after logging in. The demo accounts are shared by every spec: the membership is
 * removed again at the end.
 */
const mails = captureMail()
const RESIDENT = 'user@example.com'
const SECOND = 'Demo Office Bern'

/** The path and query of the invitation link in the next mail to `to` after `seen` mails (the outbox sends every 10 s). */
async function nextInvitationLink(to: string, seen: number): Promise<string> {
  let link: string | undefined
  await expect
    .poll(() => {
      const m = mails.slice(seen).find((x) => x.to === to && /\/login\/invitation\?/.test(decodeQp(x.raw)))
      link = m ? /https?:\/\/[^/\s"]+(\/login\/invitation\?token=[A-Za-z0-9_-]+[^\s"<]*)/.exec(decodeQp(m.raw))?.[1] : undefined
      return link
    }, { timeout: 30_000, intervals: [250] })
    .toBeTruthy()
  return link!.replace(/&amp;/g, '&')
}

/** The option naming `name` in the sidebar's facility selector (after the list has loaded). */
function facilityOption(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Sidebar' }).getByLabel('Facility').locator('option', { hasText: name })
}

test('an admin creates a user with an address of the other installation: the invitation link accepts, and the resident sees that installation', async ({ page, request }) => {
  const admin2 = await apiSession(request, 'admin2@example.com')
  const resident = await apiSession(request, RESIDENT)
  const own = (await (await request.get('/api/cockpit/installations/', { headers: admin2.headers })).json()) as { results: { id: number; name: string }[] }
  const bern = own.results.find((i) => i.name === SECOND)!.id
  try {
    await logIn(page, 'admin2@example.com')
    await expect(page).toHaveURL(new RegExp(`/facility/${bern}$`))
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management', exact: true }).click()
    await page.getByRole('button', { name: 'New user' }).click()
    const form = page.getByRole('region', { name: 'New user' })
    await form.getByLabel('E-mail', { exact: true }).fill(RESIDENT)
    await form.getByLabel('First name').fill('Laura')
    await form.getByLabel('Last name').fill('Brunner')
    await form.getByLabel('Language').selectOption('en')
    const seen = mails.length
    const created = page.waitForResponse((r) => r.url().includes('/api/users/create/'))
    await form.getByRole('button', { name: 'Create user' }).click()
    // The answer a new address gets: nothing tells the admin the address had an account.
    expect((await created).status()).toBe(201)
    // The screen a new address gets too: back on the list with the same notice, no page of the (invited) user.
    await expect(page.getByRole('status').filter({ hasText: `Saved. ${RESIDENT} gets an e-mail.` })).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()
    await expect(form).toHaveCount(0)
    await page.getByRole('button', { name: 'Log out' }).click()
    await expect(page).toHaveURL(/\/login/)

    // Before accepting, the resident has only her own installation.
    await logIn(page, RESIDENT)
    await expect(facilityOption(page, 'Demo Residence Zürich')).toHaveCount(1)
    await expect(facilityOption(page, SECOND)).toHaveCount(0)
    await page.getByRole('button', { name: 'Log out' }).click()
    await expect(page).toHaveURL(/\/login/)

    // The link from the mail: nothing happens on opening it; the keyboard accepts.
    const link = await nextInvitationLink(RESIDENT, seen)
    await page.goto(link)
    await expect(page.getByRole('heading', { level: 1, name: 'Invitation to a facility' })).toBeVisible()
    await expect(page).toHaveTitle(/Invitation to a facility/)
    const accept = page.getByRole('button', { name: 'Accept invitation' })
    await accept.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('status')).toHaveText(`You have joined ${SECOND}. Log in with your usual e-mail address and password to see it.`)
    const logInLink = page.getByRole('link', { name: 'Log in' })
    await expect(logInLink).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/login\\?installation=${bern}$`))
    await page.getByLabel('E-mail').fill(RESIDENT)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect(page).toHaveURL(new RegExp(`/facility/${bern}$`))
    await expect(page.getByRole('navigation', { name: 'Sidebar' }).getByLabel('Facility')).toHaveValue(String(bern))
    // Both installations are hers now, the invited one is open.
    await expect(facilityOption(page, SECOND)).toHaveCount(1)
    await expect(facilityOption(page, 'Demo Residence Zürich')).toHaveCount(1)
    await page.getByRole('button', { name: 'Log out' }).click()

    // Single use: the same link again is SPEC §8's expired link, with what to do.
    await page.goto(link)
    await page.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(page.getByRole('alert')).toHaveText('The link has expired. Please create a new link')
    await expect(page.getByText('Ask the facility\'s administrator to invite you again.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to login' })).toBeFocused()
  } finally {
    // Put the demo data back: the resident leaves the second installation.
    const r = await request.delete(`/api/cockpit/users/${resident.userId}/installations/${bern}`, { headers: admin2.headers })
    expect([204, 404]).toContain(r.status())
  }
})

test('a broken or missing token shows the expired-link notice on a phone, in German', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/login')
  await page.getByRole('combobox', { name: 'Language' }).selectOption('de')
  await page.goto('/login/invitation?token=not-a-real-token')
  await expect(page.getByRole('heading', { level: 1, name: 'Einladung zu einer Anlage' })).toBeVisible()
  await page.getByRole('button', { name: 'Einladung annehmen' }).click()
  await expect(page.getByRole('alert')).toHaveText('Der Link ist abgelaufen. Bitte fordern Sie einen neuen Link an')
  await expect(page.getByText('Bitten Sie die Verwaltung der Anlage, Sie erneut einzuladen.', { exact: false })).toBeVisible()
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(await overflow()).toBeLessThanOrEqual(0)
  // Without a token there is nothing to accept.
  await page.goto('/login/invitation')
  await expect(page.getByRole('alert')).toHaveText('Der Link ist abgelaufen. Bitte fordern Sie einen neuen Link an')
  await expect(page.getByRole('button', { name: 'Einladung annehmen' })).toHaveCount(0)
  await page.getByRole('link', { name: 'Zurück zur Anmeldung' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect(await overflow()).toBeLessThanOrEqual(0)
})

/**
 * Pending invitations (docs/decisions.md "Accounts: pending invitations"): the inviting admin sees the address
 * typed, sends the invitation again and withdraws it (confirmed first).
 */
test('an admin sees the pending invitation, sends it again and withdraws it', async ({ page, request }) => {
  const admin2 = await apiSession(request, 'admin2@example.com')
  const own = (await (await request.get('/api/cockpit/installations/', { headers: admin2.headers })).json()) as { results: { id: number; name: string }[] }
  const bern = own.results.find((i) => i.name === SECOND)!.id
  const invited = 'admin@example.com'
  try {
    await logIn(page, 'admin2@example.com')
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management', exact: true }).click()
    await page.getByRole('button', { name: 'New user' }).click()
    const form = page.getByRole('region', { name: 'New user' })
    await form.getByLabel('E-mail', { exact: true }).fill(invited)
    await form.getByLabel('First name').fill('Andreas')
    await form.getByLabel('Last name').fill('Meier')
    await form.getByRole('button', { name: 'Create user' }).click()
    await expect(page.getByRole('status').filter({ hasText: `Saved. ${invited} gets an e-mail.` })).toBeVisible()

    const card = page.getByRole('region', { name: 'Pending invitations' })
    await expect(card.getByRole('listitem').filter({ hasText: invited })).toContainText('Facility user')
    await card.getByRole('button', { name: `Send the invitation to ${invited} again` }).click()
    await expect(card.getByRole('status')).toHaveText(`A new invitation went to ${invited}; the previous link no longer works.`)
    await card.getByRole('button', { name: `Withdraw the invitation to ${invited}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Withdraw the invitation?' })
    await expect(dialog).toContainText(`The link sent to ${invited} stops working.`)
    await dialog.getByRole('button', { name: 'Withdraw' }).click()
    await expect(card.getByRole('status')).toHaveText(`The invitation to ${invited} was withdrawn.`)
    await expect(card.getByRole('listitem').filter({ hasText: invited })).toHaveCount(0)
  } finally {
    const left = (await (await request.get(`/api/cockpit/users/invitations/?installation=${bern}`, { headers: admin2.headers })).json()) as { id: number; email: string }[]
    for (const i of left.filter((x) => x.email === invited)) await request.delete(`/api/cockpit/users/invitations/${i.id}?installation=${bern}`, { headers: admin2.headers })
  }
})
