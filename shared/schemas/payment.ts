import { z } from 'zod'
import { Text } from './common.ts'

/**
 * A stored payment method as GET /api/users/{id}/payment-info/ answers it (SPEC §3 payment info: id, alias,
 * favourite = primary). Only the masked number, brand, kind and expiry travel; never the number or the
 * provider token. `about_to_expire`: SPEC §5 (shared/rules/card-expiry.ts); `charge_failed`: the method's
 * latest charge was declined (SPEC §8 "Charging this payment method failed, please revise").
 */
export const PaymentInfo = z.object({
  id: z.number().int(),
  alias: z.string(),
  favourite: z.boolean(),
  kind: z.enum(['credit_card', 'twint']),
  brand: z.string(),
  masked: z.string(),
  exp_month: z.number().int().min(1).max(12).nullable(),
  exp_year: z.number().int().nullable(),
  about_to_expire: z.boolean(),
  charge_failed: z.boolean(),
})
export type PaymentInfo = z.infer<typeof PaymentInfo>

/** `favourite` as SPEC §7 sends it (PATCH favourite 1): 1/0 or true/false → boolean. */
export const Favourite = z.union([z.literal(1), z.literal(0), z.boolean()]).transform((v) => v === 1 || v === true)

/** PATCH …/payment-info/{id}/: alias and/or favourite. Only favourite 1 is meaningful (one primary). */
export const PaymentInfoPatch = z.object({ alias: Text(100).optional(), favourite: Favourite.optional() })

/** PUT …/payment-info/{id}/: alias and favourite. */
export const PaymentInfoPut = z.object({ alias: Text(100), favourite: Favourite })

/** POST /api/payments/process/ (SPEC §7): where the provider sends the user back; paths of this app. */
export const PaymentProcess = z.object({
  success_url: z.string().min(1).max(2000),
  error_url: z.string().min(1).max(2000),
  cancel_url: z.string().min(1).max(2000),
})
export type PaymentProcess = z.infer<typeof PaymentProcess>

/**
 * A monthly app fee as GET /api/users/{id}/app-fees/ answers it (SPEC §1, §9: the card payment add-on costs
 * the installation's basic_tariff a month, charged to the payment method). CHF; `month` is
 * "YYYY-MM" in the installation's time zone; `total` = amount + transaction fee (SPEC §9 card fee).
 */
export const AppFee = z.object({
  id: z.number().int(),
  installation_id: z.number().int(),
  installation_name: z.string(),
  month: z.string(),
  amount: z.number(),
  transaction_fee: z.number(),
  total: z.number(),
  status: z.enum(['paid', 'unpaid']),
  paid_on: z.string().nullable(),
  invoice_url: z.string(),
})
export type AppFee = z.infer<typeof AppFee>
