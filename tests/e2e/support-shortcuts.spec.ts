import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import nodemailer from 'nodemailer'
import { AxeBuilder } from '@axe-core/playwright'
import { logIn, PASSWORD } from './fixtures.ts'
import { captureMail, decodeQp } from './mail-capture.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/** The server's support SMTP receiver: E2E_PORT + 2000 (config/playwright.config.ts). */
const INBOUND_PORT = Number(process.env.E2E_PORT ?? 3199) + 2000
const mails = captureMail()

// A freshly started server may still be busy with the simulator's backfill: wait for a sign-in to answer,
// so the first login below does not race it (seen: no answer within 10 s under a load average of 19).
test.beforeAll(async ({ request }) => {
  await expect.poll(async () => (await request.post('/api/authentication/token/', { data: { email: 'user@example.com', password: PASSWORD }, timeout: 60_000 })).status(), { timeout: 120_000 }).toBe(200)
})

test('a resident opens a ticket, support answers in the portal, the resident answers by e-mail: the ticket shows all three', async ({ page, browser }) => {
  test.setTimeout(90_000)
  const subject = `Station display e2e ${Date.now()}`
  await logIn(page, 'user@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Support', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible()
  await expect(page.getByText('+41 44 000 00 00')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible()
  const supportScan = await new AxeBuilder({ page }).include('main').analyze()
  expect(supportScan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  const form = page.getByRole('form', { name: 'Write to support' })
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(form.getByText('The field is required.').first()).toBeVisible()
  await form.getByRole('radio', { name: 'Charging' }).check()
  await form.getByLabel('Your message').fill(subject)
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(form.getByRole('status')).toContainText('Your message has been sent.')
  const ticketLink = form.getByRole('status').getByRole('link', { name: /Ticket #\d+/ })
  const ticketName = (await ticketLink.textContent())!
  const ticketNumber = ticketName.replace(/\D/g, '')

  // The confirmation leaves with the ticket's reply address (the mail job sends every 10 s).
  await expect.poll(() => mails.find((m) => m.to === 'user@example.com' && decodeQp(m.raw).includes(subject)), { timeout: 30_000 }).toBeTruthy()
  const raw = mails.find((m) => m.to === 'user@example.com' && decodeQp(m.raw).includes(subject))!.raw
  const replyTo = /^Reply-To: (support\+[0-9a-f]{40}@[^\s>]+)/im.exec(raw)?.[1]
  expect(replyTo).toBeTruthy()

  // Support answers in the portal.
  const superContext = await browser.newContext()
  const support = await superContext.newPage()
  await logIn(support, 'super@example.com')
  await support.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Support', exact: true }).click()
  await support.getByRole('link', { name: 'Support inbox' }).click()
  await support.getByRole('list', { name: 'Support inbox' }).getByRole('listitem', { name: `Ticket ${ticketNumber}`, exact: true }).getByRole('link').click()
  await expect(support.getByRole('heading', { level: 1, name: ticketName })).toBeVisible()
  await support.getByRole('textbox', { name: 'Answer' }).fill('Please unplug the car and plug it in again.')
  await support.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(support.getByRole('list', { name: 'Conversation' }).getByRole('listitem')).toHaveCount(2)
  await superContext.close()

  // The resident answers by e-mail, quoting the answer below.
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: INBOUND_PORT, secure: false, ignoreTLS: true })
  await transport.sendMail({ from: 'user@example.com', to: replyTo, subject: `Re: [Support #${ticketNumber}]`, text: 'That worked, thank you!\n\nOn Mon, Support wrote:\n> Please unplug the car and plug it in again.' })
  transport.close()

  await ticketLink.click()
  const conversation = page.getByRole('list', { name: 'Conversation' })
  await expect(conversation.getByRole('listitem')).toHaveCount(3)
  await expect(conversation.getByRole('listitem').nth(0)).toContainText(subject)
  await expect(conversation.getByRole('listitem').nth(1)).toContainText('Support')
  await expect(conversation.getByRole('listitem').nth(1)).toContainText('Please unplug the car and plug it in again.')
  await expect(conversation.getByRole('listitem').nth(2)).toContainText('by e-mail')
  await expect(conversation.getByRole('listitem').nth(2)).toContainText('That worked, thank you!')
  await expect(conversation.getByRole('listitem').nth(2)).not.toContainText('On Mon')
  const ticketScan = await new AxeBuilder({ page }).include('main').analyze()
  expect(ticketScan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
})

test('a pinned station is listed on Home and its shortcut opens the station', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  const details = page.getByRole('link', { name: /^Details of / }).first()
  const stationName = ((await details.getAttribute('aria-label')) ?? (await details.textContent()) ?? '').replace(/^Details of /, '')
  await details.click()
  await expect(page.getByRole('heading', { level: 1, name: stationName })).toBeVisible()
  const stationUrl = page.url()
  await page.getByRole('button', { name: 'Pin to Home' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The shortcut has been added.' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Unpin' })).toHaveAttribute('aria-pressed', 'true')

  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Main Menu', exact: true }).click()
  const pinned = page.getByRole('list', { name: 'Your shortcuts' })
  await pinned.getByRole('link', { name: stationName }).click()
  await expect(page).toHaveURL(stationUrl)
  await expect(page.getByRole('heading', { level: 1, name: stationName })).toBeVisible()

  // Removed from Home: SPEC §8 "shortcut removed".
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Main Menu', exact: true }).click()
  await page.getByRole('button', { name: `Remove shortcut ${stationName}` }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The shortcut has been removed.' })).toBeVisible()
  await expect(page.getByText('Pin a charging station')).toBeVisible()
})

test('a chart pinned with its period opens with that period', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charts', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Charts' })).toBeVisible()
  await page.getByRole('button', { name: 'Week', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true')
  await page.getByRole('button', { name: 'Pin to Home' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The shortcut has been added.' })).toBeVisible()

  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Main Menu', exact: true }).click()
  await page.getByRole('list', { name: 'Your shortcuts' }).getByRole('link', { name: / · / }).click()
  await expect(page).toHaveURL(/\/charts\?kind=\w+&period=week&date=\d{4}-\d{2}-\d{2}$/)
  await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByRole('button', { name: 'Unpin' })).toBeVisible()
})
