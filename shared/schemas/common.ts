import { z } from 'zod'

/** `{count, next, previous, results}` list envelope (ARCHITECTURE §3). */
export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number().int(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(item) })
export type PageOf<T> = { count: number; next: string | null; previous: string | null; results: T[] }

/** `limit` (1..1000, default 100) and `offset` (≥ 0) query parameters. */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
})

/** A positive integer id in a path. */
export const Id = z.coerce.number().int().positive()
