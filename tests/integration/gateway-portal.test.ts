import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import mqtt from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '../../server/devices/gateway/index.ts'
import { createMqttSubscriber } from '../../server/devices/mqtt/index.ts'
import { auth, until } from './helpers.ts'
import { startIngest } from './ingest-setup.ts'
import { startModbusDevice, type ModbusTestDevice } from './modbus-devices.ts'
import { startTcpSwitch } from './tcp-switch.ts'
import { startMosquitto } from './mosquitto.ts'
import { recordingLog } from './recording-log.ts'

// The gateway's and MQTT's way into the real portal (api role on a test clock): GET /api/ingest/v1/config
// with a device key, the gateway polling a jsmodbus SDM630 and a SunSpec inverter and forwarding to
// POST /api/ingest/v1/readings while the portal is cut off for 60 s, and MQTT messages from Debian's
// mosquitto into the same ingestion service.
let ctx: Awaited<ReturnType<typeof startIngest>>
let sdm: ModbusTestDevice
let inverter: ModbusTestDevice
let key: string
let sdmMeter: number
let pvMeter: number
const { log, lines } = recordingLog()

beforeAll(async () => {
  ctx = await startIngest()
  sdm = await startModbusDevice('sdm630')
  inverter = await startModbusDevice('sunspec')
  key = await ctx.key()
  sdmMeter = (await ctx.meter('main_power', { source: 'modbus', source_config: { host: '127.0.0.1', port: sdm.port, model: 'sdm630' } })).id
  pvMeter = (await ctx.meter('pv', { source: 'modbus', source_config: { host: '127.0.0.1', port: inverter.port, model: 'sunspec', interval_s: 10 } })).id
})
afterAll(async () => {
  await sdm?.close()
  await inverter?.close()
  await ctx?.app.close()
})

describe('GET /api/ingest/v1/config', () => {
  it("answers the key's installation and its live Modbus meters with their devices", async () => {
    const unset = (await ctx.meter('battery', { source: 'modbus' })).id
    const mqttMeter = (await ctx.meter('heat', { source: 'mqtt' })).id
    const archived = (await ctx.meter('power', { source: 'modbus', source_config: { host: '10.0.0.9', model: 'sdm630' } })).id
    await ctx.api().delete(`/api/cockpit/installations/${ctx.demo}/meters/${archived}/`).set(auth(ctx.tokens.admin)).expect(204)
    const r = await ctx.api().get('/api/ingest/v1/config').set(auth(key)).expect(200)
    expect(r.headers['cache-control']).toBe('no-store')
    expect(r.body.installation_id).toBe(ctx.demo)
    const ids = r.body.meters.map((m: { id: number }) => m.id)
    expect(ids).toEqual(expect.arrayContaining([sdmMeter, pvMeter, unset]))
    expect(ids).not.toContain(mqttMeter)
    expect(ids).not.toContain(archived)
    expect(r.body.meters.find((m: { id: number }) => m.id === sdmMeter)).toEqual({ id: sdmMeter, serial: expect.any(String), meter_type: 'main_power', source: 'modbus', source_config: { host: '127.0.0.1', port: sdm.port, unit_id: 1, model: 'sdm630', interval_s: 5 } })
    expect(r.body.meters.find((m: { id: number }) => m.id === unset).source_config).toBeNull()
  })

  it("refuses no key, a user's token, an unknown or revoked key (401), and shows another installation's key only its own meters", async () => {
    await ctx.api().get('/api/ingest/v1/config').expect(401)
    await ctx.api().get('/api/ingest/v1/config').set(auth(ctx.tokens.admin)).expect(401)
    await ctx.api().get('/api/ingest/v1/config').set(auth('ck_unknown')).expect(401)
    const bernKey = await ctx.key(ctx.other.installationId)
    const bern = (await ctx.api().get('/api/ingest/v1/config').set(auth(bernKey)).expect(200)).body
    expect(bern).toEqual({ installation_id: ctx.other.installationId, meters: [] })
    const keys = (await ctx.api().get(`/api/cockpit/installations/${ctx.other.installationId}/device_keys/`).set(auth(ctx.tokens.bern)).expect(200)).body.results
    await ctx.api().delete(`/api/cockpit/installations/${ctx.other.installationId}/device_keys/${keys[0].id}/`).set(auth(ctx.tokens.bern)).expect(204)
    await ctx.api().get('/api/ingest/v1/config').set(auth(bernKey)).expect(401)
  })
})

