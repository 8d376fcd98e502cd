import { describe, expect, it } from 'vitest'
import { transactionFeeRappen } from './card-fees.ts'

describe('transactionFeeRappen (SPEC §9 card fees)', () => {
  it('charges Twint 1.3 % and credit cards 2.5 % + CHF 0.10, rounded to the Rappen', () => {
    expect(transactionFeeRappen('twint', 1000)).toBe(13)
    expect(transactionFeeRappen('credit_card', 1000)).toBe(35)
    expect(transactionFeeRappen('twint', 72)).toBe(1)
    expect(transactionFeeRappen('credit_card', 72)).toBe(12)
  })
  it('charges nothing on a free session', () => {
    expect(transactionFeeRappen('credit_card', 0)).toBe(0)
  })
})
