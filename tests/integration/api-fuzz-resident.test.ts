import { expect, it } from 'vitest'
import { fuzzAs, RUNS, SEED, TIMEOUT } from './api-fuzz.ts'

// Fuzzing from the served OpenAPI as the resident (the admin's run is its own file,
// so the two run side by side). The normal run sends a seeded sample, `npm run test:fuzz` the full
// fuzz (api-fuzz.ts RUNS). Reproduce a finding with the seed printed by fast-check.
it(`answers ${RUNS} generated valid and broken requests per operation as resident with no 5xx and only documented answers (seed ${SEED})`, async () => {
  const figures = await fuzzAs('resident')
  console.info(`API fuzz as resident: ${figures.operations} operations, ${figures.requests} requests, statuses ${JSON.stringify(figures.statuses)}`)
  expect(figures.findings.join('\n')).toBe('')
  expect(figures.requests).toBeGreaterThanOrEqual(figures.operations * RUNS)
}, TIMEOUT)
