import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { z } from 'zod'
import { BatteryStatesAnswer, StationStatisticsAnswer, StatisticsAnswer, ZevAnswer } from '../../shared/schemas/statistics.ts'
import { statisticsSerializerCompiler } from './statistics-json.ts'
import { GRANULARITIES } from '../../shared/rules/granularity.ts'

// The fast serializer must write exactly what the zod schema's checked path writes (the OpenAPI document
// describes that path), and refuse what the schema refuses. VITEST makes the compiled serializer compare
// itself with the checked path; the test reads the fast text without that comparison to judge it alone.
const compile = (schema: z.ZodType) => {
  const vitest = process.env.VITEST
  delete process.env.VITEST
  try {
    return statisticsSerializerCompiler({ schema, method: 'GET', url: '/api/statistics/:installationId', httpStatus: '200' } as never) as (data: unknown) => string
  } finally {
    process.env.VITEST = vitest
  }
}
const zodJson = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data as never))

const label = fc.oneof(fc.constantFrom('2026-03-29T03:00:00+02:00', '2026-10-25T02:00:00+01:00'), fc.string(), fc.string({ unit: 'grapheme' }))
const value = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constant(-0), fc.constantFrom(1e21, 5e-324, 0.1 + 0.2))
const series = (v: fc.Arbitrary<number | null>) =>
  fc.array(label, { minLength: 0, maxLength: 6 }).chain((labels) =>
    fc.dictionary(fc.string(), fc.tuple(...labels.map(() => v)).map((vs) => vs.map((x, i) => ({ start: labels[i], value: x })))),
  )
const answer = (v: fc.Arbitrary<number | null>) =>
  fc.record({
    installation_id: fc.integer(),
    timezone: fc.constantFrom('Europe/Zurich', 'America/New_York'),
    start: label,
    end: label,
    granularity: fc.constantFrom(...GRANULARITIES),
    units: fc.dictionary(fc.string(), fc.string()),
    series: series(v),
  })

describe('statistics answers written without the zod encode of every bucket', () => {
  it('writes the same JSON as the zod schema for any answer', () => {
    const fast = compile(StatisticsAnswer)
    fc.assert(fc.property(answer(value), (a) => {
      expect(fast(a)).toBe(zodJson(StatisticsAnswer, a))
    }), { numRuns: 300 })
  })

  it('keeps the key order of the schema (names after series) and sends a bucket the schema would trim the checked way', () => {
    const a = { series: { x: [{ start: 's', value: 2 }] }, units: { x: 'kWh' }, granularity: 'hour', end: 'e', start: 's', timezone: 'Europe/Zurich', installation_id: 1, names: { station_1: 'A "quoted" \u2028 name' } }
    const { names: _, ...plain } = a
    expect(compile(StatisticsAnswer)(plain)).toBe(zodJson(StatisticsAnswer, plain))
    // A bucket written value first: JSON.stringify would keep that order, the schema writes start first.
    const swapped = { ...plain, series: { x: [{ value: 2, start: 's' }] } }
    expect(compile(StatisticsAnswer)(swapped)).toBe(zodJson(StatisticsAnswer, swapped))
    expect(compile(StationStatisticsAnswer)(a)).toBe(zodJson(StationStatisticsAnswer, a))
    expect(compile(StationStatisticsAnswer)(a)).toMatch(/^\{"installation_id":1,.*"series":.*"names":/)
    // Under test the checked path refuses a member its schema would drop (openapi.ts CHECK_DROPPED).
    expect(() => compile(StatisticsAnswer)({ ...plain, series: { x: [{ start: 's', value: 2, more: true }] } })).toThrow(/drops \.series\.x\[0\]\.more/)
  })

  it('writes null states only where the schema allows them (battery states)', () => {
    const states = compile(BatteryStatesAnswer)
    fc.assert(
      fc.property(answer(fc.oneof(value, fc.constant(null))), fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })), (a, avg) => {
        const b = { ...a, average_soc: avg }
        expect(states(b)).toBe(zodJson(BatteryStatesAnswer, b))
      }),
      { numRuns: 200 },
    )
  })

  it('refuses, like the schema, a bucket the schema refuses (NaN, Infinity, null energy, a missing start)', () => {
    const fast = compile(StatisticsAnswer)
    const base = { installation_id: 1, timezone: 'Europe/Zurich', start: 's', end: 'e', granularity: 'hour', units: {} }
    for (const bad of [{ start: 's', value: NaN }, { start: 's', value: Infinity }, { start: 's', value: null }, { value: 1 }, { start: 1, value: 1 }]) {
      expect(() => fast({ ...base, series: { x: [bad] } })).toThrow(/does not match|Response/i)
    }
    expect(() => fast({ ...base, granularity: 'week', series: {} })).toThrow()
  })

  it('handles the ZEV answer (series plus allocation) through the same path', () => {
    const fast = compile(ZevAnswer)
    const bad = { installation_id: 1, timezone: 'Europe/Zurich', start: 's', end: 'e', granularity: 'hour', units: {}, series: { x: [{ start: 's', value: 1 }] } }
    expect(() => fast(bad)).toThrow() // allocation and zev missing: the checked path's 500
  })
})
