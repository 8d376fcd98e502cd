import { sql, type Kysely } from 'kysely'

/**
 * A charge point's status as its connectors report it (OCPP 1.6 §4.9 "Status Notification"): the bound
 * connector's error code beside its status (`last_error`), and connector 0 — the charge point itself — with
 * its own status and error code, so a fault of connector 0 shows while it lasts and clears when connector 0
 * reports Available again, with the bound connector's own status shown then.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE ocpp_charge_points ADD COLUMN last_error text`.execute(db)
  await sql`ALTER TABLE ocpp_charge_points ADD COLUMN connector0_status text`.execute(db)
  await sql`ALTER TABLE ocpp_charge_points ADD COLUMN connector0_error text`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE ocpp_charge_points DROP COLUMN connector0_error`.execute(db)
  await sql`ALTER TABLE ocpp_charge_points DROP COLUMN connector0_status`.execute(db)
  await sql`ALTER TABLE ocpp_charge_points DROP COLUMN last_error`.execute(db)
}
