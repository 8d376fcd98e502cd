import { sql, type Kysely } from 'kysely'

/**
 * How a ZEV bills its internal energy (EnV SR 730.01 Art. 16, docs/zev-method.md): the model
 * the admin picked, `flat_rate` (a flat price of at most 80 % of the external standard electricity
 * product, Art. 16 para. 1 let. b) or `actual_costs` (the costs actually incurred less feed-in revenue,
 * para. 2, never above the standard product, para. 3), and the flat rate's percentage (0–80). New and
 * existing installations start on the flat rate at 80 %, the model that can never exceed the cap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE installations
      ADD COLUMN zev_model text NOT NULL DEFAULT 'flat_rate' CHECK (zev_model IN ('flat_rate', 'actual_costs')),
      ADD COLUMN zev_flat_percent numeric(5, 2) NOT NULL DEFAULT 80 CHECK (zev_flat_percent >= 0 AND zev_flat_percent <= 80)
  `.execute(db)
}
