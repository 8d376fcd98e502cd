import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { createDisplayLink, openDisplay } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/** Live metrics samples the display must take in before the chart is looked at again (one per 5 s relay poll). */
const SAMPLES = 6

/**
 * The ink of the chart's three drawing layers (price pane, price axis, time axis; the library's
 * overlay canvases for the crosshair are left out): the share of each layer's pixels that are mostly
 * opaque and dark (lines, axis labels; not the light grid). A layer that is not cleared between paints
 * gathers ink with every paint: labels become blobs, line steps hatched bands.
 */
const chartInk = (page: Page) =>
  page.getByRole('figure', { name: 'Line chart of the power over the last hour' }).locator('canvas').evaluateAll((canvases) => {
    const ink: Record<string, number> = {}
    for (const c of canvases as HTMLCanvasElement[]) {
      const td = c.closest('td')!
      const row = (td.parentElement as HTMLTableRowElement).rowIndex
      const layer = row === 0 ? (td.cellIndex === 1 ? 'pane' : 'priceAxis') : td.cellIndex === 1 ? 'timeAxis' : null
      // The first canvas of a cell is its drawing, the second the crosshair overlay.
      if (layer === null || layer in ink || c.width === 0 || c.height === 0) continue
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height)
      let dark = 0
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] >= 128 && data[i] + data[i + 1] + data[i + 2] < 3 * 160) dark++
      ink[layer] = dark / (data.length / 4)
    }
    return ink as { pane: number; priceAxis: number; timeAxis: number }
  })

const metricsEvents = (page: Page) => page.evaluate(() => (window as unknown as { metricsEvents: number }).metricsEvents)
const frames = (page: Page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))

test(`the display's chart stays sharp at 1920×1080 while ${SAMPLES} live samples arrive (each paint starts from a clear canvas)`, async ({ page, browser }) => {
  test.setTimeout(180_000)
  const url = await createDisplayLink(page, 'Sharp chart')
  const { context, page: display } = await openDisplay(browser, url, 1920, 1080)
  try {
    const storedHour = display.waitForResponse(/\/api\/statistics\/\d+\/flow\?/)
    await expect(display.locator('[data-figure]').first()).toContainText('kW', { timeout: 30_000 })
    await storedHour
    await expect(display.getByText('Collecting data: the chart fills as live values arrive.')).toHaveCount(0, { timeout: 30_000 })
    await frames(display)
    const first = await chartInk(display)
    expect(first.timeAxis).toBeGreaterThan(0)

    const seen = await metricsEvents(display)
    await expect.poll(() => metricsEvents(display), { timeout: 120_000, intervals: [1000] }).toBeGreaterThanOrEqual(seen + SAMPLES)
    await frames(display)
    const live = await chartInk(display)
    await test.info().attach('display after live samples', { body: await display.screenshot(), contentType: 'image/png' })

    // The same chart painted afresh: a resize gives every canvas a new bitmap (cleared), then back.
    await display.setViewportSize({ width: 1919, height: 1080 })
    await frames(display)
    await display.setViewportSize({ width: 1920, height: 1080 })
    await frames(display)
    const fresh = await chartInk(display)
    console.info(`chart ink (share of dark pixels) first paint ${JSON.stringify(first)}, after ${SAMPLES} samples ${JSON.stringify(live)}, painted afresh ${JSON.stringify(fresh)}`)

    // The time labels hold as much ink as at the first paint (a smear fills the axis), and every
    // layer as much as the same chart painted afresh.
    expect(live.timeAxis).toBeLessThan(first.timeAxis * 1.3)
    for (const layer of ['pane', 'priceAxis', 'timeAxis'] as const) expect(live[layer], layer).toBeLessThan(fresh[layer] * 1.2 + 0.002)
  } finally {
    await context.close()
  }
})
