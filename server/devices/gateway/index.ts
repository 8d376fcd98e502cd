import fs from 'node:fs/promises'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { GATEWAY } from '../../../config/defaults.ts'
import { GatewayConfig, type GatewayMeter } from '../../../shared/schemas/gateway.ts'
import type { Clock, ClockTimer } from '../../lib/clock.ts'
import { createModbusDevice, type ModbusDevice } from './modbus.ts'
import { openJournal, type Journal } from './journal.ts'
import { createForwarder, reasonOf, type Forwarder } from './forwarder.ts'
import { toReadings, type GatewayReading } from './registers.ts'

/** What a running gateway has done since it started (for its log and for tests). */
export interface GatewayStats {
  /** Readings taken from devices and written to the journal. */
  read: number
  /** Readings the portal acknowledged (accepted, duplicates or rejected with a reason). */
  sent: number
  /** Readings on disk waiting to be sent. */
  pending: number
  /** Device reads that failed. */
  readErrors: number
}

/**
 * The facility gateway (ROLES=gateway; ARCHITECTURE §1 devices): it asks the portal at `url`
 * (GATEWAY_URL) with the device key `key` (GATEWAY_KEY) which meters to read (GET /api/ingest/v1/config,
 * every GATEWAY.configRefreshMs, kept in `dir` for a start while the portal cannot be reached), reads
 * each Modbus meter every `interval_s` of its source_config, appends the readings to the journal in
 * `dir` (GATEWAY_DIR) and forwards them in order, in batches, to POST /api/ingest/v1/readings. While
 * the portal cannot be reached they stay on disk, across restarts, and go out in order once it answers
 * (docs/decisions.md "Gateway: a disk journal"); then it asks for its meters at once, so what the portal
 * changed meanwhile applies, and its first report brings the facility online at the portal, which sends
 * the changes that waited for it (SPEC §4 offline queue, domain.devices.reported). All waiting is on `clock`.
 */
export function createGateway({ url, key, dir, clock, log }: { url: string; key: string; dir: string; clock: Clock; log: FastifyBaseLogger }) {
  const base = url.replace(/\/+$/, '')
  const configFile = path.join(dir, 'config.json')
  const meters = new Map<number, { signature: string; device: ModbusDevice; timer: ClockTimer; busy: boolean; failing: boolean }>()
  let journal: Journal<GatewayReading> | null = null
  let forwarder: Forwarder | null = null
  let refreshTimer: ClockTimer | undefined
  let stopped = false
  const stats = { read: 0, readErrors: 0 }
  let configFailing = false
  // Work under way (device reads, config fetches, sends): settled() waits for none.
  let active = 0
  let idleWaiters: (() => void)[] = []
  const begin = () => void active++
  const end = () => {
    if (--active === 0) for (const w of idleWaiters.splice(0)) w()
  }

  /** Apply the portal's list of meters: new or changed devices start polling, removed ones stop. */
  function apply(config: GatewayConfig) {
    const wanted = new Map(config.meters.filter((m): m is GatewayMeter & { source_config: NonNullable<GatewayMeter['source_config']> } => m.source_config !== null).map((m) => [m.id, m]))
    for (const [id, m] of meters) {
      const w = wanted.get(id)
      if (!w || JSON.stringify([w.meter_type, w.source_config]) !== m.signature) {
        clock.clearInterval(m.timer)
        m.device.close()
        meters.delete(id)
      }
    }
    for (const [id, m] of wanted) {
      if (meters.has(id)) continue
      const device = createModbusDevice(m.source_config, m.meter_type)
      const entry = { signature: JSON.stringify([m.meter_type, m.source_config]), device, busy: false, failing: false, timer: clock.setInterval(() => void poll(id), m.source_config.interval_s * 1000) }
      meters.set(id, entry)
      log.info({ meter: id, host: m.source_config.host, port: m.source_config.port, model: m.source_config.model, interval_s: m.source_config.interval_s }, 'gateway: polling meter')
    }
  }

  /** Read meter `id` once and journal its readings; a read still running is not started twice. */
  async function poll(id: number) {
    const m = meters.get(id)
    if (!m || m.busy || stopped) return
    m.busy = true
    begin()
    const timestamp = clock.now().toISOString()
    try {
      const readings = toReadings(id, timestamp, await m.device.read())
      await journal!.append(readings)
      stats.read += readings.length
      if (m.failing) log.info({ meter: id }, 'gateway: meter answers again')
      m.failing = false
      forwarder!.wake()
    } catch (err) {
      stats.readErrors++
      // One warning when a meter stops answering, not one per interval.
      if (!m.failing) log.warn({ meter: id, reason: (err as Error).message }, 'gateway: meter read failed')
      m.failing = true
    } finally {
      m.busy = false
      end()
    }
  }

  /** Fetch the meters from the portal (kept on disk); when it cannot be reached, the last copy kept. */
  async function refreshConfig() {
    begin()
    try {
      const res = await fetch(`${base}/api/ingest/v1/config`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' }, signal: AbortSignal.timeout(GATEWAY.requestTimeoutMs) })
      if (!res.ok) throw new Error(`HTTP ${res.status}${res.status === 401 ? ' (GATEWAY_KEY refused: revoked or unknown)' : ''}`)
      const config = GatewayConfig.parse(await res.json())
      await fs.writeFile(`${configFile}.tmp`, JSON.stringify(config))
      await fs.rename(`${configFile}.tmp`, configFile)
      if (!stopped) apply(config)
      configFailing = false
    } catch (err) {
      // One warning when the portal stops answering, not one a minute.
      if (!configFailing) log.warn({ reason: reasonOf(err) }, 'gateway: could not fetch its meters from the portal; using the last copy')
      configFailing = true
      if (!meters.size && !stopped) {
        const kept = await fs.readFile(configFile, 'utf8').then((t) => GatewayConfig.safeParse(JSON.parse(t)), () => null)
        if (kept?.success) apply(kept.data)
      }
    } finally {
      end()
    }
  }

  return {
    /** Open the journal, start sending what it holds, fetch the meters and start polling them. */
    async start(): Promise<void> {
      journal = await openJournal<GatewayReading>(dir)
      // Back in touch: the meters' settings changed at the portal meanwhile apply now, not at the next refresh.
      forwarder = createForwarder({ url: base, key, journal, clock, log, begin, end, onReconnect: () => void refreshConfig() })
      if (journal.pending()) log.info({ pending: journal.pending() }, 'gateway: unsent readings on disk')
      forwarder.start()
      await refreshConfig()
      refreshTimer = clock.setInterval(() => void refreshConfig(), GATEWAY.configRefreshMs)
    },

    /** Stop polling and sending; what is not yet sent stays on disk for the next start. */
    async stop(): Promise<void> {
      stopped = true
      clock.clearInterval(refreshTimer)
      for (const m of meters.values()) {
        clock.clearInterval(m.timer)
        m.device.close()
      }
      meters.clear()
      await forwarder?.stop()
      if (active) await new Promise<void>((resolve) => idleWaiters.push(resolve))
    },

    /** Resolves once no device read, config fetch or send is under way (waits on the clock do not count). */
    settled(): Promise<void> {
      return active === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))
    },

    /** Counts since the start; `pending` is what waits on disk. */
    stats(): GatewayStats {
      return { read: stats.read, readErrors: stats.readErrors, sent: forwarder?.sent() ?? 0, pending: journal?.pending() ?? 0 }
    },
  }
}
export type Gateway = ReturnType<typeof createGateway>
