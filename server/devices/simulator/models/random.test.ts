import { describe, expect, it } from 'vitest'
import { hash01, noise1d } from './random.ts'

describe('hash01', () => {
  it('is deterministic and stays in [0, 1)', () => {
    for (let i = 0; i < 1000; i++) {
      const v = hash01(42, 'k', i)
      expect(v).toBe(hash01(42, 'k', i))
      expect(v).toBeGreaterThanOrEqual(0)
      expect(v).toBeLessThan(1)
    }
  })

  it('changes with the seed and with each key', () => {
    expect(hash01(1, 'a', 3)).not.toBe(hash01(2, 'a', 3))
    expect(hash01(1, 'a', 3)).not.toBe(hash01(1, 'b', 3))
    expect(hash01(1, 'a', 3)).not.toBe(hash01(1, 'a', 4))
    expect(hash01(1, 'ab', 3)).not.toBe(hash01(1, 'a', 'b3'))
  })

  it('is roughly uniform (mean ≈ 0.5, every decile used)', () => {
    const bins = new Array(10).fill(0)
    let sum = 0
    const n = 20000
    for (let i = 0; i < n; i++) {
      const v = hash01(7, 'uniform', i)
      sum += v
      bins[Math.floor(v * 10)]++
    }
    expect(sum / n).toBeGreaterThan(0.48)
    expect(sum / n).toBeLessThan(0.52)
    for (const count of bins) expect(count).toBeGreaterThan(n / 10 * 0.9)
  })
})

describe('noise1d', () => {
  it('matches hash01 at lattice points and stays in [0, 1)', () => {
    expect(noise1d(3, 'x', 5)).toBe(hash01(3, 'x', 5))
    for (let t = -10; t < 10; t += 0.013) {
      const v = noise1d(3, 'x', t)
      expect(v).toBeGreaterThanOrEqual(0)
      expect(v).toBeLessThan(1)
    }
  })

  it('is smooth: small steps in t give small changes', () => {
    let maxJump = 0
    for (let t = 0; t < 50; t += 0.01) maxJump = Math.max(maxJump, Math.abs(noise1d(9, 'y', t + 0.01) - noise1d(9, 'y', t)))
    expect(maxJump).toBeLessThan(0.02)
  })
})
