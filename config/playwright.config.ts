import { defineConfig, devices } from '@playwright/test'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * End-to-end tests (ARCHITECTURE §2 tests/e2e) in Debian's Chromium against the started program
 * with the demo data, on port 3199 with a fresh data folder, and a second program from an empty
 * database (DEMO off, the first superuser from ADMIN_EMAIL/ADMIN_PASSWORD) on port 3202 for the
 * operator's first start (tests/e2e/operator-empty.spec.ts); both start side by side. The client must be built first
 * (`npm test` runs `npm run build` before this). No browser is ever downloaded: without
 * /usr/bin/chromium the tests are skipped locally and fail on CI.
 */
const repo = fileURLToPath(new URL('..', import.meta.url))
export const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) {
  if (process.env.CI) {
    throw new Error(`E2E: ${CHROMIUM} is missing. Install Debian's Chromium (apt-get install -y chromium) before running the e2e tests on CI.`)
  }
  console.warn(`E2E tests skipped: ${CHROMIUM} is missing (install it with: apt-get install -y chromium).`)
}

// E2E_PORT lets several people (or agents) run the suite side by side, each with its own data.
const PORT = Number(process.env.E2E_PORT ?? 3199)
const DATA_DIR = `${repo}.tmp/e2e-data-${PORT}`
/**
 * The instant the e2e server starts at (CLOCK_START, ARCHITECTURE §1 "Time"): Wednesday 4 March 2026,
 * 10:00 in Zürich, a winter morning on which no resident's car of the demo (SIM_SEED 42) is at a
 * station until the evening, whatever the hour the suite runs. Specs count "today" from the server
 * (tests/e2e/fixtures.ts serverNow), and the browser learns the server's time (client/api/clock.ts).
 */
export const E2E_CLOCK_START = '2026-03-04T10:00:00+01:00'
/** The SMTP server the e2e specs start to capture mail (tests/e2e/accounts-reset.spec.ts): port E2E_PORT + 1000. */
export const E2E_SMTP_PORT = PORT + 1000
/** The server's own SMTP receiver for replies to support tickets (tests/e2e/support-shortcuts.spec.ts): port E2E_PORT + 2000. */
export const E2E_INBOUND_SMTP_PORT = PORT + 2000
/** The server started from an empty database (DEMO off) for tests/e2e/operator-empty.spec.ts: port E2E_PORT + 3. */
export const E2E_EMPTY_PORT = PORT + 3
export const E2E_EMPTY_URL = `http://127.0.0.1:${E2E_EMPTY_PORT}`
/** The first superuser of the empty server (ADMIN_EMAIL/ADMIN_PASSWORD, README "Production start"). */
export const E2E_EMPTY_ADMIN = { email: 'operator@example.com', password: 'First-start-2026!' } as const
const EMPTY_DATA_DIR = `${repo}.tmp/e2e-data-${E2E_EMPTY_PORT}`

export default defineConfig({
  testDir: `${repo}tests/e2e`,
  outputDir: process.env.E2E_PORT ? `${repo}test-results/${PORT}` : `${repo}test-results`,
  fullyParallel: false,
  workers: 1,
  // No retries (docs/decisions.md "No retries"): a flaky test is fixed, not run again.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: `${repo}playwright-report` }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-GB',
    timezoneId: 'Europe/Zurich',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM,
          args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
        },
      },
    },
  ],
  webServer: hasChromium
    ? [
        {
          command: `rm -rf "${DATA_DIR}" && node server/main.ts`,
          cwd: repo,
          // Ready, not only alive: the first start backfills 30 days, and tests should not race it.
          url: `http://127.0.0.1:${PORT}/api/ready`,
          reuseExistingServer: false,
          timeout: 300_000, // a quiet machine is ready in ~20 s; a loaded one took over 120 s
          stdout: 'ignore',
          stderr: 'pipe',
          env: { PORT: String(PORT), DEMO: 'on', DATA_DIR, CLOCK_START: E2E_CLOCK_START, LOG_LEVEL: 'warn', SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`, INBOUND_SMTP_PORT: String(E2E_INBOUND_SMTP_PORT), INBOUND_SMTP_HOST: '127.0.0.1', ...(process.env.CLIENT_OUT_DIR ? { CLIENT_DIR: process.env.CLIENT_OUT_DIR } : {}) },
        },
        {
          // An empty database as in production: no demo, the first superuser from ADMIN_*; PUBLIC_URL
          // so the OCPP URL shown to the operator is the one the test's charge point can reach.
          command: `rm -rf "${EMPTY_DATA_DIR}" && node server/main.ts`,
          cwd: repo,
          url: `${E2E_EMPTY_URL}/api/ready`,
          reuseExistingServer: false,
          timeout: 300_000,
          stdout: 'ignore',
          stderr: 'pipe',
          env: {
            PORT: String(E2E_EMPTY_PORT), HOST: '127.0.0.1', DEMO: 'off', DATA_DIR: EMPTY_DATA_DIR, CLOCK_START: E2E_CLOCK_START, LOG_LEVEL: 'warn', PUBLIC_URL: E2E_EMPTY_URL,
            ADMIN_EMAIL: E2E_EMPTY_ADMIN.email, ADMIN_PASSWORD: E2E_EMPTY_ADMIN.password,
            ...(process.env.CLIENT_OUT_DIR ? { CLIENT_DIR: process.env.CLIENT_OUT_DIR } : {}),
          },
        },
      ]
    : undefined,
})
