import { describe, expect, it } from 'vitest'
import { axisTicks, labelStride } from './axis-ticks.ts'

describe('axisTicks', () => {
  it('gives round steps from 0 to the first tick at or above the maximum', () => {
    expect(axisTicks(14.2)).toEqual([0, 5, 10, 15])
    expect(axisTicks(100)).toEqual([0, 25, 50, 75, 100])
    expect(axisTicks(0.37)).toEqual([0, 0.1, 0.2, 0.3, 0.4])
    expect(axisTicks(7)).toEqual([0, 2, 4, 6, 8])
  })

  it('gives a plain 0–1 axis without data', () => {
    expect(axisTicks(0)).toEqual([0, 1])
    expect(axisTicks(Number.NaN)).toEqual([0, 1])
  })
})

describe('labelStride', () => {
  it('prints at most room labels', () => {
    expect(labelStride(24, 8)).toBe(3)
    expect(labelStride(31, 8)).toBe(4)
    expect(labelStride(7, 8)).toBe(1)
    expect(labelStride(0, 8)).toBe(1)
  })
})
