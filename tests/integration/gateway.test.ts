import http from 'node:http'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { createGateway, type Gateway } from '../../server/devices/gateway/index.ts'
import { AT } from './helpers.ts'
import { startModbusDevice, type ModbusTestDevice } from './modbus-devices.ts'
import { startTcpSwitch } from './tcp-switch.ts'
import { recordingLog } from './recording-log.ts'

// The facility gateway (server/devices/gateway) against Modbus TCP devices served by jsmodbus in the test
// (an Eastron SDM630 and a SunSpec inverter) and a portal that records what arrives, reached through a
// switch the test turns off for 60 s: no reading lost, none twice, in order; and across a restart.
const KEY = 'ck_test-gateway-key'
const SDM_METER = 101
const PV_METER = 102

/** A stand-in for the portal's two gateway routes: config and readings, idempotent like the real one. */
async function startFakePortal(config: () => unknown) {
  const stored = new Map<string, { value: number }>()
  const arrivals: { meter_id: number; timestamp: string; measurand: string }[] = []
  let duplicates = 0
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (req.headers.authorization !== `Bearer ${KEY}`) return reply(401, { detail: 'Authentication credentials were not provided.' })
    if (req.method === 'GET' && req.url === '/api/ingest/v1/config') return reply(200, config())
    if (req.method !== 'POST' || req.url !== '/api/ingest/v1/readings') return reply(404, { detail: 'Not found.' })
    let text = ''
    req.on('data', (c) => (text += c))
    req.on('end', () => {
      const { readings } = JSON.parse(text) as { readings: { meter_id: number; timestamp: string; measurand: string; value: number }[] }
      let accepted = 0
      let dup = 0
      for (const r of readings) {
        const k = `${r.meter_id}|${r.timestamp}|${r.measurand}`
        if (stored.has(k)) dup++
        else {
          stored.set(k, r)
          arrivals.push(r)
          accepted++
        }
      }
      duplicates += dup
      reply(202, { accepted, duplicates: dup, rejected: [] })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    stored,
    arrivals,
    duplicates: () => duplicates,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

let clock: TestClock
let sdm: ModbusTestDevice
let inverter: ModbusTestDevice
let portal: Awaited<ReturnType<typeof startFakePortal>>
let uplink: Awaited<ReturnType<typeof startTcpSwitch>>
let dir: string
const { log, lines } = recordingLog()
let step = 0

beforeAll(async () => {
  clock = createTestClock(AT.morning)
  sdm = await startModbusDevice('sdm630')
  inverter = await startModbusDevice('sunspec')
  portal = await startFakePortal(() => ({
    installation_id: 1,
    meters: [
      { id: SDM_METER, serial: 'SDM-1', meter_type: 'main_power', source: 'modbus', source_config: { host: '127.0.0.1', port: sdm.port, unit_id: 1, model: 'sdm630', interval_s: 5 } },
      { id: PV_METER, serial: null, meter_type: 'pv', source: 'modbus', source_config: { host: '127.0.0.1', port: inverter.port, unit_id: 1, model: 'sunspec', interval_s: 10 } },
      // Not yet configured by its admin: skipped.
      { id: 103, serial: null, meter_type: 'battery', source: 'modbus', source_config: null },
    ],
  }))
  uplink = await startTcpSwitch(portal.port)
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cockpit-gateway-'))
})
afterAll(async () => {
  await uplink?.close()
  await portal?.close()
  await sdm?.close()
  await inverter?.close().catch(() => undefined)
  if (dir) await fs.rm(dir, { recursive: true, force: true })
})

/** The devices' figures at step `n`: registers that only grow, power that changes. */
function setFigures(n: number) {
  sdm.setSdm630({ importKwh: 1000 + n * 0.01, exportKwh: 50 + n * 0.002, powerW: n % 2 ? 2500 : -1200, volts: [230, 231, 229.5], amps: [10, 12.5, 9] })
  // 523.0 W (5230 × 10^-1), 12,345,670 Wh + n × 10 Wh (WH 1234567 + n × 1 at WH_SF 1).
  inverter.setInverter({ w: 5230, wSf: -1, wh: 1_234_567 + n, whSf: 1, ampsX10: [100, 101, 99], voltsX10: [2300, 2310, 2290] })
}

/** Move the clock in 5 s steps for `seconds`, letting the gateway read and send after each. */
async function run(gw: Gateway, seconds: number) {
  for (let t = 0; t < seconds; t += 5) {
    setFigures(++step)
    await clock.advance(5000)
    await gw.settled()
  }
}

/** Every reading of `meter` that arrived, in arrival order. */
const arrivedFor = (meter: number, measurand: string) => portal.arrivals.filter((r) => r.meter_id === meter && r.measurand === measurand)

describe('gateway', () => {
  it('reads the SDM630 and the SunSpec inverter with their scale factors and forwards the readings', async () => {
    setFigures(step)
    const gw = createGateway({ url: uplink.url, key: KEY, dir, clock, log })
    await gw.start()
    await run(gw, 10)
    await gw.stop()
    const sdmReadings = portal.arrivals.filter((r) => r.meter_id === SDM_METER)
    expect(sdmReadings.map((r) => r.measurand).sort()).toEqual(expect.arrayContaining(['Current.Import', 'Energy.Active.Export.Register', 'Energy.Active.Import.Register', 'Power.Active.Export', 'Power.Active.Import', 'Voltage']))
    const last = (meter: number, measurand: string) => [...portal.stored.values()].filter((r) => (r as never as { meter_id: number }).meter_id === meter && (r as never as { measurand: string }).measurand === measurand).at(-1) as unknown as { value: number; unit: string; timestamp: string }
    expect(last(SDM_METER, 'Energy.Active.Import.Register')).toMatchObject({ value: 1000.02, unit: 'kWh' })
    // Step 2 is even: 1.2 kW exported, nothing imported.
    expect(last(SDM_METER, 'Power.Active.Export')).toMatchObject({ value: 1.2, unit: 'kW' })
    expect(last(SDM_METER, 'Power.Active.Import')).toMatchObject({ value: 0 })
    expect(last(SDM_METER, 'Voltage')).toMatchObject({ value: 230.2, unit: 'V' })
    expect(last(SDM_METER, 'Current.Import')).toMatchObject({ value: 12.5, unit: 'A' })
    // The inverter's production is export (a PV meter's production is what it exports).
    expect(last(PV_METER, 'Power.Active.Export')).toMatchObject({ value: 0.523, unit: 'kW' })
    expect(last(PV_METER, 'Power.Active.Import')).toMatchObject({ value: 0 })
    expect(last(PV_METER, 'Energy.Active.Export.Register')).toMatchObject({ value: 12345.69, unit: 'kWh' })
    // Timestamps are the gateway clock's at each read: every 5 s for the SDM630, every 10 s for the inverter.
    expect(arrivedFor(SDM_METER, 'Voltage').map((r) => r.timestamp)).toEqual([new Date(AT.morning).getTime() + 5000, new Date(AT.morning).getTime() + 10_000].map((t) => new Date(t).toISOString()))
    expect(portal.arrivals.some((r) => r.meter_id === 103)).toBe(false)
  })

  it('keeps readings on disk while the portal is away for 60 s and sends them in order when it is back: 0 lost, 0 duplicated', async () => {
    const gw = createGateway({ url: uplink.url, key: KEY, dir, clock, log })
    await gw.start()
    const before = portal.arrivals.length
    await run(gw, 15)
    uplink.off()
    await run(gw, 60)
    const during = portal.arrivals.length
    expect(gw.stats().pending).toBeGreaterThan(0)
    // 60 s: 12 SDM630 reads of 6 readings, 6 inverter reads of 5.
    expect(gw.stats().pending).toBe(12 * 6 + 6 * 5)
    expect(lines.some((l) => l.level === 'warn' && /unreachable/.test(l.msg))).toBe(true)
    uplink.on()
    // The retry wait has grown to at most 30 s; within it everything goes.
    for (let i = 0; i < 12 && gw.stats().pending > 0; i++) await run(gw, 5)
    await gw.stop()
    expect(gw.stats().pending).toBe(0)
    expect(during).toBeLessThan(before + gw.stats().read)
    expect(portal.arrivals.length - before).toBe(gw.stats().read)
    expect(portal.duplicates()).toBe(0)
    // In order: each meter's timestamps rise in arrival order, every 5 s without a gap.
    const times = arrivedFor(SDM_METER, 'Energy.Active.Import.Register').map((r) => Date.parse(r.timestamp))
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(5000)
  })

  it('survives a restart with unsent readings and sends them after it', async () => {
    let gw = createGateway({ url: uplink.url, key: KEY, dir, clock, log })
    await gw.start()
    uplink.off()
    await run(gw, 20)
    const unsent = gw.stats().pending
    expect(unsent).toBeGreaterThan(0)
    await gw.stop()
    const before = portal.arrivals.length
    // A new process on the same GATEWAY_DIR; the portal is back.
    uplink.on()
    gw = createGateway({ url: uplink.url, key: KEY, dir, clock, log })
    await gw.start()
    expect(gw.stats().pending).toBe(unsent)
    await run(gw, 5)
    await gw.stop()
    expect(gw.stats().pending).toBe(0)
    expect(portal.arrivals.length - before).toBe(unsent + gw.stats().read)
    expect(portal.duplicates()).toBe(0)
    const times = arrivedFor(SDM_METER, 'Energy.Active.Import.Register').map((r) => Date.parse(r.timestamp))
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1])
  })

  it('starts from the meters it kept on disk when the portal cannot be reached at its start', async () => {
    uplink.off()
    const gw = createGateway({ url: uplink.url, key: KEY, dir, clock, log })
    await gw.start()
    await run(gw, 10)
    expect(gw.stats().read).toBeGreaterThan(0)
    await gw.stop()
    uplink.on()
  })

  it('a device that does not answer is logged once with the reason; the other meters go on', async () => {
    const gw = createGateway({ url: uplink.url, key: KEY, dir, clock, log })
    await gw.start()
    await inverter.close()
    const from = clock.ms()
    await run(gw, 30)
    expect(arrivedFor(SDM_METER, 'Voltage').filter((r) => Date.parse(r.timestamp) > from).length).toBe(6)
    expect(gw.stats().readErrors).toBe(3)
    const failures = lines.filter((l) => l.msg === 'gateway: meter read failed' && l.obj.meter === PV_METER)
    expect(failures.length).toBe(1)
    expect(String(failures[0].obj.reason)).toMatch(/ECONNREFUSED|connect/)
    await gw.stop()
  })
})

describe('gateway: SunSpec float models (meter 213, inverter 113)', () => {
  it('reads a float meter and a float inverter over Modbus TCP and forwards their figures; NaN points are left out', async () => {
    const meterDev = await startModbusDevice('sunspec-float-meter')
    const inverterDev = await startModbusDevice('sunspec-float-inverter')
    const floatDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cockpit-gateway-float-'))
    const floatPortal = await startFakePortal(() => ({
      installation_id: 1,
      meters: [
        { id: 201, serial: null, meter_type: 'main_power', source: 'modbus', source_config: { host: '127.0.0.1', port: meterDev.port, unit_id: 1, model: 'sunspec', interval_s: 5 } },
        { id: 202, serial: null, meter_type: 'pv', source: 'modbus', source_config: { host: '127.0.0.1', port: inverterDev.port, unit_id: 1, model: 'sunspec', interval_s: 5 } },
      ],
    }))
    try {
      // Model 213: A 0, AphA..C 2/4/6, PhV 8, W 26, TotWhExp 58, TotWhImp 66 (Wh).
      meterDev.setFloats({ 2: 10.5, 4: 16.25, 6: 9, 8: 231.4, 26: 4321.5, 58: 1500, 66: 2_345_678.5 })
      // Model 113: AphA..C 2/4/6, PhVphA..C 14/16/18, W 20, WH 30 (Wh); the current of phase C not implemented (NaN).
      inverterDev.setFloats({ 2: 8.2, 4: 8.4, 14: 230, 16: 232, 18: 231, 20: 5600, 30: 9_876_543 })
      const gw = createGateway({ url: `http://127.0.0.1:${floatPortal.port}`, key: KEY, dir: floatDir, clock, log })
      await gw.start()
      await clock.advance(5000)
      await gw.settled()
      await gw.stop()
      const value = (meter: number, measurand: string) => floatPortal.arrivals.filter((r) => r.meter_id === meter && r.measurand === measurand).map((r) => (r as unknown as { value: number }).value).at(-1)
      expect(value(201, 'Energy.Active.Import.Register')).toBe(2345.679)
      expect(value(201, 'Energy.Active.Export.Register')).toBe(1.5)
      expect(value(201, 'Power.Active.Import')).toBe(4.322)
      expect(value(201, 'Power.Active.Export')).toBe(0)
      expect(value(201, 'Voltage')).toBe(231.4)
      expect(value(201, 'Current.Import')).toBe(16.25)
      // The inverter's production is its export.
      expect(value(202, 'Energy.Active.Export.Register')).toBe(9876.543)
      expect(value(202, 'Power.Active.Export')).toBe(5.6)
      expect(value(202, 'Voltage')).toBe(231)
      expect(value(202, 'Current.Import')).toBe(8.4)
      expect(value(202, 'Energy.Active.Import.Register')).toBeUndefined()
    } finally {
      await floatPortal.close()
      await meterDev.close()
      await inverterDev.close()
      await fs.rm(floatDir, { recursive: true, force: true })
    }
  })
})
