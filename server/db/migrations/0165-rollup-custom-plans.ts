import { sql, type Kysely } from 'kysely'

/**
 * The rollup function of migrations 0060/0061 plans its statements for the rows each call touches
 * (the 365-day backfill went from 66 s to 716 s). PL/pgSQL caches a statement's plan and, after
 * five calls, keeps a generic one when it looks no dearer; that plan cannot see how many rows the touched
 * arrays hold and, once measurements_15m has grown, joins it by scanning the whole table, so every 8000-row
 * statement of the backfill cost more than the one before (150 days: 0.4–0.6 s per call with a custom
 * plan, 4.1–4.4 s with the generic one). A custom plan per call costs a few milliseconds of planning.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER FUNCTION measurements_rollup_touch(integer[], timestamptz[]) SET plan_cache_mode = force_custom_plan`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER FUNCTION measurements_rollup_touch(integer[], timestamptz[]) RESET plan_cache_mode`.execute(db)
}
