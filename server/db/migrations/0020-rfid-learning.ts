import { sql, type Kysely } from 'kysely'

/**
 * RFID learning mode (SPEC §4): the unknown tag a station detected while learning waits on the
 * station until an admin registers or ignores it; a registered card becomes usable at `ready_at`
 * (about 3 minutes later, SPEC §9).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE charging_stations ADD COLUMN pending_rfid_tag text, ADD COLUMN pending_rfid_at timestamptz`.execute(db)
  await sql`ALTER TABLE rfids ADD COLUMN ready_at timestamptz`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE charging_stations DROP COLUMN pending_rfid_tag, DROP COLUMN pending_rfid_at`.execute(db)
  await sql`ALTER TABLE rfids DROP COLUMN ready_at`.execute(db)
}
