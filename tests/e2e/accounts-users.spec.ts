import { test, expect, type Page } from '@playwright/test'
import { captureMail, decodeQp } from './mail-capture.ts'
import { apiSession } from './fixtures.ts'
import { existsSync } from 'node:fs'

test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/**
 * An admin creates a user (welcome e-mail captured from SMTP), grants read on one station, and that
 * user sees only that station on the Power page. SMTP: 127.0.0.1:(E2E_PORT + 1000).
 */
const PASSWORD = 'Cockpit-2026!'
const mails = captureMail()

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

test('an admin creates a user, grants read on one station, and that user sees only that station', async ({ page }) => {
  const email = `e2e-${Date.now()}@example.com`
  await logIn(page, 'admin@example.com', PASSWORD)
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()

  // Role filter.
  const list = page.getByRole('region', { name: 'All users' })
  await list.getByLabel('Role').selectOption('installation_admin')
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await list.getByLabel('Role').selectOption('all')

  // New user, with the welcome e-mail.
  await page.getByRole('button', { name: 'New user' }).click()
  const form = page.getByRole('region', { name: 'New user' })
  await form.getByRole('button', { name: 'Create user' }).click()
  await expect(form.getByLabel('E-mail', { exact: true })).toHaveAccessibleDescription('The field is required.')
  await form.getByLabel('E-mail', { exact: true }).fill(email)
  await form.getByLabel('First name').fill('Erika')
  await form.getByLabel('Last name').fill('Test')
  await form.getByLabel('Language').selectOption('en')
  await form.getByRole('button', { name: 'Create user' }).click()
  // Back on the list, with the notice an address with an account elsewhere gets too.
  await expect(page.getByRole('status').filter({ hasText: `Saved. ${email} gets an e-mail.` })).toBeVisible()
  await expect(form).toHaveCount(0)
  await list.getByRole('link', { name: 'Erika Test' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Erika Test' })).toBeVisible()

  // Permissions: read on Station 3 only, confirmed.
  await page.getByRole('link', { name: 'Permissions' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Permissions' })).toBeVisible()
  const stations = page.getByRole('region', { name: 'Charging stations' })
  await stations.getByLabel('Station 3', { exact: true }).selectOption('read')
  await page.getByRole('button', { name: 'Save permissions' }).click()
  const dialog = page.getByRole('dialog', { name: 'Adjust permissions?' })
  await dialog.getByRole('button', { name: 'Adjust' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The data has been saved.' })).toBeVisible()
  await page.getByRole('button', { name: 'Log out' }).click()

  // The user sets a password through the welcome link and logs in.
  let link: string | undefined
  await expect.poll(() => {
    const m = mails.find((x) => x.to === email)
    link = m ? /https?:\/\/[^/\s"]+(\/login\/reset\?token=[A-Za-z0-9_-]+[^\s"<]*)/.exec(decodeQp(m.raw))?.[1] : undefined
    return link
  }, { timeout: 30_000, intervals: [250] }).toBeTruthy()
  expect(decodeQp(mails.find((x) => x.to === email)!.raw)).toContain('Welcome to Cockpit')
  await page.goto(link!.replace(/&amp;/g, '&'))
  await page.getByLabel('New password', { exact: true }).fill('Erika-Test-1')
  await page.getByLabel('Repeat new password').fill('Erika-Test-1')
  await page.getByRole('button', { name: 'Save new password' }).click()
  await page.getByRole('link', { name: 'Go to login' }).click()
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('Erika-Test-1')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  const visible = page.getByRole('region', { name: 'Charging stations', exact: true })
  await expect(visible.getByRole('article')).toHaveCount(1)
  await expect(visible.getByRole('article')).toContainText('Station 3')
  // A facility user has no Management entry.
  await expect(page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management', exact: true })).toHaveCount(0)
})

test('user actions ask for confirmation: deactivate and activate again', async ({ page }) => {
  await logIn(page, 'admin@example.com', PASSWORD)
  await page.goto('/facility/1/management/users')
  await page.getByRole('region', { name: 'All users' }).getByRole('link').filter({ hasText: /.+/ }).nth(0).waitFor()
  const userLink = page.getByRole('region', { name: 'All users' }).getByRole('listitem').filter({ hasText: 'user@example.com' }).getByRole('link')
  await userLink.click()
  const account = page.getByRole('region', { name: 'Account' })
  await account.getByRole('button', { name: 'Deactivate' }).click()
  const dialog = page.getByRole('dialog', { name: 'Deactivate the user?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('Active', { exact: true })).toBeVisible()
  await account.getByRole('button', { name: 'Deactivate' }).click()
  await dialog.getByRole('button', { name: 'Deactivate' }).click()
  await expect(page.getByText('Deactivated', { exact: true })).toBeVisible()
  await account.getByRole('button', { name: 'Activate' }).click()
  await page.getByRole('dialog', { name: 'Activate the user?' }).getByRole('button', { name: 'Activate' }).click()
  await expect(page.getByText('Active', { exact: true })).toBeVisible()
})

test('a superuser sees the mail outbox with the delivery state; an admin does not', async ({ page }) => {
  await logIn(page, 'super@example.com', PASSWORD)
  await page.goto('/facility/1/management/users')
  const outbox = page.getByRole('region', { name: 'Mail outbox' })
  await expect(outbox.getByRole('listitem').filter({ hasText: 'Welcome to Cockpit' }).first()).toContainText('Sent')
  await page.getByRole('button', { name: 'Log out' }).click()
  await logIn(page, 'admin@example.com', PASSWORD)
  await page.goto('/facility/1/management/users')
  await expect(page.getByRole('region', { name: 'All users' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Mail outbox' })).toHaveCount(0)
})

/**
 * The Superuser filter lists the operator; an admin gives a new user a description, makes
 * them a facility admin (SPEC §5: the role change is confirmed first) and assigns them an RFID card.
 */
test('an admin changes a user’s role with confirmation and assigns an RFID card', async ({ page }) => {
  const email = `e2e-role-${Date.now()}@example.com`
  await logIn(page, 'admin@example.com', PASSWORD)
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Management', exact: true }).click()
  const list = page.getByRole('region', { name: 'All users' })
  await list.getByLabel('Role').selectOption('superuser')
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByRole('listitem')).toContainText('Sophie Keller')
  await list.getByLabel('Role').selectOption('all')

  await page.getByRole('button', { name: 'New user' }).click()
  const form = page.getByRole('region', { name: 'New user' })
  await form.getByLabel('E-mail', { exact: true }).fill(email)
  await form.getByLabel('First name').fill('Rolf')
  await form.getByLabel('Last name').fill('Rolle')
  await form.getByLabel('Description (shown in brackets)').fill('Flat 4')
  await form.getByLabel('Send the welcome e-mail now').uncheck()
  await form.getByRole('button', { name: 'Create user' }).click()
  await expect(page.getByRole('status').filter({ hasText: /^Saved\.$/ })).toBeVisible()
  await list.getByRole('link', { name: 'Rolf Rolle' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Rolf Rolle (Flat 4)' })).toBeVisible()

  // Role: cancelling the confirmation changes nothing; confirming makes Rolf a facility admin.
  const facilities = page.getByRole('region', { name: 'Facilities' })
  const role = facilities.getByLabel('Role in Demo Residence Zürich')
  await role.selectOption('installation_admin')
  const dialog = page.getByRole('dialog', { name: 'Change the role?' })
  await expect(dialog).toContainText('Rolf Rolle becomes Facility admin in Demo Residence Zürich.')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(role).toHaveValue('installation_user')
  await role.selectOption('installation_admin')
  await dialog.getByRole('button', { name: 'Change role' }).click()
  await expect(facilities.getByRole('status')).toHaveText('The data has been saved.')
  await expect(role).toHaveValue('installation_admin')
  await page.reload()
  await expect(page.getByRole('region', { name: 'Facilities' }).getByLabel('Role in Demo Residence Zürich')).toHaveValue('installation_admin')

  // RFID card: assign a free card of the facility, then take it back.
  const cards = page.getByRole('region', { name: 'RFID cards' })
  await expect(cards).toContainText('No RFID card of this facility is assigned to this user.')
  await cards.getByLabel('Assign an RFID card').selectOption({ label: '04A1B2C3D4E506 · Apartment 6 – Hyundai Kona · not assigned' })
  await cards.getByRole('button', { name: 'Assign' }).click()
  await expect(cards.getByRole('listitem')).toHaveCount(1)
  await expect(cards.getByRole('listitem')).toContainText('04A1B2C3D4E506')
  await page.getByRole('link', { name: 'Back to users' }).click()
  await expect(page.getByRole('region', { name: 'All users' }).getByRole('listitem').filter({ hasText: email })).toContainText('Rolf Rolle (Flat 4)')
  await page.goBack()
  await page.getByRole('region', { name: 'RFID cards' }).getByRole('button', { name: 'Take back card 04A1B2C3D4E506' }).click()
  await expect(page.getByRole('region', { name: 'RFID cards' })).toContainText('No RFID card of this facility is assigned to this user.')
})

/**
 * An admin changes a user's sign-in address (docs/decisions.md "Accounts: an e-mail change is confirmed from
 * the new address"): the screen says a link was sent and keeps the current address; the link mailed to the
 * new address confirms it with a button.
 */
test('an admin changes a user’s e-mail: the screen says a link was sent, the mailed link confirms the address', async ({ page, request }) => {
  const stamp = Date.now()
  const before = `e2e-mail-${stamp}@example.com`
  const after = `e2e-mail-new-${stamp}@example.com`
  const { headers } = await apiSession(request, 'admin@example.com')
  const made = await request.post('/api/users/create/?installation=1', { headers, data: { email: before, first_name: 'Mia', last_name: 'Mail', role: 'installation_user', send_welcome: false } })
  expect(made.status()).toBe(201)
  const id = ((await made.json()) as { id: number }).id
  try {
    await logIn(page, 'admin@example.com', PASSWORD)
    await page.goto(`/facility/1/management/users/${id}`)
    const contact = page.getByRole('region', { name: 'Contact details' })
    await contact.getByLabel('E-mail', { exact: true }).fill(after)
    await contact.getByRole('button', { name: 'Save' }).click()
    await expect(contact.getByRole('status')).toHaveText(`Saved. We sent a link to ${after}: the sign-in e-mail changes once it is confirmed there.`)
    await expect(contact.getByLabel('E-mail', { exact: true })).toHaveValue(before)
    await page.getByRole('button', { name: 'Log out' }).click()

    let link: string | undefined
    await expect.poll(() => {
      const m = mails.find((x) => x.to === after)
      link = m ? /https?:\/\/[^/\s"]+(\/login\/email-confirm\?token=[A-Za-z0-9_-]+)/.exec(decodeQp(m.raw))?.[1] : undefined
      return link
    }, { timeout: 30_000, intervals: [250] }).toBeTruthy()
    await page.goto(link!)
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your new e-mail address' })).toBeVisible()
    await page.getByRole('button', { name: 'Confirm this address' }).click()
    await expect(page.getByRole('status')).toHaveText('The new e-mail address is confirmed. Use it to sign in from now on.')
    const user = await request.get(`/api/cockpit/users/${id}/`, { headers })
    expect(((await user.json()) as { email: string }).email).toBe(after)
  } finally {
    await request.delete(`/api/users/${id}/`, { headers })
  }
})
