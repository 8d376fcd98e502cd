import { expect } from '@playwright/test'
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'
import ocppRpc from 'ocpp-rpc'

/**
 * The e2e server's time (GET /api/health `now`): the server runs at config/playwright.config.ts's
 * CLOCK_START, so what a test expects of "today", "this month" or "in 40 days" is counted from it,
 * never from the machine's clock.
 */
export async function serverNow(page: Page): Promise<Date> {
  const r = await page.request.get('/api/health')
  expect(r.ok()).toBe(true)
  return new Date(((await r.json()) as { now: string }).now)
}

/** `date`'s calendar day in Europe/Zurich (the demo installation's zone) as YYYY-MM-DD, `days` later. */
export function zurichDay(date: Date, days = 0): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(new Date(date.getTime() + days * 86_400_000))
}

/** The password of every demo account (README, server/db/demo-seed.ts). */
export const PASSWORD = 'Cockpit-2026!'

/** Log in through the login page and wait for the facility home. */
export async function logIn(page: Page, email: string, password: string = PASSWORD): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

/** An admin logs in, creates a display link on Management → Display links and reads its URL (shown once). */
export async function createDisplayLink(page: Page, name: string): Promise<string> {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Display links' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Display links' })).toBeVisible()
  await page.getByLabel('Name (e.g. the screen\'s place)').fill(name)
  await page.getByRole('button', { name: 'Create link' }).click()
  const url = await page.getByRole('textbox', { name: 'Display link' }).inputValue()
  expect(url).toMatch(/\/display#cdk_[A-Za-z0-9_-]{43}$/)
  await expect(page.getByRole('list', { name: 'Active display links' })).toContainText(name)
  return url
}

/**
 * A fresh browser (no session) of `width`×`height` showing the display link `url`, with the page's clock
 * installed (Playwright page.clock) and, on `window`: the Wake Lock calls (`wakeLockCalls`), the open live
 * streams (`liveSources`, so a test can drop one), the number of live metrics events received
 * (`metricsEvents`, snapshots and patches of the metrics topic) and `liveFrozen`: while true the streams
 * stay open but nothing comes through to the app (a stalled proxy or relay).
 */
export async function openDisplay(browser: Browser, url: string, width: number, height: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'en-GB', timezoneId: 'Europe/Zurich' })
  const page = await context.newPage()
  await page.addInitScript(() => {
    const w = window as unknown as { wakeLockCalls: string[]; liveSources: EventSource[]; metricsEvents: number; liveFrozen: boolean }
    const calls: string[] = []
    w.wakeLockCalls = calls
    // Open streams, so a test can drop one as a network failure would (error event, then closed).
    const sources: EventSource[] = []
    w.liveSources = sources
    w.metricsEvents = 0
    w.liveFrozen = false
    const countMetrics = (e: Event) => {
      if (/"topic":\s*"metrics"/.test(String((e as MessageEvent).data))) w.metricsEvents++
    }
    const Native = window.EventSource
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init)
        sources.push(this)
        for (const type of ['snapshot', 'patch', 'merge']) this.addEventListener(type, countMetrics)
        // The app's listeners (added after this) are called only while the streams are not frozen.
        type Add = (type: string, fn: (e: Event) => void) => void
        const add = this.addEventListener.bind(this) as Add
        ;(this as unknown as { addEventListener: Add }).addEventListener = (type, fn) => add(type, (e) => void (w.liveFrozen || fn(e)))
      }
    }
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: { request: async (type: string) => (calls.push(type), Object.assign(new EventTarget(), { released: false, type, release: async () => undefined })) },
    })
  })
  await page.clock.install()
  await page.goto(url)
  return { context, page }
}

/**
 * Sign `email` in through the API (not a page) and return its access token and user id, for set-up and
 * clean-up calls a spec makes beside what it tests.
 */
export async function apiSession(request: APIRequestContext, email: string, password: string = PASSWORD): Promise<{ headers: Record<string, string>; userId: number }> {
  const r = await request.post('/api/authentication/token/', { data: { email, password } })
  expect(r.ok(), `API sign-in of ${email}`).toBe(true)
  const { access } = (await r.json()) as { access: string }
  const claims = JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString()) as { user_id: number }
  return { headers: { Authorization: `Bearer ${access}` }, userId: claims.user_id }
}

