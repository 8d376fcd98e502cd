import { describe, expect, it } from 'vitest'
import { decodeSdm630, decodeSunSpec, discoverSunSpec, mergeSamples, toReadings } from './registers.ts'

/** A block of `n` registers, set by offset with (type, value). */
function regs(n: number, set: [number, 'u16' | 'i16' | 'u32', number][]): Buffer {
  const b = Buffer.alloc(n * 2)
  for (const [o, t, v] of set) {
    if (t === 'u16') b.writeUInt16BE(v, o * 2)
    else if (t === 'i16') b.writeInt16BE(v, o * 2)
    else b.writeUInt32BE(v, o * 2)
  }
  return b
}

/** A block of `n` registers of float32 points (NaN: not implemented), set by offset. */
function floats(n: number, set: Record<number, number>): Buffer {
  const b = Buffer.alloc(n * 2)
  for (let o = 0; o + 1 < n; o += 2) b.writeFloatBE(Number.NaN, o * 2)
  for (const [o, v] of Object.entries(set)) b.writeFloatBE(v, Number(o) * 2)
  return b
}

describe('SunSpec float models (meters 211–214, inverters 111–113)', () => {
  it('meter 213: W, TotWhImp/TotWhExp in Wh, PhV, the most loaded phase; NaN is not implemented', () => {
    expect(decodeSunSpec(213, floats(124, { 2: 12, 4: -20.5, 6: 3, 8: 230.5, 26: -1500, 58: 4200, 66: 987_654 }))).toEqual({ importKwh: 987.654, exportKwh: 4.2, powerKw: -1.5, currentA: 20.5, voltageV: 230.5 })
    expect(decodeSunSpec(211, floats(124, { 26: 800 }))).toEqual({ importKwh: undefined, exportKwh: undefined, powerKw: 0.8, currentA: undefined, voltageV: undefined })
  })
  it('inverter 111: one phase; 113: three phases, production as export', () => {
    expect(decodeSunSpec(111, floats(60, { 2: 5.2, 4: 99, 14: 229.5, 16: 400, 20: 1200, 30: 5000 }))).toEqual({ exportKwh: 5, powerKw: -1.2, currentA: expect.closeTo(5.2, 6), voltageV: 229.5 })
    expect(decodeSunSpec(113, floats(60, { 2: 5, 4: 6, 6: 7, 14: 230, 16: 232, 18: 234, 20: 4000 }))).toEqual({ exportKwh: undefined, powerKw: -4, currentA: 7, voltageV: 232 })
  })
  it('refuses a float block shorter than its model', () => {
    expect(() => decodeSunSpec(213, floats(40, {}))).toThrow(/expected 68 registers/)
    expect(() => decodeSunSpec(113, floats(20, {}))).toThrow(/expected 32 registers/)
  })
})

