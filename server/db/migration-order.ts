/**
 * The rule for migration names across releases (docs/decisions.md "Migrations run out of order"): a
 * migration released once keeps its name, and every migration added since sorts after the last
 * released one, so a database made by a release meets its missing migrations in the order they were
 * written. server/db/migrations/released.json holds the last release's list (written by
 * scripts/make-upgrade-fixture.ts).
 */
export interface ReleasedMigrations {
  /** The release (package.json version) whose migrations these are. */
  release: string
  /** The commit the list was taken from (short hash). */
  commit: string
  /** Migration names (file names without `.ts`) in name order. */
  migrations: string[]
}

/**
 * What breaks the rule, one sentence each (empty when nothing does): a released migration that no
 * longer exists (renamed or deleted: databases of that release list it as run, and Kysely refuses a
 * database naming a migration it does not know), and a new one that sorts before the last released one.
 * `current` is today's list (any order).
 */
export function migrationOrderProblems(released: readonly string[], current: readonly string[]): string[] {
  const problems: string[] = []
  const now = new Set(current)
  for (const name of released) if (!now.has(name)) problems.push(`released migration ${name} is missing (renamed or deleted)`)
  const last = [...released].sort().at(-1)
  const old = new Set(released)
  for (const name of [...current].sort()) {
    if (!old.has(name) && last !== undefined && name <= last) problems.push(`new migration ${name} sorts before the last released one, ${last}: give it a number above`)
  }
  return problems
}
