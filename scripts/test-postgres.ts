import { spawnSync } from 'node:child_process'
import { postgresBin } from '../tests/postgres/cluster.ts'

/**
 * `npm run test:pg`: the integration suite again, on a throwaway PostgreSQL cluster
 * (tests/postgres/cluster.ts) instead of PGlite, so any dialect difference is a failing test. Needs
 * Debian's `postgresql` package: without it the run is skipped with a note locally and fails on CI.
 * Extra arguments go to Vitest: test files (instead of all of tests/integration) and options written
 * as `--name=value`.
 */
if (!postgresBin()) {
  const msg = 'Postgres tests: Debian\'s postgresql is not installed (apt-get install -y postgresql).'
  if (process.env.CI) {
    console.error(`${msg} CI needs it.`)
    process.exit(1)
  }
  console.warn(`${msg} Skipped.`)
  process.exit(0)
}
// The generated-request fuzz (api-fuzz*) checks validation and answers, which do not depend on the
// database; it is the slowest part of the suite, so it runs on PGlite only.
// Options (`--name=value`, e.g. --maxWorkers=1 from scripts/test-all.ts) go along with either.
const args = process.argv.slice(2)
const files = args.filter((a) => !a.startsWith('-'))
const options = args.filter((a) => a.startsWith('-'))
const r = spawnSync('npx', ['vitest', 'run', '--config', 'config/vitest.config.ts', ...options, ...(files.length ? files : ['tests/integration', '--exclude', 'tests/integration/api-fuzz*'])], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DB: 'postgres' },
})
process.exit(r.status ?? 1)
