import { z } from 'zod'
import { DayOrDateTime, ListQuery } from './common.ts'

/** Journal entry kinds (SPEC §3). */
export const JOURNAL_KINDS = ['journal_entry', 'rfid_session_journal_entry', 'charging_session', 'rfid_charging_session'] as const

/**
 * Query of the journals (SPEC §7 …/charging_stations/{id}/journal and …/rfids/{id}/journal): ISO start
 * and end (sessions that started in [start, end)), entry_type and payment_status where "all" (or
 * nothing) omits the filter, limit and offset.
 */
export const JournalQuery = z.object({
  start: DayOrDateTime.optional(),
  end: DayOrDateTime.optional(),
  entry_type: z.enum([...JOURNAL_KINDS, 'all']).optional(),
  payment_status: z.enum(['paid', 'unpaid', 'all']).optional(),
  ...ListQuery.shape,
})
export type JournalQuery = z.infer<typeof JournalQuery>

/**
 * One journal entry (SPEC §3). Energy in kWh (`charge`, split into `peak` high tariff and `off_peak` low
 * tariff), `duration_minutes`, `cost` in CHF (null when the caller may not see costs), `badged_in` and
 * `badged_out` ISO times for RFID sessions (null otherwise), `payment_status` null while charging.
 */
export const JournalEntry = z.object({
  id: z.number().int(),
  type: z.enum(JOURNAL_KINDS),
  station_id: z.number().int(),
  station_name: z.string(),
  charging_mode: z.string(),
  start: z.string(),
  end: z.string().nullable(),
  duration_minutes: z.number().int().nullable(),
  charge: z.number(),
  peak: z.number(),
  off_peak: z.number(),
  cost: z.number().nullable(),
  rfid: z.string().nullable(),
  rfid_user: z.string().nullable(),
  badged_in: z.string().nullable(),
  badged_out: z.string().nullable(),
  /** held, void and empty: see ChargingSession.status (shared/schemas/session.ts). */
  payment_status: z.enum(['paid', 'unpaid', 'held', 'void', 'empty']).nullable(),
  set_by_timer: z.boolean(),
  /** Events only: 'mode_changed', or 'rfid_learned' / 'rfid_ignored' for a tag an admin registered / ignored in learning mode. */
  detail: z.string().optional(),
})
export type JournalEntry = z.infer<typeof JournalEntry>
