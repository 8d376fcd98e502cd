import type { TestProject } from 'vitest/node'
import { startCluster } from './cluster.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's throwaway Postgres cluster (TEST_DB=postgres), or '' on PGlite. */
    pgUrl: string
  }
}

/**
 * Vitest global set-up for TEST_DB=postgres: one throwaway cluster for the whole run;
 * every app a test starts gets a database of its own on it (tests/integration/helpers.ts startApp).
 */
export default async function setup(project: TestProject) {
  const cluster = await startCluster()
  project.provide('pgUrl', cluster.url)
  return () => cluster.stop()
}
