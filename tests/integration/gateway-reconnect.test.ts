import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '../../server/devices/gateway/index.ts'
import { auth } from './helpers.ts'
import { startIngest } from './ingest-setup.ts'
import { startModbusDevice, type ModbusTestDevice } from './modbus-devices.ts'
import { startTcpSwitch } from './tcp-switch.ts'
import { recordingLog } from './recording-log.ts'

// SPEC §4 offline queue with a facility gateway: the gateway reporting keeps its installation online; cut
// off from the portal for over a minute, the installation goes offline and changes made meanwhile wait; when
// the gateway gets through again, its first report brings the installation back and the waiting changes are
// applied, and the gateway takes the meter settings changed meanwhile at once.
let ctx: Awaited<ReturnType<typeof startIngest>>
let sdm: ModbusTestDevice
let dir: string
let uplink: Awaited<ReturnType<typeof startTcpSwitch>>
const { log, lines } = recordingLog()

beforeAll(async () => {
  ctx = await startIngest()
  sdm = await startModbusDevice('sdm630')
  sdm.setSdm630({ importKwh: 2000, exportKwh: 10, powerW: 1800, volts: [230, 230, 230], amps: [8, 8, 8] })
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cockpit-gateway-reconnect-'))
  uplink = await startTcpSwitch((ctx.app.server.address() as AddressInfo).port)
})
afterAll(async () => {
  await uplink?.close()
  await sdm?.close()
  await ctx?.app.close()
  if (dir) await fs.rm(dir, { recursive: true, force: true })
})

describe('a facility gateway cut off and back', () => {
  it('brings its installation back online with its first report, and the changes that waited are applied then', async () => {
    const key = await ctx.key()
    const meterId = (await ctx.meter('main_power', { source: 'modbus', source_config: { host: '127.0.0.1', port: sdm.port, model: 'sdm630' } })).id
    const inst = `/api/cockpit/installations/${ctx.demo}`
    const info = async () => (await ctx.api().get(`${inst}/info`).set(auth(ctx.tokens.admin)).expect(200)).body as { online: boolean }
    const station = (await ctx.api().get(`${inst}/charging_stations/`).set(auth(ctx.tokens.admin)).expect(200)).body.results[0] as { id: number; charging_mode: string }
    const mode = station.charging_mode === 'solar' ? 'optimized' : 'solar'
    const gw: Gateway = createGateway({ url: uplink.url, key, dir, clock: ctx.clock, log })
    const run = async (seconds: number) => {
      for (let t = 0; t < seconds; t += 5) {
        await ctx.clock.advance(5000)
        await gw.settled()
      }
    }
    try {
      await gw.start()
      await run(10)
      expect(gw.stats().sent).toBeGreaterThan(0)
      expect((await info()).online).toBe(true)

      // Cut off for 65 s: the portal's watchdog finds the installation silent for over 60 s.
      uplink.off()
      await run(65)
      expect(await ctx.app.domain!.devices.sweep(ctx.clock.now())).toContain(ctx.demo)
      expect((await info()).online).toBe(false)
      // Meanwhile the admin changes a station's mode (it waits for the facility) and the meter's interval.
      const patched = await ctx.api().patch(`${inst}/charging_stations/${station.id}/`).set(auth(ctx.tokens.admin)).send({ charging_mode: mode }).expect(200)
      expect(patched.body).toMatchObject({ charging_mode: station.charging_mode, pending_changes: [{ field: 'charging_mode', value: mode }] })
      await ctx.api().patch(`${inst}/meters/${meterId}/`).set(auth(ctx.tokens.admin)).send({ source_config: { host: '127.0.0.1', port: sdm.port, model: 'sdm630', interval_s: 10 } }).expect(200)

      uplink.on()
      let reconnectedAt: number | null = null
      let newIntervalAt: number | null = null
      for (let i = 0; i < 12 && (gw.stats().pending > 0 || newIntervalAt === null); i++) {
        await run(5)
        if (reconnectedAt === null && lines.some((l) => l.msg === 'gateway: portal reachable again; sending kept readings')) reconnectedAt = ctx.clock.ms()
        if (newIntervalAt === null && lines.some((l) => l.msg === 'gateway: polling meter' && l.obj.meter === meterId && l.obj.interval_s === 10)) newIntervalAt = ctx.clock.ms()
      }
      expect(gw.stats().pending).toBe(0)
      // The settings changed while cut off applied as soon as the portal answered, not at the next minute's refresh.
      expect(reconnectedAt).not.toBeNull()
      expect(newIntervalAt).toBe(reconnectedAt)

      expect((await info()).online).toBe(true)
      const after = (await ctx.api().get(`${inst}/charging_stations/${station.id}/`).set(auth(ctx.tokens.admin)).expect(200)).body
      expect(after).toMatchObject({ charging_mode: mode, pending_changes: [] })
      const journal = (await ctx.api().get(`${inst}/charging_stations/${station.id}/journal`).query({ entry_type: 'journal_entry', limit: 1000 }).set(auth(ctx.tokens.admin)).expect(200)).body.results as { detail: string }[]
      expect(journal.filter((e) => e.detail.startsWith('offline_'))).toEqual([expect.objectContaining({ detail: 'offline_applied:charging_mode' })])
    } finally {
      await gw.stop()
    }
  })

  it('a device report counts as a heartbeat at most every 5 s per installation, and only for its own installation', async () => {
    const key = await ctx.key()
    const m = await ctx.meter('main_power')
    const bern = ctx.other.installationId
    const heartbeatOf = async (id: number) => (await ctx.db.selectFrom('installations').select('last_heartbeat_at').where('id', '=', id).executeTakeFirstOrThrow()).last_heartbeat_at
    const bernBefore = await heartbeatOf(bern)
    const send = () => ctx.send(key, [{ meter_id: m.id, timestamp: ctx.clock.now().toISOString(), measurand: 'Power.Active.Import', unit: 'kW', value: 1 }]).expect(202)
    await ctx.clock.advance(10_000)
    await send()
    const first = ctx.clock.ms()
    expect(new Date((await heartbeatOf(ctx.demo))!).getTime()).toBe(first)
    await ctx.clock.advance(2000)
    await send()
    expect(new Date((await heartbeatOf(ctx.demo))!).getTime()).toBe(first)
    await ctx.clock.advance(3000)
    await send()
    expect(new Date((await heartbeatOf(ctx.demo))!).getTime()).toBe(first + 5000)
    expect(await heartbeatOf(bern)).toEqual(bernBefore)
  })
})
