import type { Db } from '../../db/connection.ts'
import type { Operator } from '../../../shared/schemas/installation.ts'

/**
 * Whose series an invoice is numbered in (docs/decisions.md "Invoices: numbers without gaps, per operator"):
 * an operator by the account it is paid to (its IBAN or QR-IBAN, spaces dropped, upper case), so one
 * operator billing several installations has one series; an installation without an operator its own.
 */
export function operatorKey(operator: Operator | null | undefined, installationId: number): string {
  return operator ? `iban:${operator.iban.replace(/\s+/g, '').toUpperCase()}` : `installation:${installationId}`
}

/** The printed number of a session invoice: "CS-" and the operator's running number, 6 digits at least. */
export const formatSessionInvoiceNumber = (n: number) => `CS-${String(n).padStart(6, '0')}`

/**
 * The invoice number of session `sessionId`, taken once, when its invoice is first issued: the next number
 * of `key`'s series, in one transaction that locks the series' counter row, so numbers follow each other
 * without gaps (no sequence, which skips values after a crash or a rolled-back transaction) and two
 * processes never take the same one. A session keeps its number for good (a later change of operator
 * does not renumber it). → the number (1, 2, …).
 */
export async function sessionInvoiceNumber(db: Db, sessionId: number, key: string): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const s = await tx.selectFrom('charging_sessions').select('invoice_number').where('id', '=', sessionId).forUpdate().executeTakeFirstOrThrow()
    if (s.invoice_number != null) return s.invoice_number
    await tx.insertInto('invoice_counters').values({ operator_key: key, last_number: 0 }).onConflict((oc) => oc.column('operator_key').doNothing()).execute()
    const { last_number } = await tx.updateTable('invoice_counters').set((eb) => ({ last_number: eb('last_number', '+', 1) })).where('operator_key', '=', key)
      .returning('last_number').executeTakeFirstOrThrow()
    await tx.updateTable('charging_sessions').set({ invoice_operator: key, invoice_number: last_number }).where('id', '=', sessionId).execute()
    return last_number
  })
}
