/**
 * Hand check of the screens in the four languages (not part of the test suite). Against a running server
 * with the demo (DEMO=on), it signs in as the demo admin, the demo resident and the superuser and, for each
 * of de, fr, it, en, opens the management, support, reports, charts and legal screens, saves a screenshot
 * of each and lists visible text that looks untranslated: i18n keys ("a.b.c"), raw codes (UPPER_SNAKE),
 * common English UI words on a non-English page, "undefined", "NaN", "null", "[object".
 *
 *   BASE_URL=http://127.0.0.1:3441 node scripts/screens.ts            # screenshots in /tmp/screens-13
 *   OUT=/tmp/x LANGS=de,fr NARROW_LANGS=de node scripts/screens.ts      # 360 px shots for NARROW_LANGS
 *
 * Start the server with a short INFO_INTERVAL_MS (e.g. 2000) so the facility-offline alert shows at once.
 * Writes OUT/findings.json and OUT/findings.md (screen × role × language → findings).
 */
import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright'

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:3441'
const OUT = process.env.OUT ?? '/tmp/screens-13'
const LANGS = (process.env.LANGS ?? 'de,fr,it,en').split(',')
const NARROW = (process.env.NARROW_LANGS ?? 'de').split(',').filter(Boolean)
const PASSWORD = process.env.DEMO_PASSWORD ?? 'Cockpit-2026!'
const INST = 1
const ROLES = { admin: 'admin@example.com', resident: 'user@example.com', superuser: 'super@example.com' } as const
type Role = keyof typeof ROLES

/** Common English UI words that are no word of German, French or Italian (demo data words left out). */
const ENGLISH = ['Save', 'Cancel', 'Delete', 'Edit', 'Loading', 'Close', 'Send', 'Back', 'Search', 'Settings', 'Users', 'Open', 'Closed',
  'Running', 'running', 'Submit', 'Add', 'Remove', 'Yes', 'None', 'Today', 'Week', 'Month', 'Year', 'Download', 'Charts', 'Reports',
  'Reply', 'Unknown', 'Error', 'coming soon', 'Read', 'Accept', 'Paid', 'Unpaid', 'Pending', 'pending', 'Topic', 'Shortcut',
  'Shortcuts', 'Meter', 'Meters', 'Period', 'Pricing', 'Rates', 'Management', 'Overview', 'Home', 'Log out', 'Language', 'Role', 'Output',
  'directory', 'since', 'Messages', 'Message sent', 'Privacy policy', 'Terms of use', 'Legal texts', 'Publish', 'Resident', 'Installation view',
  'No data', 'Power flow', 'kWh total', 'Total energy', 'Energy', 'Cost', 'User', 'the', 'and', 'with', 'your', 'for', 'from']

interface Finding { screen: string; role: Role; lang: string; width: number; file: string; issues: string[]; errors: string[] }

