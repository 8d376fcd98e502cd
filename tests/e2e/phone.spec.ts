import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { appRoutes, logIn, publicRoutes, settle } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

// A phone: 360×740 CSS px, touch.
test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true })

/**
 * Visible controls smaller than 44×44 CSS px (WCAG 2.5.5), and form fields with text under 16 px (iOS
 * zooms into those), as "tag 'name' w×h" / "tag 'name' 14px". Links inside running text are exempt by
 * WCAG's inline exception; checkboxes and radios are sized by their label.
 */
async function smallTargets(page: Page): Promise<{ small: string[]; smallText: string[] }> {
  return page.evaluate(() => {
    const small: string[] = []
    const smallText: string[] = []
    const name = (el: Element) => `${el.tagName.toLowerCase()} '${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}'`
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button, select, textarea, input, [role="tab"]')) {
      const style = getComputedStyle(el)
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || el.closest('[aria-hidden="true"]')) continue
      if (el.classList.contains('sr-only')) continue
      const type = el.getAttribute('type')
      if (type === 'checkbox' || type === 'radio' || type === 'hidden') continue
      if (el.tagName === 'A' && style.display === 'inline') continue
      if (box.width < 43.5 || box.height < 43.5) small.push(`${name(el)} ${Math.round(box.width)}×${Math.round(box.height)}`)
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) && parseFloat(style.fontSize) < 16) smallText.push(`${name(el)} ${style.fontSize}`)
    }
    return { small, smallText }
  })
}

/** How far the page is wider than the screen (0 when nothing needs sideways scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/**
 * Visible boxes on the page that scroll sideways (a wide table in its scroll area), as "name: hidden
 * px". A page can have no overflow of its own while a table inside hides its amounts off-screen.
 */
const sidewaysScrollers = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *')]
      .filter((el) => el.checkVisibility() && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${document.getElementById(el.getAttribute('aria-labelledby') ?? '')?.textContent ?? el.className}: ${el.scrollWidth - el.clientWidth} px`),
  )

/** Amounts ("CHF 5.69") on the page that are off-screen sideways or wrapped onto two lines. */
const hiddenOrWrappedAmounts = (page: Page) =>
  page.evaluate(() => {
    const bad: string[] = []
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? ''
      if (!/^CHF\u00a0-?\d/.test(text.trim())) continue
      const range = document.createRange()
      range.selectNodeContents(n)
      const rects = [...range.getClientRects()].filter((r) => r.width > 0)
      if (rects.length === 0) continue // inside a part hidden at this size
      if (rects.length > 1) bad.push(`${text}: wraps`)
      if (rects.some((r) => r.right > innerWidth || r.left < 0)) bad.push(`${text}: off-screen`)
    }
    return bad
  })

test('on a phone, controls are at least 44×44 px and form text 16 px on the main screens', async ({ page }) => {
  test.setTimeout(240_000)
  await page.goto('/login')
  await settle(page)
  expect(await smallTargets(page)).toEqual({ small: [], smallText: [] })
  await logIn(page, 'admin@example.com')
  const found: Record<string, { small: string[]; smallText: string[] }> = {}
  for (const route of ['/facility/1', '/facility/1/power', '/facility/1/sessions', '/facility/1/settings', '/facility/1/rfids', '/facility/1/management/users', '/facility/1/management/installation', '/facility/1/management/objects', '/facility/1/management/meters', '/facility/1/management/charging-stations']) {
    await page.goto(route)
    await settle(page)
    const r = await smallTargets(page)
    if (r.small.length || r.smallText.length) found[route] = r
  }
  expect(found).toEqual({})
})

test('on a phone, no page needs sideways scrolling', async ({ page }) => {
  test.setTimeout(480_000)
  const wide: string[] = []
  for (const route of publicRoutes) {
    await page.goto(route)
    await settle(page)
    if ((await overflow(page)) > 0) wide.push(`${route}: ${await overflow(page)} px`)
  }
  await logIn(page, 'admin@example.com')
  for (const route of await appRoutes(page, true)) {
    await page.goto(route)
    await settle(page)
    if ((await overflow(page)) > 0) wide.push(`${route}: ${await overflow(page)} px`)
  }
  expect(wide).toEqual([])
})

test('on a phone, the charging mode is on the station’s first view and amounts never wrap', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.goto('/facility/1/power')
  await page.getByRole('link', { name: /^Details of / }).first().click()
  const management = page.getByRole('tab', { name: 'Management' })
  await expect(management).toBeInViewport()
  await management.click()
  await expect(page.getByLabel('Charging mode')).toBeVisible()
  expect(await overflow(page)).toBe(0)

  await page.goto('/facility/1/sessions')
  await settle(page)
  const amounts = await page.getByRole('cell').getByText(/CHF/).filter({ visible: true }).allTextContents()
  expect(amounts.length).toBeGreaterThan(0)
  // A no-break space between code and digits: "CHF / 5.69" cannot happen.
  for (const a of amounts) expect(a).toMatch(/^CHF\u00a0-?\d/)
})

test('on a phone, tables with money or energy keep them on screen: sessions, tariff versions, ZEV report', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  const found: Record<string, string[]> = {}
  for (const route of ['/facility/1/sessions', '/facility/1/pricing', '/facility/1/charts?kind=zev']) {
    await page.goto(route)
    await settle(page)
    // The report comes with the chart's data: wait for its figures, not only the page.
    if (route.includes('zev')) await expect(page.getByText('Total', { exact: true }).filter({ visible: true }).first()).toBeVisible()
    const bad = [...(await sidewaysScrollers(page)), ...(await hiddenOrWrappedAmounts(page))]
    if (bad.length) found[route] = bad
  }
  expect(found).toEqual({})
  // The session list still shows energy and price of every row, side by side with its date.
  await page.goto('/facility/1/sessions')
  await settle(page)
  const first = page.getByRole('row').nth(1)
  // The filters (period, station, person) stand above the list: the row is scrolled to, then it must
  // show its energy and price without scrolling sideways.
  await first.scrollIntoViewIfNeeded()
  await expect(first.getByRole('cell').filter({ hasText: /kWh/, visible: true })).toBeInViewport({ ratio: 1 })
  await expect(first.getByText(/^CHF\u00a0/).filter({ visible: true })).toBeInViewport({ ratio: 1 })
})

test('the phone drawer keeps focus inside while open and closes on Escape', async ({ page }) => {
  await logIn(page, 'user@example.com')
  const menu = page.getByRole('button', { name: 'Menu' })
  await menu.click()
  const drawer = page.getByRole('dialog', { name: 'Menu' })
  await expect(drawer).toBeVisible()
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab')
    expect(await drawer.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+Tab')
    expect(await drawer.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await expect(menu).toBeFocused()
  await expect(menu).toHaveAttribute('aria-expanded', 'false')
})
