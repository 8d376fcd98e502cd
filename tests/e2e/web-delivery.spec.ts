import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/** Script URLs the page has requested so far, in order (resource timing: what the browser really fetched). */
function scriptUrls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.endsWith('.js')),
  )
}

/** CSP violations reported while the page runs (the preloader is an inline script allowed by hash). */
function watchViolations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to (load|apply|execute)/i.test(msg.text())) seen.push(msg.text())
  })
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`))
  })
  return seen
}

// The route's chunk and the active language's texts load in the first wave, beside the
// entry chunk, not after it has run (config/preload-boot.ts).
test('Login preloads its screen and only the stored language\'s texts from index.html, under the CSP', async ({ page }) => {
  const violations = watchViolations(page)
  await page.addInitScript(() => localStorage.setItem('cockpit.language', 'fr'))
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible()

  const preloads = await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname))
  const map = JSON.parse((await page.locator('#cockpit-preload').textContent()) ?? '{}') as {
    routes: Array<{ pattern: string; chunks: string[] }>
    locales: Record<string, Record<string, string>>
  }
  const login = map.routes.find((r) => new RegExp(r.pattern).test('/login'))
  expect(login?.chunks.length).toBeGreaterThan(0)
  for (const chunk of login?.chunks ?? []) expect(preloads).toContain(chunk)
  expect(preloads).toContain(map.locales.fr.common)
  expect(preloads).toContain(map.locales.fr.login)
  // One language only: no other language's texts are fetched.
  const fetched = await scriptUrls(page)
  for (const lng of ['en', 'de', 'it']) {
    expect(fetched).not.toContain(map.locales[lng].common)
    expect(fetched).not.toContain(map.locales[lng].login)
  }
  expect(violations).toEqual([])
})

// Login's LCP ≤ 1.2 s, every run (docs/performance.md): the prerendered login screen paints from its HTML, and
// no script may be fetched before that paint. When one was (a race between the first paint and the
// scripts arriving), Lighthouse counted every script into the paint and LCP doubled (0.8 → 1.8 s).
test('Login paints its screen from the HTML before it fetches any script, then runs the form', async ({ page }) => {
  const violations = watchViolations(page)
  // The painted element as the browser reports it, before React replaces the prerendered markup.
  await page.addInitScript(() => {
    const seen: Array<{ at: number; text: string }> = []
    ;(window as unknown as { lcps: typeof seen }).lcps = seen
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>) seen.push({ at: e.startTime, text: e.element?.textContent ?? '' })
    }).observe({ type: 'largest-contentful-paint', buffered: true })
  })
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  const timing = await page.evaluate(() => ({
    lcps: (window as unknown as { lcps: Array<{ at: number; text: string }> }).lcps,
    scripts: performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.endsWith('.js'))
      .map((e) => ({ url: new URL(e.name).pathname, start: e.startTime })),
  }))
  // The largest paint is the prerendered intro, not something the scripts rendered later.
  const lcp = timing.lcps.at(-1)
  expect(lcp?.text).toBe("Log in to follow your facility's energy and charging stations.")
  expect(timing.scripts.length).toBeGreaterThan(3)
  for (const s of timing.scripts) expect(s.start, `${s.url} requested before the paint at ${lcp?.at} ms`).toBeGreaterThan(lcp?.at ?? Infinity)
  // The form then works as before: its scripts ran under the CSP.
  await expect(page.getByLabel('E-mail')).toBeEditable()
  expect(violations).toEqual([])
})

// Power's LCP ≤ 1.8 s (docs/performance.md): Power paints its frame from the shell, so its own chunk is not
// preloaded with the HTML, where it took bandwidth from the files of that first paint; it is fetched
// after the paint, and the page then fills in (config/preload-boot.ts chunksAfterPaint).
test('Power fetches its own chunk only after the first paint, then shows the live flow', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.goto('/facility/1/power')
  const flow = page.getByRole('region', { name: 'Current power flow' })
  await expect(flow.getByRole('group', { name: 'Grid', exact: true })).toContainText('kW')
  const timing = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    chunks: performance
      .getEntriesByType('resource')
      .filter((e) => /\/assets\/power-page-[^/]*\.js$/.test(new URL(e.name).pathname))
      .map((e) => e.startTime),
  }))
  expect(timing.fcp).toBeGreaterThan(0)
  expect(timing.chunks).toHaveLength(1)
  expect(timing.chunks[0], `power-page requested at ${timing.chunks[0]} ms, first paint at ${timing.fcp} ms`).toBeGreaterThan(timing.fcp!)
})

// Power's moving flow lines must not repaint on the main thread every frame (that was
// most of its blocking time under Lighthouse's phone CPU): every running animation moves only
// compositor properties (transform, opacity).
test('Power\'s running animations are compositor-only, and the flow lines still move', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  const flow = page.getByRole('region', { name: 'Current power flow' })
  await expect(flow.getByRole('group', { name: 'Grid', exact: true })).toContainText('kW')
  await expect(page.locator('.flow-line').first()).toBeAttached()

  const animations = await page.evaluate(() =>
    document.getAnimations().map((a) => {
      const effect = a.effect as KeyframeEffect
      const props = new Set(effect.getKeyframes().flatMap((k) => Object.keys(k).filter((p) => !['offset', 'easing', 'composite', 'computedOffset'].includes(p))))
      return { target: (effect.target as Element | null)?.className.toString() ?? '', props: [...props] }
    }),
  )
  const flowAnimations = animations.filter((a) => a.target.includes('flow-dashes'))
  expect(flowAnimations.length).toBeGreaterThan(0)
  for (const a of animations) for (const p of a.props) expect(['transform', 'opacity'], `${a.target}: ${p}`).toContain(p)

  // The strips run from their node to the hub: each is as long as its grey guide line.
  const lengths = await page.locator('.flow-line').evaluateAll((els) => els.map((e) => (e as HTMLElement).offsetWidth))
  for (const l of lengths) expect(l).toBeGreaterThan(20)
})

// WCAG 2.3.3 (Animation from Interactions) and the system setting people choose against motion
// sickness: with "reduce motion" nothing on Power moves, neither the flow lines nor the "Live" dot.
test('with reduced motion, nothing on Power is animated', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Current power flow' }).getByRole('group', { name: 'Grid', exact: true })).toContainText('kW')
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible()
  const running = await page.evaluate(() => document.getAnimations().map((a) => ((a.effect as KeyframeEffect).target as Element | null)?.className.toString() ?? ''))
  expect(running).toEqual([])
})

// On a phone the "last hour" chart is below the fold; its library and first drawing wait
// until the tile nears the viewport (they were long main-thread work during Power's load), and it
// opens filled from the stored hour when the user scrolls to it.
test('Power on a phone loads the last-hour chart only when scrolled to, and it opens drawn', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 760 })
  await logIn(page, 'admin@example.com')
  await page.goto('/facility/1/power')
  const flow = page.getByRole('region', { name: 'Current power flow' })
  await expect(flow.getByRole('group', { name: 'Grid', exact: true })).toContainText('kW')
  const chartTile = page.getByRole('region', { name: 'Power over the last hour (kW)' })
  const chart = page.getByRole('figure', { name: 'Line chart of the power over the last hour' })
  await expect(chartTile).toBeAttached()
  await page.waitForTimeout(1_000)
  await expect(chart).toHaveCount(0)
  expect((await scriptUrls(page)).filter((u) => u.includes('power-chart'))).toEqual([])

  await chartTile.scrollIntoViewIfNeeded()
  await expect(chart.locator('canvas').first()).toBeVisible()
  expect((await scriptUrls(page)).filter((u) => u.includes('power-chart')).length).toBeGreaterThan(0)
  // Filled from the stored hour, not "collecting" from the live samples alone.
  await expect(chart.getByText('Collecting data')).toHaveCount(0)
})

/** Width and height of a PNG (its IHDR chunk). */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString()).toBe('PNG')
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)]
}

// An installable app: manifest with 192/512/maskable PNG icons, a touch icon, a favicon,
// and a service worker that caches the app shell but never the API or the live streams.
test('the app is installable: manifest, icons, favicon and a registered service worker', async ({ page, request }) => {
  const manifestAnswer = await request.get('/manifest.webmanifest')
  expect(manifestAnswer.status()).toBe(200)
  expect(manifestAnswer.headers()['content-type']).toBe('application/manifest+json')
  const manifest = (await manifestAnswer.json()) as { name: string; display: string; start_url: string; theme_color: string; icons: Array<{ src: string; sizes: string; purpose?: string }> }
  expect(manifest).toMatchObject({ name: 'Cockpit', display: 'standalone', start_url: '/', theme_color: '#187560' })
  const pngs = manifest.icons.filter((i) => i.src.endsWith('.png'))
  for (const icon of pngs) {
    const answer = await request.get(icon.src)
    expect(answer.status(), icon.src).toBe(200)
    expect(pngSize(await answer.body()).join('x'), icon.src).toBe(icon.sizes)
  }
  expect(pngs.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
  const favicon = await request.get('/favicon.ico')
  expect(favicon.status()).toBe(200)
  expect(favicon.headers()['content-type']).toBe('image/x-icon')

  const violations = watchViolations(page)
  await page.goto('/login')
  const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')
  expect(pngSize(await (await request.get(touchIcon ?? '')).body())).toEqual([180, 180])
  const script = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.scriptURL ?? ''))
  expect(new URL(script).pathname).toBe('/sw.js')
  // Chromium's own installability check (what Lighthouse's "installable" audit reported).
  const cdp = await page.context().newCDPSession(page)
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> }
  // Playwright's browser contexts are off the record, which Chromium never installs from: not the app's doing.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([])
  expect(violations).toEqual([])
})

test('the service worker serves the app shell from its cache, never the API or the live streams, and shows an offline screen', async ({ page, context }) => {
  await page.goto('/login')
  await page.evaluate(() => navigator.serviceWorker.ready)
  // Controlled from the next load on: the shell's assets now come from the service worker's cache.
  const fromWorker = new Map<string, boolean>()
  page.on('response', (r) => fromWorker.set(new URL(r.url()).pathname, r.fromServiceWorker()))
  await page.reload()
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true)
  const assets = [...fromWorker].filter(([p]) => p.startsWith('/assets/'))
  expect(assets.length).toBeGreaterThan(5)
  for (const [p, viaWorker] of assets) expect(viaWorker, p).toBe(true)

  // API calls and a live stream pass by: answered by the server, nothing of them in any cache.
  await page.evaluate(async () => {
    await fetch('/api/health')
    await fetch('/api/cockpit/installations/').catch(() => undefined)
    await fetch('/live/tickets', { method: 'POST' }).catch(() => undefined)
    await fetch('/api/health')
  })
  expect(fromWorker.get('/api/health')).toBe(false)
  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname)
    return urls
  })
  expect(cached.length).toBeGreaterThan(5)
  expect(cached.filter((p) => /^\/(api|live)(\/|$)/.test(p))).toEqual([])
  expect(cached).not.toContain('/index.html')

  // No network: a page load gets the offline screen, in the user's language, which retries by itself.
  await context.setOffline(true)
  await page.goto('/facility/1/power').catch(() => undefined)
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible()
  // "Try again" while still offline loads the page again and lands on the same screen.
  const reloaded = page.waitForEvent('load')
  await page.getByRole('button', { name: 'Try again' }).click()
  await reloaded
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible()
  // The connection comes back: the screen reloads the page by itself (no click needed, so none is raced).
  await context.setOffline(false)
  await expect(page).toHaveURL(/\/(login|facility\/1\/power)/)
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeHidden()
})