describe('the gateway forwarding to the portal', () => {
  let dir: string
  let uplink: Awaited<ReturnType<typeof startTcpSwitch>>
  let step = 0
  const setFigures = (n: number) => {
    sdm.setSdm630({ importKwh: 2000 + n * 0.01, exportKwh: 10 + n * 0.001, powerW: 1800, volts: [230, 230, 230], amps: [8, 8, 8] })
    inverter.setInverter({ w: 4200, wSf: 0, wh: 500_000 + n * 10, whSf: 0, ampsX10: [60, 60, 60], voltsX10: [2300, 2300, 2300] })
  }
  async function run(gw: Gateway, seconds: number) {
    for (let t = 0; t < seconds; t += 5) {
      setFigures(++step)
      await ctx.clock.advance(5000)
      await gw.settled()
    }
  }
  const rows = (meterId: number, measurand: string) =>
    ctx.db.selectFrom('meter_readings').select(['ts', 'value', 'via']).where('meter_id', '=', meterId).where('measurand', '=', measurand).orderBy('ts').execute()

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cockpit-gateway-portal-'))
    uplink = await startTcpSwitch((ctx.app.server.address() as AddressInfo).port)
  })
  afterAll(async () => {
    await uplink?.close()
    if (dir) await fs.rm(dir, { recursive: true, force: true })
  })

  it('the portal away for 60 s and back, then a restart with unsent readings: 0 readings lost, 0 duplicated', async () => {
    setFigures(step)
    const from = ctx.clock.ms()
    let gw = createGateway({ url: uplink.url, key, dir, clock: ctx.clock, log })
    await gw.start()
    await run(gw, 20)
    uplink.off()
    await run(gw, 60)
    expect(gw.stats().pending).toBeGreaterThan(0)
    uplink.on()
    for (let i = 0; i < 12 && gw.stats().pending > 0; i++) await run(gw, 5)
    expect(gw.stats().pending).toBe(0)
    // Away again, then the gateway restarts with readings on disk.
    uplink.off()
    await run(gw, 15)
    const unsent = gw.stats().pending
    expect(unsent).toBeGreaterThan(0)
    const firstRead = gw.stats().read
    await gw.stop()
    uplink.on()
    gw = createGateway({ url: uplink.url, key, dir, clock: ctx.clock, log })
    await gw.start()
    expect(gw.stats().pending).toBe(unsent)
    for (let i = 0; i < 12 && gw.stats().pending > 0; i++) await run(gw, 5)
    await gw.stop()
    expect(gw.stats().pending).toBe(0)
    const until = ctx.clock.ms()

    // Every 5 s a reading of each SDM630 measurand, every 10 s of the inverter's: none missing, none twice.
    const polls = (every: number) => Math.floor((until - from) / every)
    for (const measurand of ['Energy.Active.Import.Register', 'Power.Active.Import', 'Voltage', 'Current.Import']) {
      const got = await rows(sdmMeter, measurand)
      expect(got.length, measurand).toBe(polls(5000))
      for (let i = 1; i < got.length; i++) expect(new Date(got[i].ts).getTime() - new Date(got[i - 1].ts).getTime()).toBe(5000)
    }
    const pv = await rows(pvMeter, 'Energy.Active.Export.Register')
    // The restarted gateway's 10 s timer starts anew, so one 10 s slot around the restart may go unread.
    expect(pv.length).toBeGreaterThanOrEqual(polls(10_000) - 1)
    // Scale factors applied: 500,000 Wh + 10 Wh per step (one step every 5 s from the start), in kWh.
    const last = pv.at(-1)!
    expect(Math.round(last.value * 1000)).toBe(500_000 + ((new Date(last.ts).getTime() - from) / 5000) * 10)
    const all = await ctx.db.selectFrom('meter_readings').select((eb) => eb.fn.countAll<string>().as('n')).where('meter_id', 'in', [sdmMeter, pvMeter]).executeTakeFirstOrThrow()
    expect(Number(all.n)).toBe(firstRead + gw.stats().read)
    // The energy reached the statistics: the register's rise over the time, in the 15-minute buckets.
    const buckets = await ctx.db.selectFrom('measurements_15m').select((eb) => eb.fn.sum<number>('energy_in_kwh').as('kwh')).where('meter_id', '=', sdmMeter).executeTakeFirstOrThrow()
    expect(Number(buckets.kwh)).toBeCloseTo((polls(5000) - 1) * 0.01, 2)
    // The inverter's production (its export) is the PV meter's energy, as the portal books a PV meter.
    const produced = await ctx.db.selectFrom('measurements_15m').select((eb) => eb.fn.sum<number>('energy_in_kwh').as('kwh')).where('meter_id', '=', pvMeter).executeTakeFirstOrThrow()
    expect(Number(produced.kwh)).toBeCloseTo(last.value - pv[0].value, 3)
  })
})

