import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

const PASSWORD = 'Cockpit-2026!'

/**
 * The Content-Security-Policy must not break the app: Login, Power (live values),
 * Charts (lightweight-charts, tremor) and the demo checkout page run with no CSP violation reported.
 */
function watchViolations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to (load|apply|execute|connect|frame)/i.test(msg.text())) seen.push(msg.text())
  })
  // Also the DOM event: it fires for violations the console may word differently.
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`))
  })
  return seen
}

test('Login, Power, Charts and logout work under the CSP without violations', async ({ page }) => {
  const violations = watchViolations(page)
  const answer = await page.goto('/login')
  expect(answer?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  await page.getByLabel('E-mail').fill('admin@example.com')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)

  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  await sidebar.getByRole('link', { name: 'Power', exact: true }).click()
  const flow = page.getByRole('region', { name: 'Current power flow' })
  await expect(flow.getByRole('group', { name: 'Grid', exact: true })).toContainText('kW')
  // Live values keep arriving over the stream (connect-src 'self').
  const reading = () => flow.innerText()
  const before = await reading()
  await expect.poll(reading, { timeout: 15_000, intervals: [500] }).not.toBe(before)

  await sidebar.getByRole('link', { name: 'Charts', exact: true }).click()
  await expect(page.getByRole('group', { name: 'Consumption', exact: true })).toContainText('kWh')

  // Logout tells the server, which revokes the refresh token (the browser forgets it either way).
  const refresh = await page.evaluate(() => localStorage.getItem('cockpit.refresh'))
  const revoked = page.waitForResponse((r) => r.url().endsWith('/api/authentication/logout/'))
  await page.getByRole('button', { name: 'Log out' }).click()
  expect((await revoked).status()).toBe(204)
  await expect(page).toHaveURL(/\/login/)
  const again = await page.request.post('/api/authentication/token/refresh/', { data: { refresh } })
  expect(again.status()).toBe(401)

  expect(violations).toEqual([])
})

test('the demo checkout page keeps its style under the CSP and cannot be framed', async ({ page }) => {
  const violations = watchViolations(page)
  const answer = await page.goto('/api/payments/demo-checkout?session=expired')
  expect(answer?.headers()['x-frame-options']).toBe('DENY')
  await expect(page.getByRole('alert')).toBeVisible()
  // The inline style applied: the page's main box is white on the slate background.
  expect(await page.locator('main').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)')
  expect(violations).toEqual([])
})
