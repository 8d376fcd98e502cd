import { describe, expect, it } from 'vitest'
import type { FastifyBaseLogger } from 'fastify'
import { inProcessRunner, nextCronRun, type Job } from './runner.ts'
import { createTestClock } from '../lib/clock.ts'

const log = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger

describe('nextCronRun', () => {
  it('names the next instant of the schedules the jobs use, in UTC, strictly after the given one', () => {
    expect(nextCronRun('*/15 * * * *', new Date('2026-03-02T17:31:10Z')).toISOString()).toBe('2026-03-02T17:45:00.000Z')
    expect(nextCronRun('*/15 * * * *', new Date('2026-03-02T17:45:00Z')).toISOString()).toBe('2026-03-02T18:00:00.000Z')
    expect(nextCronRun('7 * * * *', new Date('2026-03-02T23:59:00Z')).toISOString()).toBe('2026-03-03T00:07:00.000Z')
    // Standard cron, as pg-boss reads it on Postgres: with day of month and weekday both restricted,
    // either matches (Monday 2 March 2026 comes before Sunday 1 March's next turn).
    expect(nextCronRun('0 3 1 * 1', new Date('2026-03-02T00:00:00Z')).toISOString()).toBe('2026-03-02T03:00:00.000Z')
    expect(nextCronRun('0 3 1 * 1', new Date('2026-03-02T04:00:00Z')).toISOString()).toBe('2026-03-09T03:00:00.000Z')
    expect(nextCronRun('0 0 29 2 *', new Date('2026-03-01T00:00:00Z')).toISOString()).toBe('2028-02-29T00:00:00.000Z')
  })

  it('refuses an expression it cannot follow', () => {
    expect(() => nextCronRun('not cron', new Date())).toThrow(RangeError)
    expect(() => nextCronRun('0 0 31 2 *', new Date('2026-01-01T00:00:00Z'))).toThrow(RangeError)
  })
})

describe('inProcessRunner', () => {
  it('runs cron and interval jobs when the clock reaches them, not the wall clock', async () => {
    const clock = createTestClock('2026-03-02T17:31:00Z')
    const runs: string[] = []
    const job = (name: string, schedule: Job['schedule']): Job => ({ name, schedule, run: async () => void runs.push(`${name}@${clock.now().toISOString().slice(11, 16)}`) })
    const runner = inProcessRunner([job('quarter', { cron: '*/15 * * * *' }), job('ten', { everySeconds: 600 })], log, clock)
    await runner.start()
    await clock.advance(13 * 60_000)
    expect(runs).toEqual(['ten@17:41'])
    await clock.advance(60_000)
    expect(runs).toEqual(['ten@17:41', 'quarter@17:45'])
    await clock.advance(15 * 60_000)
    expect(runs).toEqual(['ten@17:41', 'quarter@17:45', 'ten@17:51', 'quarter@18:00'])
    await runner.stop()
    await clock.advance(3600_000)
    expect(runs).toHaveLength(4)
    expect(clock.pending()).toBe(0)
  })
})
