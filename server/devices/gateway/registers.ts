/**
 * Modbus register maps a facility gateway reads (ARCHITECTURE §1 devices), as pure decoders of the
 * registers a device answered: the Eastron SDM630 (input registers, IEEE 754 float32, high word first;
 * Eastron "SDM630 Modbus protocol" V2) and SunSpec devices (holding registers from 40000: the 'SunS'
 * marker, then model blocks `ID, L, L registers…` up to ID 0xFFFF; SunSpec Information Model
 * Specification: common model 1, inverters 101–103, meters 201–204, storage 124, battery 802), with
 * their scale factors (value × 10^SF), and SunSpec's float models (inverters 111–113, meters 211–214:
 * float32 points, NaN when not implemented); "not implemented" values are left out rather than sent as 0.
 *
 * A decoded device is a {@link Sample}; {@link toReadings} turns it into readings of the ingestion API
 * (shared/schemas/ingest.ts measurands and units) in its directions (server/domain/ingest/check.ts
 * columnOf): import is what flows into the device (grid import, a battery's charging), export what it
 * gives out (grid export, an inverter's production: a PV meter's production is its export).
 */

/** What one read of a device gave; each field only when the device reports it. */
export interface Sample {
  /** Energy register of what flowed into the device (grid import), kWh. */
  importKwh?: number
  /** Energy register of what the device gave out (grid export, an inverter's production), kWh. */
  exportKwh?: number
  /** Active power, kW: positive flowing in (import, charging), negative flowing out (export, production). */
  powerKw?: number
  /** Line-to-neutral voltage: the mean of the phases that carry one, V. */
  voltageV?: number
  /** Current of the most loaded phase (what a fuse sees), A. */
  currentA?: number
  /** A battery's state of charge, %. */
  socPct?: number
}

