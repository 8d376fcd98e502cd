import { AxeBuilder } from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { appRoutes, logIn, publicRoutes, settle } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/** A desktop and a phone width. */
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
] as const

/**
 * "route: rule (impact) × nodes: target, …" lines of every critical or serious axe violation on the
 * page, and of content outside landmarks ("region", moderate: the sidebar's logo and facility selector
 * were once found there).
 */
async function seriousViolations(page: Page, route: string): Promise<string[]> {
  // Legacy mode runs axe in the page itself, without the blank page per scan the default opens for
  // frames (the app has none): a third less time on a loaded machine.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.id === 'region')
    .map((v) => `${route}: ${v.id} (${v.impact}) × ${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)
}

/**
 * The violations of `routes` at both widths: each route is loaded and settled once at the desktop
 * width, scanned, then narrowed to the phone width (the layout follows media queries and resize, no
 * reload) and scanned again. Reduced motion is on: text and colours are the same, and Power's moving
 * flow lines made axe's colour-contrast check several times slower (each element's style is read
 * while the animations run).
 */
async function scanAtBothWidths(page: Page, routes: readonly string[]): Promise<string[]> {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  const found: string[] = []
  for (const route of routes) {
    await page.setViewportSize(WIDTHS[0])
    await page.goto(route)
    await settle(page)
    found.push(...(await seriousViolations(page, `${route} (${WIDTHS[0].width} px)`)))
    await page.setViewportSize(WIDTHS[1])
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    await settle(page)
    found.push(...(await seriousViolations(page, `${route} (${WIDTHS[1].width} px)`)))
  }
  return found
}

test('the logged-out pages have no critical or serious axe violations at 1280 and 360 px', async ({ page }) => {
  expect(await scanAtBothWidths(page, publicRoutes)).toEqual([])
})

for (const email of ['admin@example.com', 'user@example.com']) {
  test(`every route has no critical or serious axe violations for ${email} at 1280 and 360 px`, async ({ page }) => {
    // About 20 routes, each loaded, settled and scanned twice: minutes on a loaded 2-core machine.
    test.setTimeout(600_000)
    await logIn(page, email)
    expect(await scanAtBothWidths(page, await appRoutes(page, email === 'admin@example.com'))).toEqual([])
  })
}

test('the operator\'s pages have no critical or serious axe violations for a superuser at 1280 and 360 px', async ({ page }) => {
  // appRoutes covers them for an admin; the Installations list shows its rows to superusers only.
  test.setTimeout(240_000)
  await logIn(page, 'super@example.com')
  const found = await scanAtBothWidths(page, ['/operator/installations', '/facility/1/management/charging-stations'])
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    // The forms open: a new installation, with the operator fields.
    await page.goto('/operator/installations')
    await settle(page)
    await page.getByRole('button', { name: 'New installation' }).click()
    await page.getByLabel('Add the operator who bills charging now').check()
    found.push(...(await seriousViolations(page, `/operator/installations new (${size.name})`)))
  }
  expect(found).toEqual([])
})
