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
