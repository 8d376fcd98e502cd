import { describe, expect, it } from 'vitest'
import { chargerTime, judgeRegister, maxEnergyKwh, powerPlausible } from './plausibility.ts'
import { sessionHeldMail } from '../mail/templates/session-held.ts'
import { LANGS } from '../../lib/messages.ts'

const T = Date.parse('2026-03-04T09:00:00Z')
const at = (minutes: number) => new Date(T + minutes * 60_000)

describe('charger figures (docs/decisions.md "Charging: plausible charger figures and debit ceilings")', () => {
  it('allows capacity × duration × 1.1 + 0.1 kWh and no more', () => {
    expect(maxEnergyKwh(11, 3600_000)).toBeCloseTo(12.2, 9)
    expect(maxEnergyKwh(11, 60_000)).toBeCloseTo(11 / 60 * 1.1 + 0.1, 9)
    expect(maxEnergyKwh(11, -5000)).toBeCloseTo(0.1, 9)
    const tx = { startedAt: at(0), meterStartWh: 1000, lastWh: 1000, lastAt: at(0) }
    // 2,000,000 kWh in one minute on 11 kW: held.
    expect(judgeRegister(tx, 11, 1000 + 2e9, at(1))).toEqual({ kind: 'hold', reason: 'energyImplausible' })
    expect(judgeRegister(tx, 11, 1000 + 300, at(1))).toEqual({ kind: 'add', kwh: 0.3 })
    expect(judgeRegister(tx, 11, Infinity, at(1))).toEqual({ kind: 'hold', reason: 'energyImplausible' })
  })

  it('never lets a register go down, but leaves a late older sample alone', () => {
    const tx = { startedAt: at(0), meterStartWh: 0, lastWh: 2000, lastAt: at(20) }
    expect(judgeRegister(tx, 11, 1500, at(25))).toEqual({ kind: 'hold', reason: 'registerBackwards' })
    expect(judgeRegister(tx, 11, 1500, at(10))).toEqual({ kind: 'stale' })
    expect(judgeRegister(tx, 11, 2000, at(25))).toEqual({ kind: 'stale' })
  })

  it('allows power up to capacity × 1.2, never 1e308 W', () => {
    expect(powerPlausible(11, 13.2)).toBe(true)
    expect(powerPlausible(11, 13.3)).toBe(false)
    expect(powerPlausible(11, 1e308 / 1000)).toBe(false)
    expect(powerPlausible(11, Number.NaN)).toBe(false)
  })
})

describe('charger clocks', () => {
  const now = at(0)
  it('keeps a timestamp within 15 minutes of the server', () => {
    expect(chargerTime(at(-15).toISOString(), now, null)).toEqual({ at: at(-15), corrected: false })
    expect(chargerTime(at(14).toISOString(), now, null)).toEqual({ at: at(14), corrected: false })
  })
  it('replaces a clock in 1970, a day ahead or unreadable by the server time', () => {
    expect(chargerTime('1970-01-01T00:00:00Z', now, null)).toEqual({ at: now, corrected: true })
    expect(chargerTime(at(24 * 60).toISOString(), now, { from: at(-600), to: now })).toEqual({ at: now, corrected: true })
    expect(chargerTime('not a date', now, null)).toEqual({ at: now, corrected: true })
  })
  it('keeps a queued timestamp only within the real offline gap', () => {
    const gap = { from: at(-180), to: now }
    expect(chargerTime(at(-120).toISOString(), now, gap)).toEqual({ at: at(-120), corrected: false })
    expect(chargerTime(at(-240).toISOString(), now, gap)).toEqual({ at: now, corrected: true })
    expect(chargerTime(at(-120).toISOString(), now, null)).toEqual({ at: now, corrected: true })
  })
})

describe('the held-session mail', () => {
  it('exists in the four languages with every reason', () => {
    const subjects = new Set<string>()
    for (const lang of LANGS) {
      for (const reason of ['energyImplausible', 'powerImplausible', 'registerBackwards', 'sessionCeiling', 'monthCeiling'] as const) {
        const m = sessionHeldMail(lang, { id: 42, site: 'Demo', station: 'Station 7', start: '04.03.26, 09:00', reason, url: 'https://x/facility/1/sessions/42' })
        expect(m.text).toContain('CS-42')
        expect(m.text).toContain('https://x/facility/1/sessions/42')
        expect(m.html).toContain('Station 7')
        subjects.add(m.subject)
      }
    }
    expect(subjects.size).toBe(4)
  })
})
