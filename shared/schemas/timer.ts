import { z } from 'zod'
import { Id, IdNumber, Text } from './common.ts'
import { CHARGING_MODES } from '../rules/status.ts'

/** "HH:mm" from 00:00 to 23:59, installation-local (SPEC §3 timer start time). */
export const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/

/** The modes a timer may switch to: every charging mode but `timer` itself (SPEC §4). */
export const TIMER_MODES = CHARGING_MODES.filter((m) => m !== 'timer') as Exclude<(typeof CHARGING_MODES)[number], 'timer'>[]

export const WEEKDAY_FIELDS = ['repeat_monday', 'repeat_tuesday', 'repeat_wednesday', 'repeat_thursday', 'repeat_friday', 'repeat_saturday', 'repeat_sunday'] as const

type Days = Partial<Record<(typeof WEEKDAY_FIELDS)[number], boolean>>

/** Whether a timer repeats on at least one weekday (a timer without a day is refused, `repeat_days`). */
export const hasRepeatDay = (t: Days) => WEEKDAY_FIELDS.some((d) => t[d])

/**
 * Whether two timers of the same object contradict each other: the same start minute on a shared
 * weekday with different charging modes, so which one the station follows would be undefined.
 */
export function timersClash(a: Days & { start_time: string; charging_mode: string }, b: Days & { start_time: string; charging_mode: string }): boolean {
  return a.start_time === b.start_time && a.charging_mode !== b.charging_mode && WEEKDAY_FIELDS.some((d) => a[d] && b[d])
}

const fields = {
  object_type: z.enum(['charging_station', 'rfid']),
  object_id: IdNumber,
  repeat_monday: z.boolean(),
  repeat_tuesday: z.boolean(),
  repeat_wednesday: z.boolean(),
  repeat_thursday: z.boolean(),
  repeat_friday: z.boolean(),
  repeat_saturday: z.boolean(),
  repeat_sunday: z.boolean(),
  /** "HH:mm"; a bad value answers 400 with the `invalidTime` message. */
  start_time: z.string().trim().min(1).max(20),
  description: Text(200),
  charging_mode: z.enum(TIMER_MODES as [string, ...string[]]),
}

/**
 * POST …/installations/{id}/timers (SPEC §3, §7): object (a station or an RFID of the installation),
 * repeat days (default off), start_time "HH:mm" installation-local, description (optional), charging_mode.
 */
export const TimerCreate = z.object({
  ...fields,
  repeat_monday: fields.repeat_monday.default(false),
  repeat_tuesday: fields.repeat_tuesday.default(false),
  repeat_wednesday: fields.repeat_wednesday.default(false),
  repeat_thursday: fields.repeat_thursday.default(false),
  repeat_friday: fields.repeat_friday.default(false),
  repeat_saturday: fields.repeat_saturday.default(false),
  repeat_sunday: fields.repeat_sunday.default(false),
  description: fields.description.default(''),
})
export type TimerCreate = z.infer<typeof TimerCreate>

/** PUT/PATCH a timer: any of the create fields. */
export const TimerPatch = z.object(fields).partial()
export type TimerPatch = z.infer<typeof TimerPatch>

/** GET …/timers query (SPEC §7): optional object_id and object_type filters. */
export const TimerQuery = z.object({
  object_id: Id.optional(),
  object_type: z.enum(['charging_station', 'rfid']).optional(),
})

/** A timer as the API answers it (SPEC §3). */
export const Timer = z.object({
  id: z.number().int(),
  installation_id: z.number().int(),
  ...fields,
  /** Changed while the facility was offline and not yet sent to it. */
  pending: z.boolean().optional(),
})
export type Timer = z.infer<typeof Timer>
