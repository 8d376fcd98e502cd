import { z } from 'zod'

/** `{count, next, previous, results}` list envelope (ARCHITECTURE §3). */
export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number().int(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(item) })
export type PageOf<T> = { count: number; next: string | null; previous: string | null; results: T[] }

/**
 * The largest id: ids are PostgreSQL `integer` columns (2^31 − 1). A larger number can name nothing,
 * and sent to the database it fails with "out of range", so every id schema stops here.
 */
export const MAX_ID = 2147483647

/** A positive integer id in a path or query (strings coerced), 1..{@link MAX_ID}; else 400 "The value is not valid.". */
export const Id = z.coerce.number().int().min(1).max(MAX_ID)
/** An id in a JSON body: a number (no coercion), 1..{@link MAX_ID}. */
export const IdNumber = z.number().int().min(1).max(MAX_ID)
/** An object id where 0 means "all" (SPEC §3 permissions: object_id 0 with charging_station or rfid), in a query or body. */
export const IdOrZero = z.coerce.number().int().min(0).max(MAX_ID)

/** `limit` (1..1000, default 100) and `offset` (0..{@link MAX_ID}, default 0) query parameters (ARCHITECTURE §3). */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(MAX_ID).default(0),
})

/**
 * Text bounds (SPEC §5 "Other bounds: not shown"): names and descriptions 255
 * characters, free messages and comments 5,000. Schemas that had a smaller bound keep it.
 */
export const TEXT_MAX = { name: 255, description: 255, message: 5000 } as const

// C0 control characters (U+0000–U+001F) and DEL: never part of a typed text. NUL in particular is
// refused by PostgreSQL in text columns ("invalid byte sequence"), which was a 500.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
const CONTROL_SINGLE_LINE = /[\u0000-\u0008\u000A-\u001F\u007F]/

/**
 * A trimmed text of at most `max` characters without control characters: a single line (tab allowed)
 * unless `multiline` (then tab, LF and CR are allowed too). Too long → 400 `{field: ["Ensure <field>
 * has no more than <max> characters."]}` (server/api/http.ts `parse`); a control character → "The value
 * is not valid.". Chain `.min(1)` for a required text ("The field is required.").
 */
export const Text = (max: number, opts: { multiline?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !(opts.multiline ? CONTROL : CONTROL_SINGLE_LINE).test(s), { params: { controlCharacters: true } })

/** Years PostgreSQL and ISO 8601 without extension both accept: 0001..9999 (year 0000 was a 500). */
const yearOk = (iso: string) => {
  const year = Number(iso.slice(0, 4))
  return year >= 1 && year <= 9999
}

/**
 * A calendar date "YYYY-MM-DD" that exists (zod checks month lengths and leap years) in the years
 * 0001..9999.
 */
export const Day = z.iso.date().refine(yearOk)

/** An ISO 8601 date-time with offset ("2026-03-01T10:00:00+01:00" or …Z) of a real date in the years 0001..9999. */
export const DateTime = z.iso.datetime({ offset: true }).refine(yearOk)

/** A date-time ({@link DateTime}) or a calendar date ({@link Day}), as the journal and statistics queries take them. */
export const DayOrDateTime = z.union([DateTime, Day])
