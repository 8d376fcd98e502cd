import { describe, expect, inject, it } from 'vitest'
import { AT, PASSWORD } from './helpers.ts'
import { pgliteTemplate } from './template.ts'

// The seeded templates test apps start from (tests/integration/template.ts, docs/decisions.md "A
// template serves the apps of its day"): chosen by the app's clock, never by the machine's day, so
// the suite's apps at its chosen hours in March 2026 load a copy instead of migrating and seeding anew.
// On TEST_DB=postgres the apps copy a template database instead (postgresDatabase), named the same way.
describe.skipIf(Boolean(inject('pgUrl')))('test app templates (PGlite)', () => {
  it('serve every app whose clock is on the same UTC day, whatever day the machine has', async () => {
    const morning = await pgliteTemplate(PASSWORD, new Date(AT.morning))
    expect(morning).toMatch(/demo-2026-03-04-/)
    expect(await pgliteTemplate(PASSWORD, new Date(AT.night))).toBe(morning)
    expect(await pgliteTemplate(PASSWORD, new Date(AT.evening))).toBe(morning)
  })
})