async function api<T>(method: string, url: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE}/api${url}`, {
    method,
    headers: { 'content-type': 'application/json', 'installation-id': String(INST), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return (text ? JSON.parse(text) : null) as T
}
const login = (email: string) => api<{ access: string; refresh: string }>('POST', '/authentication/token/', null, { email, password: PASSWORD })
const userIdOf = (access: string) => JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString()).user_id as number

/** What the screens need: a ticket answered by support, a pinned shortcut each, a running session, a report with year and folder. */
async function prepare() {
  const admin = (await login(ROLES.admin)).access
  const resident = (await login(ROLES.resident)).access
  const superuser = (await login(ROLES.superuser)).access
  const tickets = await api<{ results: { id: number }[] }>('GET', '/emails/support-tickets/', resident)
  let ticket = tickets.results[0]?.id
  if (!ticket) {
    ticket = (await api<{ conversation_id: number }>('POST', '/emails/send-support-email/', resident, { topic: 'charging', message: 'Station 1 stops after ten minutes. Could you check it?' })).conversation_id
    await api('POST', `/emails/support-tickets/${ticket}/messages`, superuser, { message: 'Thank you, we will check station 1 today.' })
  }
  for (const token of [admin, resident, superuser]) {
    await api('POST', `/cockpit/installations/${INST}/shortcuts/`, token, { name: 'Station 1', url: `/facility/${INST}/power/stations/1` })
  }
  const rfids = await api<{ results: { id: number; user_id: number | null }[] } | { id: number; user_id: number | null }[]>('GET', `/cockpit/installations/${INST}/rfids/`, admin)
  const list = Array.isArray(rfids) ? rfids : rfids.results
  const card = list.find((r) => r.user_id === userIdOf(resident)) ?? list[0]
  await api('POST', `/cockpit/installations/${INST}/charging_stations/1/simulator/plug_in`, admin, { minutes: 240, energy_kwh: 40, rfid_id: card.id }).catch((e) => console.warn(`plug_in: ${e}`))
  const reports = await api<{ results: { name: string }[] }>('GET', `/cockpit/installations/${INST}/reports/`, admin)
  if (!reports.results.some((r) => r.name === 'Heat 2025')) {
    await api('POST', `/cockpit/installations/${INST}/reports/`, admin, { name: 'Heat 2025', report_type: 'heat', year: 2025, recipients: ['admin@example.com'], output_directory: 'exports/heat', intervals: ['y'], language: 'de' })
  }
  return { admin, ticket, residentId: userIdOf(resident) }
}

/** A screen: where to go, what to do there before the shot, which roles see it. */
interface Screen { name: string; roles: Role[]; url: (c: Ctx) => string; act?: (page: Page, c: Ctx) => Promise<void> }
interface Ctx { ticket: number; residentId: number; admin: string }

const base = `/facility/${INST}`
const SCREENS: Screen[] = [
  { name: 'home-shortcut', roles: ['admin', 'resident', 'superuser'], url: () => base },
  { name: 'support-form-list', roles: ['admin', 'resident', 'superuser'], url: () => `${base}/support` },
  { name: 'support-ticket', roles: ['resident', 'superuser'], url: (c) => `${base}/support/${c.ticket}` },
  { name: 'support-inbox', roles: ['superuser'], url: () => `${base}/support/inbox` },
  {
    name: 'facility-offline', roles: ['admin', 'resident', 'superuser'], url: () => `${base}/power`,
    act: async (page) => {
      await page.getByRole('alert').filter({ hasText: /\d/ }).first().waitFor({ timeout: 15_000 }).catch(() => undefined)
    },
  },
  { name: 'sessions-running', roles: ['admin', 'resident', 'superuser'], url: () => `${base}/sessions` },
  { name: 'users-list', roles: ['admin', 'superuser'], url: () => `${base}/management/users` },
  {
    name: 'users-superuser-filter', roles: ['superuser', 'admin'], url: () => `${base}/management/users`,
    act: async (page) => {
      await page.locator('main select').first().selectOption('superuser')
      await page.waitForTimeout(800)
    },
  },
  { name: 'user-role-rfid', roles: ['admin', 'superuser'], url: (c) => `${base}/management/users/${c.residentId}` },
  { name: 'settings-legal', roles: ['admin', 'resident', 'superuser'], url: () => `${base}/settings` },
  { name: 'legal-publish', roles: ['superuser'], url: () => `${base}/management/legal` },
  { name: 'installation-view', roles: ['admin', 'resident', 'superuser'], url: () => `${base}/installation-view` },
  {
    name: 'meter-chart', roles: ['admin', 'superuser'], url: () => `${base}/installation-view`,
    act: async (page) => {
      const link = page.locator('main a[href*="meter="]').first()
      if (await link.count()) {
        await link.click()
        await page.waitForTimeout(2500)
      }
    },
  },
  { name: 'station-status', roles: ['admin', 'resident', 'superuser'], url: () => `${base}/power/stations/1` },
  {
    name: 'station-charts', roles: ['admin', 'resident', 'superuser'], url: () => `${base}/power/stations/1`,
    act: async (page) => {
      await page.getByRole('tab').nth(3).click()
      await page.waitForTimeout(2500)
    },
  },
  { name: 'reports', roles: ['admin', 'superuser'], url: () => `${base}/reports` },
  {
    name: 'report-form', roles: ['admin'], url: () => `${base}/reports`,
    act: async (page) => {
      await page.locator('main article button').first().click()
      await page.waitForTimeout(500)
    },
  },
]

async function settle(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 20_000 }).catch(() => undefined)
  await page.locator('[role="status"] .animate-spin').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined)
  await page.waitForLoadState('networkidle', { timeout: 1500 }).catch(() => undefined)
}

/** Visible text (and accessible names) of the page that looks untranslated in `lang`. */
async function suspicious(page: Page, lang: string): Promise<string[]> {
  const { text, labels } = await page.evaluate(() => ({
    text: document.body.innerText,
    labels: [...document.querySelectorAll('[aria-label],[placeholder],[title]')]
      .flatMap((e) => ['aria-label', 'placeholder', 'title'].map((a) => e.getAttribute(a) ?? '')).filter(Boolean).join('\n'),
  }))
  const all = `${text}\n${labels}`
  const issues = new Set<string>()
  for (const m of all.matchAll(/(?<![\w@/.:-])[a-z][a-zA-Z0-9]*(?:\.[a-zA-Z][a-zA-Z0-9_]*)+(?![\w@/-])/g)) {
    const s = m[0]
    if (/\.(com|ch|org|net|de|fr|it|local|io|csv|pdf|xlsx|json)$/.test(s) || /^(e\.g|i\.e|z\.B|p\.es|p\.ex)$/i.test(s)) continue
    issues.add(`key? ${s}`)
  }
  for (const m of all.matchAll(/\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/g)) issues.add(`code? ${m[0]}`)
  for (const m of all.matchAll(/\bundefined\b|\bNaN\b|\bnull\b|\[object/g)) issues.add(`broken: ${m[0]}`)
  if (lang !== 'en') {
    for (const w of ENGLISH) {
      const re = new RegExp(`(?<![\\p{L}])${w.replace(/ /g, '\\s+')}(?![\\p{L}])`, 'u')
      const hit = re.exec(text)
      if (hit) issues.add(`english? "${w}" in “${text.slice(Math.max(0, hit.index - 30), hit.index + w.length + 30).replace(/\s+/g, ' ')}”`)
    }
  }
  return [...issues]
}

async function run(browser: Browser, c: Ctx, lang: string, role: Role, width: number, findings: Finding[]) {
  const { access, refresh } = await login(ROLES[role])
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 740 : 900 }, locale: `${lang}-CH`, timezoneId: 'Europe/Zurich' })
  await context.addInitScript(([l, a, r, id]) => {
    localStorage.setItem('cockpit.language', l)
    if (!localStorage.getItem('cockpit.access')) {
      localStorage.setItem('cockpit.access', a)
      localStorage.setItem('cockpit.refresh', r)
      localStorage.setItem('cockpit.userId', id)
    }
  }, [lang, access, refresh, String(userIdOf(access))])
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e.message)))
  for (const s of SCREENS.filter((x) => x.roles.includes(role))) {
    const offline = s.name === 'facility-offline'
    if (offline) c.admin = (await login(ROLES.admin)).access
    if (offline) await api('POST', `/cockpit/installations/${INST}/simulator/connection`, c.admin, { online: false })
    const before = errors.length
    try {
      await page.goto(`${BASE}${s.url(c)}`)
      await settle(page)
      if (s.act) await s.act(page, c)
      const file = path.join(OUT, `${s.name}-${role}-${lang}-${width}.png`)
      await page.screenshot({ path: file, fullPage: true })
      findings.push({ screen: s.name, role, lang, width, file, issues: await suspicious(page, lang), errors: errors.slice(before) })
    } catch (err) {
      findings.push({ screen: s.name, role, lang, width, file: '', issues: [`script failed: ${(err as Error).message.split('\n')[0]}`], errors: errors.slice(before) })
    } finally {
      if (offline) await api('POST', `/cockpit/installations/${INST}/simulator/connection`, c.admin, { online: true })
    }
    console.log(`${lang} ${role} ${width} ${s.name}: ${findings.at(-1)!.issues.length} finding(s) ${findings.at(-1)!.issues.join(" / ")}`)
  }
  await context.close()
}

fs.mkdirSync(OUT, { recursive: true })
const ctx = await prepare()
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const findings: Finding[] = []
try {
  for (const lang of LANGS) {
    for (const role of Object.keys(ROLES) as Role[]) {
      await run(browser, ctx, lang, role, 1280, findings)
      if (NARROW.includes(lang)) await run(browser, ctx, lang, role, 360, findings)
    }
  }
} finally {
  await browser.close()
}
fs.writeFileSync(path.join(OUT, 'findings.json'), JSON.stringify(findings, null, 2))
const md = ['| screen | role | lang | width | findings |', '| --- | --- | --- | --- | --- |',
  ...findings.map((f) => `| ${f.screen} | ${f.role} | ${f.lang} | ${f.width} | ${[...f.issues, ...f.errors.map((e) => `page error: ${e}`)].join('<br>').replace(/\|/g, '\\|') || 'none'} |`)]
fs.writeFileSync(path.join(OUT, 'findings.md'), md.join('\n') + '\n')
console.log(`${findings.length} screens, ${findings.filter((f) => f.issues.length || f.errors.length).length} with findings: ${OUT}/findings.md`)
