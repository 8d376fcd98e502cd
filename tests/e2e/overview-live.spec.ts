import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name, exact: true }).click()
const tile = (page: Page, name: string) => page.getByRole('region', { name, exact: true })
/** "updated 12 s ago": a data age in seconds, not minutes or hours. */
const SECONDS_OLD = /updated \d+ s ago/

test('the Overview is live from the stream, every tile says how old its data is, and a quiet stretch keeps the stations current while the relay confirms them', async ({ page }) => {
  test.setTimeout(120_000)
  // The page's clock (Playwright page.clock) runs as usual until the test moves it on.
  await page.clock.install()
  const streams: string[] = []
  const overviewReads: string[] = []
  page.on('request', (r) => {
    if (/\/live\/installations\/1\b/.test(r.url())) streams.push(r.url())
    if (/\/api\/cockpit\/installations\/1\/overview$/.test(r.url())) overviewReads.push(r.url())
  })
  await logIn(page, 'admin@example.com')
  await nav(page, 'Overview')
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()

  // Live: the page opened the installation's stream; each tile shows its age.
  await expect.poll(() => streams.length).toBeGreaterThan(0)
  for (const name of ['Main power connection', 'Power monitoring', 'Flow meter', 'PV', 'Battery', 'Energy return', 'Water meter', 'Heating meter', 'Charging stations']) {
    await expect(tile(page, name)).toContainText(SECONDS_OLD)
  }

  // The flow meter has a card of its own, with details: where the power comes from and where it goes,
  // each in kW with its share, and the way to its chart.
  const flow = tile(page, 'Flow meter')
  await expect(flow).toContainText(/flowing through the installation now/)
  await expect(flow.getByRole('list', { name: 'Where the power comes from' }).getByRole('listitem').first()).toContainText(/kW · \d+\s?%/)
  await expect(flow.getByRole('list', { name: 'Where it goes' }).getByRole('listitem').first()).toContainText(/kW · \d+\s?%/)

  // The stations tile counts stations by state, from the stations topic.
  await expect(tile(page, 'Charging stations')).toContainText(/Ready\s*\d+ of 7/)

  // Three quiet minutes on the page's clock, 30 s at a time (each step under the 45 s a silent stream is
  // given, ARCHITECTURE §5): no station changes on this winter morning, but the relay's events and
  // heartbeats keep confirming the data. The stations tile counts from that confirmation, not from the
  // stations' last change (which would read "updated 3 min ago").
  const main = tile(page, 'Main power connection')
  for (let step = 0; step < 6; step++) {
    await page.clock.fastForward(30_000)
    // A fresh event came in after the jump: the metrics tile is seconds old again.
    await expect(main).toContainText(/updated [0-9] s ago/, { timeout: 20_000 })
  }
  await expect(tile(page, 'Charging stations')).toContainText(SECONDS_OLD)
  await expect(tile(page, 'Charging stations')).not.toContainText(/min ago|h ago/)
  await expect(tile(page, 'Charging stations')).not.toContainText('Stale')
  // Today's totals followed the stream (new readings, at most once a minute), without a reload.
  expect(overviewReads.length).toBeGreaterThan(1)
  await expect(page).toHaveURL(/\/overview$/)

  // The flow meter's chart opens with that kind chosen.
  await flow.getByRole('link', { name: 'Flow meter chart' }).click()
  await expect(page).toHaveURL(/\/charts\?.*kind=flowMeter/)
  await expect(page.getByRole('combobox', { name: 'Chart' })).toHaveValue('flowMeter')
})

test('a stalled stream turns the Overview tiles stale instead of showing frozen figures as current', async ({ page }) => {
  await page.clock.install()
  // While `liveFrozen` is set, the streams stay open but nothing reaches the app (a stalled proxy).
  await page.addInitScript(() => {
    const w = window as unknown as { liveFrozen: boolean }
    w.liveFrozen = false
    const Native = window.EventSource
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init)
        type Add = (type: string, fn: (e: Event) => void) => void
        const add = this.addEventListener.bind(this) as Add
        ;(this as unknown as { addEventListener: Add }).addEventListener = (type, fn) => add(type, (e) => void (w.liveFrozen || fn(e)))
      }
    }
  })
  await logIn(page, 'admin@example.com')
  await nav(page, 'Overview')
  await expect(tile(page, 'Main power connection')).toContainText(SECONDS_OLD)
  await page.evaluate(() => ((window as unknown as { liveFrozen: boolean }).liveFrozen = true))
  await page.clock.fastForward(120_000)
  await expect(tile(page, 'Main power connection')).toContainText('Stale')
  await expect(tile(page, 'Main power connection')).toContainText(/updated [2-9] min ago/)
  await page.evaluate(() => ((window as unknown as { liveFrozen: boolean }).liveFrozen = false))
  await expect(tile(page, 'Main power connection')).not.toContainText('Stale', { timeout: 20_000 })
})

test("a resident with rights on two stations sees those stations in the installation view, each linking to its own page, and a live stations tile", async ({ page }) => {
  await logIn(page, 'user@example.com')
  await nav(page, 'Installation view')
  await expect(page.getByRole('heading', { level: 1, name: 'Installation view' })).toBeVisible()
  await expect(page.getByText(/No objects are shared with you/)).toHaveCount(0)
  const own = tile(page, 'Your charging stations')
  await expect(own).toContainText('Flats and meters appear here once your facility administrator shares them with you.')
  await expect(own.getByRole('link')).toHaveCount(2)
  const first = own.getByRole('link').first()
  const name = (await first.textContent())!.trim()
  await first.click()
  await expect(page).toHaveURL(/\/facility\/1\/power\/stations\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()

  await nav(page, 'Overview')
  const stations = tile(page, 'Charging stations')
  await expect(stations).toContainText(/Ready\s*\d of 2/)
  await expect(stations).toContainText(SECONDS_OLD)
  await expect(tile(page, 'Flow meter')).toHaveCount(0)
})

test("an admin's installation view links each station to that station's page on Power", async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await nav(page, 'Installation view')
  const garage = page.getByRole('region', { name: 'Garage' })
  await garage.getByRole('link', { name: 'Station 3', exact: true }).click()
  await expect(page).toHaveURL(/\/facility\/1\/power\/stations\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Station 3' })).toBeVisible()
  // Keyboard: back, and the same link reached and followed with Enter.
  await page.goBack()
  const link = page.getByRole('region', { name: 'Garage' }).getByRole('link', { name: 'Station 2', exact: true })
  await link.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Station 2' })).toBeVisible()
})

test('on a phone the Overview fits the screen: no sideways scrolling, the flow meter readable', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-GB', timezoneId: 'Europe/Zurich', hasTouch: true, isMobile: true })
  const page = await context.newPage()
  try {
    await logIn(page, 'admin@example.com')
    await page.goto('/facility/1/overview')
    await expect(tile(page, 'Flow meter')).toContainText(SECONDS_OLD)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    const box = await tile(page, 'Flow meter').boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(360)
  } finally {
    await context.close()
  }
})
