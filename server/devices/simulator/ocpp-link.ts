import crypto from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import ocppRpc from 'ocpp-rpc'
import type { Domain } from '../../domain/index.ts'
import type { SetChargingProfile } from '../../domain/ocpp/profiles.ts'
import type { StationStatus } from '../../../shared/rules/status.ts'
import type { StationOutput } from './physics.ts'

type Client = InstanceType<typeof ocppRpc.RPCClient>

/** The idTag a simulated charger sends when a car charges without a card (a free-charging charger's own tag). */
export const FREE_TAG = 'SIM-FREE'

/** Mains as profiles.ts converts: a limit of A per phase at 3 × 230 V, in kW. */
const kwOf = (amps: number) => (amps * 3 * 230) / 1000

/** What one simulated charge point knows: its connection, last status sent, meter register and transaction. */
interface SimPoint {
  id: string
  stationId: number
  client: Client
  ready: boolean
  status: string | null
  registerWh: number
  transactionId: number | null
  profile: SetChargingProfile['csChargingProfiles'] | null
  lastSentAt: number
  heartbeatMs: number
}

/**
 * The station's SPEC §4 status as an OCPP 1.6 ChargePointStatus (the inverse of the central system's
 * mapping, server/domain/ocpp/service.ts stationStatusOf).
 */
export function ocppStatusOf(status: StationStatus, inTransaction: boolean): string {
  switch (status) {
    case 'charging':
      return 'Charging'
    case 'carPluggedIn':
      return inTransaction ? 'SuspendedEV' : 'Preparing'
    case 'notBadgedIn':
      return 'Preparing'
    case 'off':
      return 'Unavailable'
    case 'failure':
      return 'Faulted'
    default:
      return 'Available'
  }
}

/**
 * The limit a TxDefaultProfile sets at `t`, kW (null: no profile). Absolute profiles hold their first
 * period; weekly recurring ones repeat from their startSchedule (OCPP 1.6 §3.13.2).
 */
export function profileLimitKw(p: SetChargingProfile['csChargingProfiles'] | null, t: Date): number | null {
  if (!p) return null
  const periods = p.chargingSchedule.chargingSchedulePeriod
  let offset = 0
  if (p.chargingProfileKind === 'Recurring' && p.chargingSchedule.startSchedule) {
    const week = 7 * 86_400
    offset = ((((t.getTime() - Date.parse(p.chargingSchedule.startSchedule)) / 1000) % week) + week) % week
  }
  const current = periods.filter((x) => x.startPeriod <= offset).at(-1) ?? periods[0]
  return current ? kwOf(current.limit) : null
}

export interface SimOcppLink {
  /** Bind (once) and connect the simulated charge points of `stationIds`. */
  ensure(stationIds: number[]): Promise<void>
  /** Stations whose charge point is connected and booted: the simulator reports them over OCPP. */
  has(stationId: number): boolean
  /** The charging limit the central system set for the station at `t`, kW (null: none). */
  limitKw(stationId: number, t: Date): number | null
  /**
   * Report one step of a station as its charge point would: StatusNotification on a change,
   * Authorize/StartTransaction when a car starts (its card's tag, or {@link FREE_TAG}), MeterValues while
   * charging, StopTransaction when it leaves, Heartbeat when otherwise quiet. A car the central system
   * refuses is marked refused. `tagOf` gives a card's tag; `stepStart` is when the simulation step that
   * ends at `t` began (a transaction whose car charged in the step is stamped then).
   */
  report(o: StationOutput, t: Date, tagOf: (rfidId: number) => string | undefined, stepStart?: Date): Promise<void>
  /** A car at a learning station presents an unknown card: Authorize with it (the central system keeps it pending). */
  presentTag(stationId: number, tag: string): Promise<void>
  close(): Promise<void>
}

/**
 * SIM_OCPP=on: the simulated stations are OCPP 1.6J charge points (ocpp-rpc clients,
 * strict mode) connected over WebSocket to the central system at `url()`, with HTTP Basic passwords
 * made at start. They obey the central system: a charging profile caps the station's power. Their
 * heartbeat spacing, connection retries and timestamps follow `domain.clock` (ARCHITECTURE §1 "Time"),
 * as the central system's heartbeat check does; ocpp-rpc's reconnect backoff stays real time.
 */
