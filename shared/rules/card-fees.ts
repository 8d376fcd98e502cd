/**
 * Card fees on top of a session price (SPEC §9, from 1 April 2025): Twint 1.3 % + CHF 0.00; credit card
 * 2.5 % + CHF 0.10. Prices include VAT; card fees are extra. Amounts in integer Rappen, rounded to the
 * Rappen. Nothing is charged on a zero amount.
 */
export const CARD_FEES = {
  twint: { percent: 1.3, fixedRappen: 0 },
  credit_card: { percent: 2.5, fixedRappen: 10 },
} as const

export type PaymentMethodKind = keyof typeof CARD_FEES

/** The transaction fee in Rappen for paying `amountRappen` with `method` (SPEC §9). */
export function transactionFeeRappen(method: PaymentMethodKind, amountRappen: number): number {
  if (amountRappen <= 0) return 0
  const fee = CARD_FEES[method]
  return Math.round((amountRappen * fee.percent) / 100) + fee.fixedRappen
}
