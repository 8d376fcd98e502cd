import { sql, type Kysely } from 'kysely'

/**
 * The operator who bills charging at an installation: legal name, address, IBAN or QR-IBAN,
 * VAT number and rate, as one jsonb object (shared/schemas/installation.ts `Operator`); null until an
 * admin sets it. Invoices and QR-bills print it instead of a placeholder payee.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE installations ADD COLUMN operator jsonb`.execute(db)
}
