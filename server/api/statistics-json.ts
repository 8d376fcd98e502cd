import type { FastifySerializerCompiler } from 'fastify'
import { z } from 'zod'
import { serializerCompiler } from './openapi.ts'

type Row = { start?: unknown; value?: unknown }

/**
 * The `series` member as JSON: `{"name":[{"start":"…","value":1.5},…],…}`, the text
 * `JSON.stringify(z.encode(...))` gives for `z.record(z.string(), z.array({start: string, value: number}))`
 * (value also null when `nullable`). Every bucket is checked in one plain loop (a string start, then a
 * finite number, no other key), then the whole record goes to the native `JSON.stringify`: zod's encode of each
 * bucket object was the cost. Returns null when a bucket is not of that shape (a non-finite number, a
 * missing start, an extra key the schema would drop…), so the caller falls back to the checked path.
 */
export function seriesJson(series: Record<string, Row[]>, nullable: boolean): string | null {
  for (const name in series) {
    // zod's record treats __proto__ its own way; series names never are, so the checked path may decide.
    if (!Object.hasOwn(series, name) || name === '__proto__') return null
    const rows = series[name]
    if (!Array.isArray(rows)) return null
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]
      if (typeof row !== 'object' || row === null || typeof row.start !== 'string') return null
      const value = row.value
      if (!(typeof value === 'number' ? Number.isFinite(value) : value === null && nullable)) return null
      // Exactly start, then value: JSON.stringify writes an object's own order, zod the schema's.
      let keys = 0
      for (const key in row) if (key !== (keys++ === 0 ? 'start' : 'value')) return null
      if (keys !== 2 || Object.getPrototypeOf(row) !== Object.prototype) return null
    }
  }
  return JSON.stringify(series)
}

/**
 * Serializer of the statistics answers (a year at 15 minutes is ~600,000 buckets, 20 MB, and
 * the zod encode of every bucket object plus `JSON.stringify` held the event loop ~1.5 s at load). The
 * route keeps its zod response schema, so the OpenAPI document is unchanged; here every member but
 * `series` still goes through that schema (zod encode, key order and unknown keys dropped as before),
 * and `series` is written by {@link seriesJson}. Anything seriesJson refuses goes the checked way
 * (openapi.ts serializerCompiler: 500 on a shape the schema does not allow).
 * Under test (VITEST) every answer is also compared with the checked path's text, so each statistics
 * integration test proves the output is the same.
 */
export const statisticsSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  const checked = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]) as (data: unknown) => string
  const schema = route.schema as z.ZodType
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : null
  const seriesSchema = shape?.series
  if (!shape || !seriesSchema) return checked
  const nullable = seriesSchema.safeParse({ s: [{ start: '', value: null }] }).success
  const rest = z.object(Object.fromEntries(Object.entries(shape).filter(([k]) => k !== 'series')))
  // A kept answer (server/domain/statistics/answer-cache.ts) shares its series object between requests,
  // which never change it: its text is written once (a year at 15 minutes: 20 MB, ~0.2 s).
  const texts = new WeakMap<object, string | null>()
  const fast = (data: unknown): string => {
    const answer = data as Record<string, unknown>
    if (typeof answer !== 'object' || answer === null || typeof answer.series !== 'object' || answer.series === null) return checked(data)
    let series = texts.get(answer.series)
    if (series === undefined) {
      series = seriesJson(answer.series as Record<string, Row[]>, nullable)
      texts.set(answer.series, series)
    }
    const others = rest.safeEncode(answer)
    if (series === null || others.error) return checked(data)
    const fields: string[] = []
    for (const key of Object.keys(shape)) {
      if (key === 'series') fields.push(`"series":${series}`)
      else if ((others.data as Record<string, unknown>)[key] !== undefined) fields.push(`${JSON.stringify(key)}:${JSON.stringify((others.data as Record<string, unknown>)[key])}`)
    }
    return `{${fields.join(',')}}`
  }
  if (!process.env.VITEST) return fast
  return (data) => {
    const text = fast(data)
    const expected = checked(data)
    if (text !== expected) throw new Error(`statistics serializer of ${route.method} ${route.url} differs from the zod schema's JSON`)
    return text
  }
}