/** A reading as POST /api/ingest/v1/readings takes it (shared/schemas/ingest.ts IngestReading). */
export interface GatewayReading {
  meter_id: number
  timestamp: string
  measurand: 'Energy.Active.Import.Register' | 'Energy.Active.Export.Register' | 'Power.Active.Import' | 'Power.Active.Export' | 'SoC' | 'Voltage' | 'Current.Import'
  unit: 'kWh' | 'kW' | 'Percent' | 'V' | 'A'
  value: number
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits

/**
 * The readings of one sample of meter `meterId` taken at `timestamp` (ISO 8601): registers in kWh, power
 * split into Power.Active.Import and Power.Active.Export (both sent, one of them 0), SoC in Percent,
 * Voltage in V, Current.Import in A. The ingestion API has no phase field, so phases are summarised
 * (docs/decisions.md "Gateway: what a Modbus meter sends").
 */
export function toReadings(meterId: number, timestamp: string, s: Sample): GatewayReading[] {
  const out: GatewayReading[] = []
  const add = (measurand: GatewayReading['measurand'], unit: GatewayReading['unit'], value: number | undefined, digits: number) => {
    if (value !== undefined && Number.isFinite(value)) out.push({ meter_id: meterId, timestamp, measurand, unit, value: round(value, digits) })
  }
  add('Energy.Active.Import.Register', 'kWh', s.importKwh, 3)
  add('Energy.Active.Export.Register', 'kWh', s.exportKwh, 3)
  if (s.powerKw !== undefined) {
    add('Power.Active.Import', 'kW', Math.max(0, s.powerKw), 3)
    add('Power.Active.Export', 'kW', Math.max(0, -s.powerKw), 3)
  }
  add('SoC', 'Percent', s.socPct, 1)
  add('Voltage', 'V', s.voltageV, 1)
  add('Current.Import', 'A', s.currentA, 2)
  return out
}

// ── Eastron SDM630 ──────────────────────────────────────────────────────────────────────────────────

/**
 * The SDM630's input registers the gateway reads, as register addresses (30001 = 0): phase 1–3
 * line-to-neutral volts at 0/2/4, phase 1–3 current at 6/8/10, total system power (W) at 52, total
 * import kWh at 72, total export kWh at 74; each a float32 over two registers.
 */
export const SDM630 = { first: 0, count: 76, voltage: [0, 2, 4], current: [6, 8, 10], powerW: 52, importKwh: 72, exportKwh: 74 } as const

/**
 * Decode the SDM630's input registers `first`..`first+count` (as read, 2 bytes each, big-endian) into a
 * Sample. Throws RangeError when fewer bytes came back or a register holds no finite number.
 */
export function decodeSdm630(buf: Buffer): Sample {
  if (buf.length < SDM630.count * 2) throw new RangeError(`SDM630: expected ${SDM630.count} registers, got ${buf.length / 2}`)
  const f = (register: number) => {
    const v = buf.readFloatBE((register - SDM630.first) * 2)
    if (!Number.isFinite(v)) throw new RangeError(`SDM630: register ${register} holds no number`)
    return v
  }
  const volts = SDM630.voltage.map(f).filter((v) => v > 1)
  return {
    importKwh: f(SDM630.importKwh),
    exportKwh: f(SDM630.exportKwh),
    powerKw: f(SDM630.powerW) / 1000,
    voltageV: volts.length ? volts.reduce((a, b) => a + b, 0) / volts.length : undefined,
    currentA: Math.max(...SDM630.current.map((r) => Math.abs(f(r)))),
  }
}

// ── SunSpec ─────────────────────────────────────────────────────────────────────────────────────────

/** Where SunSpec devices put their map (the specification's base addresses), tried in this order. */
export const SUNSPEC_BASES = [40000, 0, 50000] as const
/** 'SunS' as two registers. */
export const SUNSPEC_MARKER = [0x5375, 0x6e53] as const
/** The model id that ends the map. */
export const SUNSPEC_END = 0xffff

/** One model of a device's map: its id, the register where its data starts (after ID and L) and its length. */
export interface SunSpecModel {
  id: number
  start: number
  length: number
}

/** The models whose data the gateway decodes, in the order it prefers them for a meter reading. */
export const SUNSPEC_READ = [201, 202, 203, 204, 211, 212, 213, 214, 101, 102, 103, 111, 112, 113, 802, 124] as const

const NI_INT16 = -0x8000
const NI_UINT16 = 0xffff

/** A model block's registers, with SunSpec's types and "not implemented" values (undefined). */
function block(regs: Buffer) {
  const u16 = (o: number) => {
    const v = regs.readUInt16BE(o * 2)
    return v === NI_UINT16 ? undefined : v
  }
  const i16 = (o: number) => {
    const v = regs.readInt16BE(o * 2)
    return v === NI_INT16 ? undefined : v
  }
  /** acc32: an accumulator; 0 means not accumulated (not implemented). */
  const acc32 = (o: number) => {
    const v = regs.readUInt32BE(o * 2)
    return v === 0 ? undefined : v
  }
  /** sunssf: a power-of-ten exponent, −10..10 per the specification. */
  const sf = (o: number) => {
    const v = i16(o)
    return v === undefined || v < -10 || v > 10 ? undefined : v
  }
  const scaled = (value: number | undefined, exp: number | undefined) => (value === undefined || exp === undefined ? undefined : value * 10 ** exp)
  /** float32 (the float models): NaN (0x7FC00000) means not implemented. */
  const f32 = (o: number) => {
    const v = regs.readFloatBE(o * 2)
    return Number.isFinite(v) ? v : undefined
  }
  return { u16, i16, acc32, sf, scaled, f32 }
}

/**
 * Decode the data registers of SunSpec model `id` (without its ID and L) into a Sample. Inverters
 * (101–103): AC power W and lifetime energy WH (their production: export, power negative), phase
 * currents and voltages. Meters (201–204): W (positive = import), TotWhImp, TotWhExp,
 * PhV and the phase currents. The float models read the same points as float32 without scale factors:
 * inverters 111–113, meters 211–214. Storage 124: ChaState (SoC %); battery 802: SoC. Throws RangeError
 * for a block shorter than its model needs or a model it does not know.
 */
export function decodeSunSpec(id: number, regs: Buffer): Sample {
  const { u16, i16, acc32, sf, scaled, f32 } = block(regs)
  const need = (n: number) => {
    if (regs.length < n * 2) throw new RangeError(`SunSpec model ${id}: expected ${n} registers, got ${regs.length / 2}`)
  }
  const maxAbs = (values: (number | undefined)[]) => {
    const known = values.filter((v): v is number => v !== undefined)
    return known.length ? Math.max(...known.map(Math.abs)) : undefined
  }
  const mean = (values: (number | undefined)[]) => {
    const known = values.filter((v): v is number => v !== undefined && v > 1)
    return known.length ? known.reduce((a, b) => a + b, 0) / known.length : undefined
  }
  if (id >= 101 && id <= 103) {
    // A, AphA, AphB, AphC, A_SF; PPVphAB, PPVphBC, PPVphCA, PhVphA, PhVphB, PhVphC, V_SF; W, W_SF; …; WH (acc32) at 22, WH_SF at 24.
    need(25)
    const aSf = sf(4)
    const vSf = sf(11)
    const phases = id - 100
    const w = scaled(i16(12), sf(13))
    const wh = scaled(acc32(22), sf(24))
    return {
      exportKwh: wh === undefined ? undefined : wh / 1000,
      powerKw: w === undefined ? undefined : -w / 1000,
      currentA: maxAbs([1, 2, 3].slice(0, phases).map((o) => scaled(u16(o), aSf))),
      voltageV: mean([8, 9, 10].slice(0, phases).map((o) => scaled(u16(o), vSf))),
    }
  }
  if (id >= 201 && id <= 204) {
    // A, AphA..C, A_SF; PhV, PhVphA..C, PPV, PPVphAB..CA, V_SF; Hz, Hz_SF; W, WphA..C, W_SF; … TotWhExp
    // (acc32) at 36, per-phase export 38–43, TotWhImp at 44, per-phase import 46–51, TotWh_SF at 52.
    need(53)
    const aSf = sf(4)
    const w = scaled(i16(16), sf(20))
    const whSf = sf(52)
    const imp = scaled(acc32(44), whSf)
    const exp = scaled(acc32(36), whSf)
    return {
      importKwh: imp === undefined ? undefined : imp / 1000,
      exportKwh: exp === undefined ? undefined : exp / 1000,
      powerKw: w === undefined ? undefined : w / 1000,
      currentA: maxAbs([1, 2, 3].map((o) => scaled(i16(o), aSf))),
      voltageV: scaled(i16(5), sf(13)),
    }
  }
  if (id >= 111 && id <= 113) {
    // Float inverter: A 0, AphA..C 2/4/6, PPVphAB..CA 8/10/12, PhVphA..C 14/16/18, W 20, Hz 22, VA 24, VAr 26, PF 28, WH 30.
    need(32)
    const phases = id - 110
    const w = f32(20)
    const wh = f32(30)
    return {
      exportKwh: wh === undefined ? undefined : wh / 1000,
      powerKw: w === undefined ? undefined : -w / 1000,
      currentA: maxAbs([2, 4, 6].slice(0, phases).map(f32)),
      voltageV: mean([14, 16, 18].slice(0, phases).map(f32)),
    }
  }
  if (id >= 211 && id <= 214) {
    // Float meter: A 0, AphA..C 2/4/6, PhV 8, …, Hz 24, W 26, WphA..C 28–32, …, TotWhExp 58, per-phase
    // export 60–64, TotWhImp 66 (Wh).
    need(68)
    const w = f32(26)
    const imp = f32(66)
    const exp = f32(58)
    return {
      importKwh: imp === undefined ? undefined : imp / 1000,
      exportKwh: exp === undefined ? undefined : exp / 1000,
      powerKw: w === undefined ? undefined : w / 1000,
      currentA: maxAbs([2, 4, 6].map(f32)),
      voltageV: f32(8),
    }
  }
  if (id === 124) {
    // ChaState at 6, ChaState_SF at 20.
    need(21)
    return { socPct: scaled(u16(6), sf(20)) }
  }
  if (id === 802) {
    // SoC at 9, SoC_SF at 54.
    need(55)
    return { socPct: scaled(u16(9), sf(54)) }
  }
  throw new RangeError(`SunSpec model ${id} is not read by the gateway`)
}

/**
 * Walk a SunSpec map from the register after 'SunS': `read(start, count)` answers the registers;
 * returns every model until the end marker (at most 100, a guard against a map that never ends).
 */
export async function discoverSunSpec(base: number, read: (start: number, count: number) => Promise<Buffer>): Promise<SunSpecModel[]> {
  const marker = await read(base, 2)
  if (marker.readUInt16BE(0) !== SUNSPEC_MARKER[0] || marker.readUInt16BE(2) !== SUNSPEC_MARKER[1]) throw new RangeError(`no SunSpec map at ${base} ('SunS' missing)`)
  const models: SunSpecModel[] = []
  let at = base + 2
  for (let i = 0; i < 100; i++) {
    const head = await read(at, 2)
    const id = head.readUInt16BE(0)
    if (id === SUNSPEC_END) return models
    const length = head.readUInt16BE(2)
    models.push({ id, start: at + 2, length })
    at += 2 + length
  }
  throw new RangeError('SunSpec map without an end marker')
}

/** Merge samples of several models of one device (a hybrid inverter with a battery): the first value of each field wins. */
export function mergeSamples(samples: Sample[]): Sample {
  const out: Sample = {}
  for (const s of samples) for (const [k, v] of Object.entries(s) as [keyof Sample, number | undefined][]) if (v !== undefined && out[k] === undefined) out[k] = v
  return out
}
