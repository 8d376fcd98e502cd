import crypto from 'node:crypto'
import { fullYear, isExpired } from '../../../shared/rules/card-expiry.ts'
import type { PaymentMethodKind } from '../../../shared/rules/card-fees.ts'

/** What the user entered on the provider's checkout page (never stored as such). */
export interface CheckoutInput {
  kind: PaymentMethodKind
  number?: string
  exp_month?: number
  exp_year?: number
}

/** A method the provider authorised (SPEC §9: authorising does not debit): only what may be stored. */
export interface AuthorisedMethod {
  kind: PaymentMethodKind
  brand: string
  masked: string
  exp_month: number | null
  exp_year: number | null
  token: string
}

export type AuthoriseResult = { ok: true; method: AuthorisedMethod } | { ok: false; reason: 'declined' | 'invalid' | 'expired' }
export type ChargeResult = { ok: true; reference: string } | { ok: false; reason: string }

/**
 * A payment provider behind a hosted checkout (ARCHITECTURE §2 domain/payments). The app sends the user
 * to `checkoutUrl`, the provider authorises a method there and reports it to POST /api/payments/webhook/;
 * the app then charges the stored token. Amounts in integer Rappen (CHF).
 */
export interface PaymentProvider {
  readonly name: string
  /** The page (path on this app, or a provider URL) where checkout `sessionId` is completed. */
  checkoutUrl(sessionId: string): string
  /** Authorise a method entered on the checkout page (no debit). */
  authorise(input: CheckoutInput, now: { year: number; month: number }): AuthoriseResult
  /**
   * Debit `amountRappen` from a stored method. `idempotencyKey` names the charge: the
   * provider answers a repeated key with the first answer and does not debit again (like Stripe's or
   * Datatrans' idempotency keys), so a retry after a crash between debit and bookkeeping is safe.
   */
  charge(token: string, amountRappen: number, description: string, idempotencyKey: string): Promise<ChargeResult>
}

/** A debit the demo provider made (for tests and the scale bench: how often a card was really debited). */
export interface DemoDebit {
  key: string
  token: string
  amountRappen: number
  description: string
  reference: string
}

/**
 * Test cards of the demo provider (docs/decisions.md "Payments: the provider and the demo provider"):
 * numbers with spaces are accepted.
 * `expiresThisMonth` overrides the entered expiry with the current month (SPEC §5 notice);
 * `chargeDeclined` authorises but every charge is declined (retries, SPEC §4).
 */
export const DEMO_CARDS: Record<string, { outcome: 'ok' | 'declined' | 'expiresThisMonth' | 'chargeDeclined'; brand: string }> = {
  '4242424242424242': { outcome: 'ok', brand: 'Visa' },
  '5555555555554444': { outcome: 'ok', brand: 'Mastercard' },
  '4000000000000002': { outcome: 'declined', brand: 'Visa' },
  '4000000000000069': { outcome: 'expiresThisMonth', brand: 'Visa' },
  '4000000000000341': { outcome: 'chargeDeclined', brand: 'Visa' },
}

/**
 * The built-in DEMO provider: no outside service. Its checkout is a page of this app
 * (GET /api/payments/demo-checkout?session=…); tokens carry whether charges succeed. It honours
 * idempotency keys like a real provider, but remembers them in this process only (a real provider keeps
 * them on its side for every process; docs/decisions.md "Payments: idempotency keys"). `debits()` lists
 * what it debited.
 */
export function createDemoProvider(): PaymentProvider & { debits(): readonly DemoDebit[] } {
  const answers = new Map<string, Promise<ChargeResult>>()
  const debits: DemoDebit[] = []
  return {
    debits: () => debits,
    name: 'demo',
    checkoutUrl: (sessionId) => `/api/payments/demo-checkout?session=${encodeURIComponent(sessionId)}`,
    authorise(input, now) {
      const rand = crypto.randomBytes(12).toString('hex')
      if (input.kind === 'twint') {
        return { ok: true, method: { kind: 'twint', brand: 'TWINT', masked: 'TWINT', exp_month: null, exp_year: null, token: `demo_ok_${rand}` } }
      }
      const number = (input.number ?? '').replace(/[\s-]/g, '')
      if (!/^\d{12,19}$/.test(number) || !input.exp_month || !input.exp_year || input.exp_month < 1 || input.exp_month > 12) return { ok: false, reason: 'invalid' }
      const card = DEMO_CARDS[number]
      if (!card || card.outcome === 'declined') return { ok: false, reason: 'declined' }
      let expMonth = input.exp_month
      let expYear = fullYear(input.exp_year)
      if (card.outcome === 'expiresThisMonth') {
        expMonth = now.month
        expYear = now.year
      } else if (isExpired(expMonth, expYear, now)) {
        return { ok: false, reason: 'expired' }
      }
      const behaviour = card.outcome === 'chargeDeclined' ? 'decline' : 'ok'
      return { ok: true, method: { kind: 'credit_card', brand: card.brand, masked: `•••• •••• •••• ${number.slice(-4)}`, exp_month: expMonth, exp_year: expYear, token: `demo_${behaviour}_${rand}` } }
    },
    charge(token, amountRappen, description, idempotencyKey) {
      const known = answers.get(idempotencyKey)
      if (known) return known
      const answer = ((): ChargeResult => {
        if (token.startsWith('demo_decline_')) return { ok: false, reason: 'declined' }
        if (!token.startsWith('demo_ok_') || amountRappen < 0) return { ok: false, reason: 'unknown token' }
        const reference = `demo_ch_${crypto.randomBytes(8).toString('hex')}`
        debits.push({ key: idempotencyKey, token, amountRappen, description, reference })
        return { ok: true, reference }
      })()
      const settled = Promise.resolve(answer)
      answers.set(idempotencyKey, settled)
      return settled
    },
  }
}