describe('MQTT into the ingestion service', () => {
  it('stores readings published to mosquitto with via mqtt; a reading of another installation\'s meter is refused with the reason', async () => {
    const broker = await startMosquitto()
    const meter = (await ctx.meter('heat', { source: 'mqtt' })).id
    const foreign = (await ctx.meter('heat', { source: 'mqtt' }, ctx.other.installationId)).id
    const subscriber = createMqttSubscriber({ url: broker.url, username: broker.user, password: broker.password, ingest: (id, readings, via) => ctx.app.domain!.ingest.ingest(id, readings, via), clock: ctx.clock, log })
    const publisher = await mqtt.connectAsync(broker.url, { username: broker.user, password: broker.password })
    try {
      await subscriber.start()
      const at = ctx.clock.now().toISOString()
      await publisher.publishAsync(`cockpit/${ctx.demo}/meters/${meter}`, JSON.stringify([{ timestamp: at, measurand: 'Energy.Heat.Register', unit: 'kWh', value: 812.5 }]), { qos: 1 })
      await publisher.publishAsync(`cockpit/${ctx.demo}/meters/${meter}/Power.Active.Import`, '4.5', { qos: 1 })
      await publisher.publishAsync(`cockpit/${ctx.demo}/meters/${foreign}/Power.Active.Import`, '4.5', { qos: 1 })
      const stored = () => ctx.db.selectFrom('meter_readings').select(['measurand', 'value', 'via']).where('meter_id', 'in', [meter, foreign]).orderBy('measurand').execute()
      await until(async () => (await stored()).length >= 2 && lines.some((l) => l.msg === 'mqtt: readings refused'), 10_000, 'the readings stored')
      await subscriber.drained()
      expect(await stored()).toEqual([
        { measurand: 'Energy.Heat.Register', value: 812.5, via: 'mqtt' },
        { measurand: 'Power.Active.Import', value: 4.5, via: 'mqtt' },
      ])
      const refused = lines.find((l) => l.msg === 'mqtt: readings refused')!
      expect(refused.obj.topic).toBe(`cockpit/${ctx.demo}/meters/${foreign}/Power.Active.Import`)
      expect(JSON.stringify(refused.obj.rejected)).toMatch(/meter/i)
    } finally {
      await publisher.endAsync()
      await subscriber.stop()
      await broker.close()
    }
  })
})
