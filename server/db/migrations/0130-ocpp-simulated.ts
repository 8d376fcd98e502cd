import { sql, type Kysely } from 'kysely'

/**
 * SIM_OCPP: a charge point the simulator itself runs over OCPP is marked, so the simulator
 * still steps its station (and stations bound to real charge points stay left out), and its bindings are
 * dropped when the simulator runs without SIM_OCPP.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE ocpp_charge_points ADD COLUMN simulated boolean NOT NULL DEFAULT false`.execute(db)
}
