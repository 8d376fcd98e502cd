import { defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'client/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The run's folder for template databases (tests/integration/template.ts); with TEST_DB=postgres
    // (npm run test:pg) the same suites run on a throwaway Postgres cluster (issue 16 §1).
    globalSetup: ['tests/integration/global-setup.ts', ...(process.env.TEST_DB === 'postgres' ? ['tests/postgres/global-setup.ts'] : [])],
    // As the e2e suite: on CI a test gets one retry. The relay's timing tests (polls per interval) can
    // starve while the API fuzz files use both cores; a retried pass is reported as flaky, not hidden.
    retry: process.env.CI ? 1 : 0,
  },
})
