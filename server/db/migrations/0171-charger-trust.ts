import { sql, type Kysely } from 'kysely'

/**
 * Charger figures checked (docs/decisions.md "Charging: plausible charger figures and debit ceilings"):
 * sessions can be `held` for an admin's review (`hold_reason`), `void` (set aside by an admin) or `empty`
 * (ended with 0 kWh, never billed); `flags` lists what was corrected on the way (a charger clock replaced by
 * the server's, an implausible power figure); `end_reason` why a session ended other than by its charger;
 * `last_energy_at` when it last received energy ("plugged in, not charging"); `reviewed_at` an admin's
 * release, after which the debit ceilings no longer hold it. Every admin correction, voiding and manual end
 * is recorded with its reason in `session_reviews`. Installations get their own debit ceilings (null:
 * config/defaults.ts DEBIT_CEILING).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE charging_sessions DROP CONSTRAINT charging_sessions_status_check`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD CONSTRAINT charging_sessions_status_check CHECK (status IN ('charging', 'unpaid', 'paid', 'held', 'void', 'empty'))`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD COLUMN hold_reason text`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD COLUMN flags jsonb NOT NULL DEFAULT '[]'::jsonb`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD COLUMN end_reason text`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD COLUMN last_energy_at timestamptz`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD COLUMN reviewed_at timestamptz`.execute(db)
  await sql`ALTER TABLE ocpp_transactions ADD COLUMN end_reason text`.execute(db)
  await sql`ALTER TABLE installations ADD COLUMN session_debit_ceiling_rappen integer CHECK (session_debit_ceiling_rappen >= 0)`.execute(db)
  await sql`ALTER TABLE installations ADD COLUMN monthly_debit_ceiling_rappen integer CHECK (monthly_debit_ceiling_rappen >= 0)`.execute(db)
  await sql`
    CREATE TABLE session_reviews (
      id serial PRIMARY KEY,
      session_id integer NOT NULL REFERENCES charging_sessions(id) ON DELETE CASCADE,
      user_id integer REFERENCES users(id) ON DELETE SET NULL,
      action text NOT NULL CHECK (action IN ('correct', 'approve', 'void', 'end')),
      reason text NOT NULL,
      energy_before_kwh double precision NOT NULL,
      energy_after_kwh double precision NOT NULL,
      at timestamptz NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX session_reviews_session ON session_reviews (session_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE session_reviews`.execute(db)
  await sql`ALTER TABLE installations DROP COLUMN monthly_debit_ceiling_rappen`.execute(db)
  await sql`ALTER TABLE installations DROP COLUMN session_debit_ceiling_rappen`.execute(db)
  await sql`ALTER TABLE ocpp_transactions DROP COLUMN end_reason`.execute(db)
  await sql`UPDATE charging_sessions SET status = 'unpaid' WHERE status IN ('held', 'void', 'empty')`.execute(db)
  for (const c of ['reviewed_at', 'last_energy_at', 'end_reason', 'flags', 'hold_reason']) await sql`ALTER TABLE charging_sessions DROP COLUMN ${sql.ref(c)}`.execute(db)
  await sql`ALTER TABLE charging_sessions DROP CONSTRAINT charging_sessions_status_check`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD CONSTRAINT charging_sessions_status_check CHECK (status IN ('charging', 'unpaid', 'paid'))`.execute(db)
}
