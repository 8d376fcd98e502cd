import { defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'
import { FATAL_REPORT_DIR } from '../tests/unfinished-files-reporter.ts'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    testTimeout: 30_000,
    // A beforeAll that starts the first app of a day makes that day's seeded template (tests/integration/template.ts),
    // 10–50 s; some write a year of 15-minute rows (energy-statistics: 30 s on a quiet machine, over 120 s on a loaded one).
    hookTimeout: 240_000,
    pool: 'forks',
    // A worker that V8 ends with a fatal error (a crash in a worker thread once took a CI shard down with
    // only "Worker exited unexpectedly") writes a diagnostic report the reporter below prints.
    execArgv: ['--report-on-fatalerror', `--report-directory=${FATAL_REPORT_DIR}`],
    // The second reporter names a file whose worker died under it (Vitest counts it as missing only).
    reporters: ['default', './tests/unfinished-files-reporter.ts'],
    // TEST_DB=postgres (npm run test:pg): the same suites on a throwaway Postgres cluster.
    globalSetup: process.env.TEST_DB === 'postgres' ? ['tests/postgres/global-setup.ts'] : [],
    // No retries (docs/decisions.md "No retries"): a test that fails once is fixed, not run again.
    projects: [
      // Unit tests, each file in a fresh module graph: some replace modules or timers (vi.mock, fake timers).
      { extends: true, test: { name: 'unit', include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'client/**/*.test.{ts,tsx}'] } },
      // Integration tests share a worker's modules (docs/decisions.md "Integration tests share their
      // modules"): each file builds its own apps and closes them, none replaces a module, and importing
      // the server anew for each of ~100 files took a sixth of the run (on Postgres too).
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], isolate: false } },
    ],
  },
})