export function createSimOcppLink({ domain, url, log }: { domain: Domain; url: () => string; log: FastifyBaseLogger }): SimOcppLink {
  const points = new Map<number, SimPoint>()
  const connecting = new Map<number, Promise<void>>()
  const failedAt = new Map<number, number>()
  const clock = domain.clock

  async function connect(stationId: number): Promise<void> {
    const id = `SIM-${stationId}`
    const password = crypto.randomBytes(18).toString('base64url')
    if (!(await domain.ocpp.bindSimulated(stationId, id, password))) return
    const resume = await domain.ocpp.openTransactionOf(id)
    const client = new ocppRpc.RPCClient({
      endpoint: `${url().replace(/^http/, 'ws')}/ocpp`, identity: id, password, protocols: ['ocpp1.6'], strictMode: true,
      reconnect: true, backoff: { initialDelay: 1000, maxDelay: 30_000, factor: 2, randomisationFactor: 0.25 },
    } as never)
    const point: SimPoint = { id, stationId, client, ready: false, status: null, registerWh: resume?.lastMeterWh ?? 0, transactionId: null, profile: null, lastSentAt: 0, heartbeatMs: 60_000 }
    client.handle('SetChargingProfile', async ({ params }) => {
      point.profile = (params as SetChargingProfile).csChargingProfiles
      return { status: 'Accepted' }
    })
    for (const method of ['ChangeAvailability', 'ChangeConfiguration', 'RemoteStartTransaction', 'RemoteStopTransaction']) client.handle(method, async () => ({ status: 'Accepted' }))
    client.handle('UnlockConnector', async () => ({ status: 'Unlocked' }))
    // OCPP 1.6 §5.17: asked for its status, the simulated charger reports it with its next step.
    client.handle('TriggerMessage', async ({ params }) => {
      if ((params as { requestedMessage?: string }).requestedMessage !== 'StatusNotification') return { status: 'NotImplemented' }
      point.status = null
      return { status: 'Accepted' }
    })
    const boot = async () => {
      const r = (await client.call('BootNotification', { chargePointVendor: 'Cockpit', chargePointModel: 'Simulator' })) as { interval: number }
      point.heartbeatMs = r.interval * 1000
      point.status = null
      point.lastSentAt = clock.ms()
      point.ready = true
    }
    let connectedOnce = false
    // Back after a lost connection: boot again, as a charger does.
    client.on('open', () => {
      if (connectedOnce) void boot().catch((err) => log.warn({ err, chargePoint: id }, 'simulated charge point boot failed'))
    })
    client.on('close', () => (point.ready = false))
    points.set(stationId, point)
    await client.connect().catch((err) => {
      points.delete(stationId)
      void client.close({ force: true }).catch(() => undefined)
      throw err
    })
    connectedOnce = true
    await boot()
    // A transaction left open by an earlier run ends as a rebooted charger ends it (OCPP 1.6 §4.10), so
    // its session is priced and the next car starts a new one.
    if (resume) await send(point, 'StopTransaction', { transactionId: resume.id, meterStop: Math.round(resume.lastMeterWh), timestamp: clock.now().toISOString(), reason: 'Reboot' })
  }

  async function send(p: SimPoint, method: string, params: unknown): Promise<any> {
    p.lastSentAt = clock.ms()
    return p.client.call(method, params)
  }

  return {
    async ensure(stationIds) {
      for (const stationId of stationIds) {
        // A failed connection is tried again after a minute of the clock, not at every 5 s step (each try
        // hashes a password).
        if (points.has(stationId) || clock.ms() - (failedAt.get(stationId) ?? -Infinity) < 60_000) continue
        let c = connecting.get(stationId)
        if (!c) {
          c = connect(stationId).catch((err) => {
            failedAt.set(stationId, clock.ms())
            log.warn({ err, station: stationId }, 'simulated charge point could not connect')
          }).finally(() => connecting.delete(stationId))
          connecting.set(stationId, c)
        }
        await c
      }
    },
    has: (stationId) => points.get(stationId)?.ready === true,
    limitKw: (stationId, t) => profileLimitKw(points.get(stationId)?.profile ?? null, t),
    async report(o, t, tagOf, stepStart = t) {
      const p = points.get(o.stationId)
      if (!p?.ready) return
      const timestamp = t.toISOString()
      if (o.departed && p.transactionId !== null) {
        await send(p, 'StopTransaction', { transactionId: p.transactionId, meterStop: Math.round(p.registerWh), timestamp, reason: 'EVDisconnected' })
        p.transactionId = null
      }
      if (o.car && !o.car.refused && o.car.sessionId === null && o.status !== 'off' && p.transactionId === null) {
        const idTag = (o.car.rfid && tagOf(o.car.rfid.id)) || FREE_TAG
        if (idTag !== FREE_TAG) {
          const a = (await send(p, 'Authorize', { idTag })) as { idTagInfo: { status: string } }
          if (a.idTagInfo.status !== 'Accepted') o.car.refused = true
        }
        if (!o.car.refused) {
          // A car that charged during this step started at its beginning: its energy is within what the
          // station can deliver since the start (docs/decisions.md "Charging: plausible charger figures and debit ceilings").
          const startedAt = o.energyKwh > 0 ? stepStart.toISOString() : timestamp
          const r = (await send(p, 'StartTransaction', { connectorId: 1, idTag, meterStart: Math.round(p.registerWh), timestamp: startedAt })) as { transactionId: number; idTagInfo: { status: string } }
          if (r.idTagInfo.status === 'Accepted') {
            p.transactionId = r.transactionId
            o.car.sessionId = await domain.ocpp.sessionOfTransaction(r.transactionId)
          } else {
            // Refused after all: the charger ends the transaction it had to open (OCPP 1.6 §5.11).
            await send(p, 'StopTransaction', { transactionId: r.transactionId, meterStop: Math.round(p.registerWh), timestamp, reason: 'DeAuthorized' })
            o.car.refused = true
          }
        }
      }
      const status = ocppStatusOf(o.car?.refused ? 'notBadgedIn' : o.status, p.transactionId !== null)
      if (status !== p.status) {
        await send(p, 'StatusNotification', { connectorId: 1, status, errorCode: status === 'Faulted' ? 'OtherError' : 'NoError', timestamp })
        p.status = status
      }
      if (p.transactionId !== null && o.energyKwh > 0) {
        p.registerWh += o.energyKwh * 1000
        await send(p, 'MeterValues', {
          connectorId: 1, transactionId: p.transactionId,
          meterValue: [{ timestamp, sampledValue: [
            { value: p.registerWh.toFixed(1), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
            { value: (o.powerKw * 1000).toFixed(0), measurand: 'Power.Active.Import', unit: 'W' },
          ] }],
        })
      }
      if (clock.ms() - p.lastSentAt > p.heartbeatMs / 2) await send(p, 'Heartbeat', {})
    },
    async presentTag(stationId, tag) {
      const p = points.get(stationId)
      if (p?.ready) await send(p, 'Authorize', { idTag: tag })
    },
    async close() {
      await Promise.all([...points.values()].map((p) => p.client.close({ force: true }).catch(() => undefined)))
      points.clear()
    },
  }
}