/** `email`'s saved language and region (users.ietf_lang_tag, "en-GB" style, Settings). */
export async function savedLanguageTag(request: APIRequestContext, email: string): Promise<string> {
  const { headers, userId } = await apiSession(request, email)
  const r = await request.get(`/api/users/${userId}/`, { headers })
  expect(r.ok()).toBe(true)
  return ((await r.json()) as { ietf_lang_tag: string }).ietf_lang_tag
}

/**
 * Save `tag` as `email`'s language and region (PATCH /api/users/{id}/, what Settings does). The demo
 * accounts are shared by every spec: one that changes a language puts it back with this in `finally`.
 */
export async function saveLanguageTag(request: APIRequestContext, email: string, tag: string): Promise<void> {
  const { headers, userId } = await apiSession(request, email)
  const r = await request.patch(`/api/users/${userId}/`, { headers, data: { ietf_lang_tag: tag } })
  expect(r.ok(), `saving ${tag} for ${email}`).toBe(true)
}

/** The logged-out routes (client/app/paths.ts). */
export const publicRoutes = ['/login', '/login/forgot', '/login/register', '/login/reset?token=x', '/login/verify?token=x', '/login/email-undo?token=x', '/login/email-confirm?token=x', '/login/invitation?token=x'] as const

/** The first `href` on the page matching `pattern`, after visiting `route`; null when there is none. */
async function firstHref(page: Page, route: string, pattern: RegExp): Promise<string | null> {
  await page.goto(route)
  await settle(page)
  const hrefs = await page.locator('main a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))
  return hrefs.find((h) => pattern.test(h)) ?? null
}

/**
 * Every route of demo installation 1 (client/app/paths.ts), with the ids of a station, a charging
 * session and a user the logged-in user can see, and the operator's Installations list. Not `admin`:
 * one admin route only, as the others give a resident the same no-access page.
 */
export async function appRoutes(page: Page, admin: boolean): Promise<string[]> {
  const base = '/facility/1'
  const station = await firstHref(page, `${base}/power`, /\/power\/stations\/\d+$/)
  const session = await firstHref(page, `${base}/sessions`, /\/sessions\/\d+$/)
  const userId = await page.evaluate(() => localStorage.getItem('cockpit.userId'))
  const user = admin ? ((await firstHref(page, `${base}/management/users`, /\/management\/users\/\d+$/)) ?? `${base}/management/users/${userId}`) : null
  return [
    base,
    `${base}/power`,
    ...(station ? [station] : []),
    `${base}/charts`,
    `${base}/sessions`,
    ...(session ? [session] : []),
    `${base}/rfids`,
    `${base}/pricing`,
    `${base}/overview`,
    `${base}/installation-view`,
    `${base}/management/users`,
    ...(user ? [user, `${user}/permissions`, `${base}/rates`, `${base}/reports`] : []),
    // Management's provisioning screens (admins) and the operator's Installations list (superusers;
    // the others get its frame with the not-found page).
    ...(admin ? [`${base}/management/installation`, `${base}/management/objects`, `${base}/management/meters`, `${base}/management/charging-stations`] : []),
    '/operator/installations',
    `${base}/settings`,
    `${base}/settings/payment-method`,
    `${base}/support`,
    `${base}/support/inbox`,
  ]
}

/** Wait until a page has its heading and no spinner (the route chunk and its first data are in). */
export async function settle(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
  await expect(page.locator('[role="status"] .animate-spin')).toHaveCount(0)
  // Live pages keep a stream open, so "network idle" may never come: wait for it briefly only.
  await page.waitForLoadState('networkidle', { timeout: 1_000 }).catch(() => undefined)
}

/** An OCPP 1.6J charge point client (ocpp-rpc, strict mode, as a real charger would speak). */
export type ChargePoint = InstanceType<typeof ocppRpc.RPCClient>

/**
 * Connect an OCPP 1.6J charge point as `id` with HTTP Basic `password` to `url`, the OCPP server's
 * address as the operator's screen shows it (ws://host/ocpp/<id>; the client appends the id itself).
 * No reconnect; rejects with the upgrade's HTTP status in `code` when refused. The same client as
 * tests/integration/helpers.ts connectChargePoint.
 */
export async function connectChargePoint(url: string, id: string, password: string): Promise<ChargePoint> {
  const endpoint = url.endsWith(`/${id}`) ? url.slice(0, -id.length - 1) : url
  const cp = new ocppRpc.RPCClient({
    endpoint, identity: id, password, protocols: ['ocpp1.6'], strictMode: true, reconnect: false,
    // ocpp-rpc's typings mark every option required; its documentation and code give them defaults.
  } as never)
  await cp.connect()
  return cp
}
