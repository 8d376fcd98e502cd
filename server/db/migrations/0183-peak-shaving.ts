import { sql, type Kysely } from 'kysely'

/**
 * Peak shaving with the battery (docs/load-management.md "Peak shaving", docs/decisions.md "Load
 * management: peak shaving"): per installation, in its load-management settings,
 * - `peak_shaving`: the option is on;
 * - `peak_kw`: the grid import (kW) to stay under;
 * - `battery_command`: the controller's last command to the battery ({peak_kw, discharge_kw, at}: hold
 *   grid import at `peak_kw`, `discharge_kw` needed at the last round, ISO instant), null when it gives
 *   none. The simulator's battery obeys it while it is at most a minute old.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE load_management
      ADD COLUMN peak_shaving boolean NOT NULL DEFAULT false,
      ADD COLUMN peak_kw double precision CHECK (peak_kw > 0),
      ADD COLUMN battery_command jsonb
  `.execute(db)
}
