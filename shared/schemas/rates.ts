import { z } from 'zod'
import { RATE_PRICES } from '../rules/choices.ts'

/**
 * Rates (SPEC §3, §4): the shapes the API sends and the client shows. Shared by
 * server/domain/rates and client/features/rates so the two cannot drift apart.
 */

// Rate kinds and their price fields live in a zod-free module for the browser (shared/rules/choices.ts).
export { RATE_PRICES }
export type RateKind = keyof typeof RATE_PRICES

/** A power rate's high-price time span: installation-local "HH:mm" (end "24:00" = midnight) and weekdays. */
export interface TimeSpan {
  start: string
  end: string
  repetition: string[]
}

/**
 * A rate as the API sends it (SPEC §3): prices in CHF (per kWh or m3, up to 4 decimals, e.g. 0.275),
 * dates "YYYY-MM-DD" (start_date null = not scheduled yet). `editable` says whether more than the name
 * may change (SPEC §4: while start_date is empty or in the future, installation-local).
 */
export interface Rate {
  id: number
  installation: number
  kind: RateKind
  name: string
  start_date: string | null
  end_date: string | null
  prices: Record<string, number>
  /** Power only. */
  time_spans?: TimeSpan[]
  flat_enabled?: boolean
  editable: boolean
}

/** The zod form of {@link Rate} (the API's answer; OpenAPI). Prices by field name of RATE_PRICES. */
export const RateSchema = z.object({
  id: z.number().int(),
  installation: z.number().int(),
  kind: z.enum(['power', 'water', 'heat']),
  name: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  prices: z.record(z.string(), z.number()),
  time_spans: z.array(z.object({ start: z.string(), end: z.string(), repetition: z.array(z.string()) })).optional(),
  flat_enabled: z.boolean().optional(),
  editable: z.boolean(),
})