describe('SunSpec decoding (scale factors, not-implemented values)', () => {
  it('meter 203: W with W_SF, TotWhImp/TotWhExp with TotWh_SF, PhV with V_SF, the most loaded phase', () => {
    const s = decodeSunSpec(203, regs(105, [
      [1, 'i16', 123], [2, 'i16', -456], [3, 'i16', 78], [4, 'i16', -1],
      [5, 'i16', 2301], [13, 'i16', -1],
      [16, 'i16', -1500], [20, 'i16', 1],
      [36, 'u32', 4_200], [44, 'u32', 987_654], [52, 'i16', 0],
    ]))
    expect(s).toEqual({ importKwh: 987.654, exportKwh: 4.2, powerKw: -15, currentA: expect.closeTo(45.6, 9), voltageV: expect.closeTo(230.1, 9) })
  })

  it('inverter 101: a single phase; acc32 0 and int16 0x8000 mean "not implemented" and are left out', () => {
    const s = decodeSunSpec(101, regs(50, [[1, 'u16', 52], [4, 'i16', -1], [8, 'u16', 2295], [11, 'i16', -1], [12, 'i16', -0x8000], [13, 'i16', 0], [22, 'u32', 0], [24, 'i16', 0]]))
    expect(s).toEqual({ exportKwh: undefined, powerKw: undefined, currentA: 5.2, voltageV: 229.5 })
    expect(toReadings(7, '2026-03-04T08:00:00.000Z', s).map((r) => r.measurand)).toEqual(['Voltage', 'Current.Import'])
  })

  it("inverter 103: its production is export (a PV meter's production is what it exports)", () => {
    const s = decodeSunSpec(103, regs(50, [[12, 'i16', 5230], [13, 'i16', -1], [22, 'u32', 1_234_567], [24, 'i16', 1]]))
    expect(s).toMatchObject({ exportKwh: 12345.67, powerKw: -0.523 })
    expect(toReadings(2, 't', s).filter((r) => r.measurand.startsWith('Power') || r.measurand.startsWith('Energy')).map((r) => [r.measurand, r.value]))
      .toEqual([['Energy.Active.Export.Register', 12345.67], ['Power.Active.Import', 0], ['Power.Active.Export', 0.523]])
  })

  it('a scale factor outside −10..10 or not implemented makes its values unknown, never a wrong figure', () => {
    expect(decodeSunSpec(103, regs(50, [[12, 'i16', 5000], [13, 'i16', -0x8000]])).powerKw).toBeUndefined()
    expect(decodeSunSpec(103, regs(50, [[12, 'i16', 5000], [13, 'i16', 42]])).powerKw).toBeUndefined()
  })

  it('storage 124 ChaState and battery 802 SoC with their scale factors', () => {
    expect(decodeSunSpec(124, regs(24, [[6, 'u16', 8765], [20, 'i16', -2]])).socPct).toBeCloseTo(87.65)
    expect(decodeSunSpec(802, regs(62, [[9, 'u16', 55], [54, 'i16', 0]])).socPct).toBe(55)
    expect(toReadings(3, '2026-03-04T08:00:00.000Z', { socPct: 87.65 })).toEqual([{ meter_id: 3, timestamp: '2026-03-04T08:00:00.000Z', measurand: 'SoC', unit: 'Percent', value: 87.7 }])
  })

  it('refuses a block too short for its model and a model it does not read', () => {
    expect(() => decodeSunSpec(203, regs(20, []))).toThrow(/expected 53 registers/)
    expect(() => decodeSunSpec(160, regs(20, []))).toThrow(/not read/)
  })

  it('walks the model list from the SunS marker to the end marker', async () => {
    const map = regs(200, [[0, 'u16', 0x5375], [1, 'u16', 0x6e53], [2, 'u16', 1], [3, 'u16', 66], [70, 'u16', 203], [71, 'u16', 105], [177, 'u16', 0xffff]])
    const read = async (start: number, count: number) => map.subarray((start - 40000) * 2, (start - 40000 + count) * 2)
    expect(await discoverSunSpec(40000, read)).toEqual([{ id: 1, start: 40004, length: 66 }, { id: 203, start: 40072, length: 105 }])
    await expect(discoverSunSpec(40000, async () => Buffer.alloc(4))).rejects.toThrow(/SunS/)
  })

  it('merges a hybrid device: the first model that knows a figure gives it', () => {
    expect(mergeSamples([{ socPct: 50 }, { powerKw: 2, socPct: 10 }])).toEqual({ socPct: 50, powerKw: 2 })
  })
})

describe('SDM630 decoding', () => {
  it('reads float32 registers; refuses a short answer or a register without a number', () => {
    const b = Buffer.alloc(152)
    ;[230, 0, 0].forEach((v, i) => b.writeFloatBE(v, i * 4))
    ;[16, 0, 0].forEach((v, i) => b.writeFloatBE(v, 12 + i * 4))
    b.writeFloatBE(3680, 104)
    b.writeFloatBE(12.5, 144)
    b.writeFloatBE(0, 148)
    // A single-phase installation: the mean voltage of the phases that carry one.
    expect(decodeSdm630(b)).toEqual({ importKwh: 12.5, exportKwh: 0, powerKw: 3.68, voltageV: 230, currentA: 16 })
    expect(() => decodeSdm630(b.subarray(0, 100))).toThrow(/expected 76/)
    b.writeFloatBE(Number.NaN, 144)
    expect(() => decodeSdm630(b)).toThrow(/register 72/)
  })
})
