import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder for template databases (tests/integration/template.ts), removed at the end. */
    templateDir: string
  }
}

/**
 * Vitest global set-up of every run: a folder for the run's template databases, which the first test
 * app that needs one makes (tests/integration/template.ts), so each test app starts from a copy of a
 * migrated and seeded database instead of migrating and seeding anew.
 */
export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-templates-'))
  project.provide('templateDir', dir)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
