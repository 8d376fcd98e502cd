import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import type { Registry } from 'prom-client'
import ocppRpc from 'ocpp-rpc'
import type { Domain } from '../../domain/index.ts'
import type { ChargePointRef } from '../../domain/ocpp/service.ts'
import { OCPP } from '../../../config/defaults.ts'
import type { OfflineGap } from '../../domain/ocpp/plausibility.ts'
import type { ClockTimer } from '../../lib/clock.ts'
import { ocpp16Validator, speakOcpp16Errors } from './protocol.ts'
import { createAuthGuard } from './guard.ts'
import { ocppMetrics } from './metrics.ts'
import { handleMessages } from './handlers.ts'

const { RPCServer, createRPCError } = ocppRpc

/** The WebSocket path of charge points: ws(s)://HOST/ocpp/{chargePointId}. */
export const OCPP_PATH = '/ocpp'

type RpcServerClient = {
  identity: string
  session: { cp: ChargePointRef }
  handle(method: string, handler: (call: { params: any }) => unknown): void
  handle(handler: (call: { method: string; params: any }) => unknown): void
  call(method: string, params?: unknown): Promise<any>
  sendRaw(message: string): void
  close(options?: { code?: number; reason?: string; force?: boolean }): Promise<unknown>
  on(event: string, listener: (...args: any[]) => void): void
}

/** What this process knows of a connected charge point, between flushes to the database. */
interface Link {
  client: RpcServerClient
  cp: ChargePointRef
  lastAt: Date | null
  in: number
  out: number
  /** Marked silent (status code 18) or not known not to be: the next message clears it. */
  silent: boolean
  /** Messages of one charge point are handled one after another (a StopTransaction after its MeterValues). */
  chain: Promise<unknown>
  /** Heard from on this connection: commands may be sent (OCPP: not before the charge point spoke). */
  ready: boolean
  closed: boolean
  delivering: boolean
  /** The last solar limit sent (A), so a moving surplus is re-sent only when it changed. */
  solarAmps?: number
  /** The charger's offline gap before this connection: queued messages stamped in it keep their time. */
  gap: Promise<OfflineGap | null>
}

/** Counters for the benchmark (Prometheus: server/devices/ocpp/metrics.ts). */
export interface OcppStats {
  connected: number
  messagesIn: number
  messagesOut: number
  refused: number
}

export interface OcppServer {
  /** For the server's 'upgrade' event: takes /ocpp/{id} (true), leaves other paths alone (false). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** Flush activity and mark silent charge points now (tests drive the clock with this). */
  sweep(now?: Date): Promise<void>
  start(): void
  stop(): Promise<void>
  /** Whether charge points are accepted now: started and not stopping (GET /api/ready). */
  accepting(): boolean
  stats(): OcppStats
  /** Whether charge point `id` is connected to this process. */
  isConnected(id: string): boolean
  /**
   * Close charge point `id`'s connection to this process (its password changed or its station went):
   * it must connect again with valid credentials. False when it is not connected here.
   */
  disconnect(id: string): boolean
}

/**
 * The OCPP 1.6J central system: charge points connect over WebSocket (subprotocol ocpp1.6,
 * strict schema validation by ocpp-rpc) with HTTP Basic auth (security profile 1), are refused at the
 * upgrade when unknown or the password is wrong, and their messages go through the domain's OCPP service.
 * Silence for 2 heartbeat intervals marks the station offline (status code 18, alert offline).
 * "Now" (currentTime, last message, silence) and the sweep's timer are `domain.clock`'s
 * (ARCHITECTURE §1 "Time"); only the 2 s grace of a closing connection is real time. Its Prometheus
 * figures go into `registry`, the process's (server/lib/metrics.ts).
 */
export function createOcppServer({ domain, log, registry, heartbeatSeconds = OCPP.heartbeatSeconds }: { domain: Domain; log: FastifyBaseLogger; registry: Registry; heartbeatSeconds?: number }): OcppServer {
  const clock = domain.clock
  const now = () => clock.now()
  const ocpp = domain.ocpp
  // Strict mode with OCPP-J 1.6 §4.2.3 error codes (protocol.ts): unknown actions are NotImplemented.
  const rpc = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true, strictModeValidators: [ocpp16Validator()], callTimeoutMs: 30_000 } as never)
  const guard = createAuthGuard(() => clock.ms())
  const links = new Map<string, Link>()
  const totals = { messagesIn: 0, messagesOut: 0, refused: 0 }
  // Per charge point since this process started: messages each way and the last one heard.
  const perCp = new Map<string, { in: number; out: number; lastAt: number }>()
  const messageMetrics = ocppMetrics(registry, { connected: () => links, perCp, totals })
  // Charge points that were connected here since the last flush, and the counts still to write.
  const dirty = new Set<string>()
  const leftSinceFlush = new Map<string, Link>()
  const silenceMs = heartbeatSeconds * 1000 * OCPP.missedHeartbeats
  let timer: ClockTimer | undefined
  let stopped = false
  let started = false
  let sweeping: Promise<void> | null = null

  rpc.auth((accept, reject, handshake) => {
    const ip = handshake.remoteAddress ?? 'unknown'
    const refuse = (code: number, reason: string) => {
      totals.refused++
      log.warn({ chargePoint: handshake.identity, ip, reason }, 'OCPP connection refused')
      reject(code, reason)
    }
    if (handshake.endpoint !== OCPP_PATH) return refuse(404, 'not found')
    if (!handshake.protocols.has('ocpp1.6')) return refuse(400, 'subprotocol ocpp1.6 required')
    // Password guesses slowed (guard.ts): while an id or IP waits, it is refused without a check.
    if (guard.wait(handshake.identity, ip) > 0) return refuse(429, 'too many failed attempts, try later')
    const password = handshake.password ? handshake.password.toString('utf8') : null
    ocpp.authenticate(handshake.identity, password).then(
      (cp) => {
        if (cp) {
          guard.succeeded(handshake.identity, ip)
          return accept({ cp }, 'ocpp1.6')
        }
        guard.failed(handshake.identity, ip)
        refuse(401, password === null ? 'no password' : 'unknown charge point or wrong password')
      },
      (err) => {
        log.error({ err }, 'OCPP authentication failed')
        reject(500, 'server error')
      },
    )
  })

  rpc.on('client', (client: RpcServerClient) => {
    const cp = client.session.cp
    speakOcpp16Errors(client)
    const earlier = links.get(cp.id)
    // A charge point that reconnects before its old socket timed out: the new connection wins.
    if (earlier) void earlier.client.close({ code: 1000, reason: 'replaced by a new connection' })
    // The gap this charger was really offline: from its last message before (heard here, or stored) to now.
    const connectedAt = now()
    const heardHere = perCp.get(cp.id)?.lastAt
    const gap = ocpp.lastHeard(cp.id).then((stored) => {
      const known = [heardHere ? new Date(heardHere) : null, stored].filter((d): d is Date => d !== null && d <= connectedAt)
      return known.length ? { from: new Date(Math.max(...known.map((d) => d.getTime()))), to: connectedAt } : null
    }, () => null)
    const link: Link = { client, cp, lastAt: null, in: 0, out: 0, silent: true, chain: Promise.resolve(), ready: false, closed: false, delivering: false, gap }
    links.set(cp.id, link)
    dirty.add(cp.id)
    log.info({ chargePoint: cp.id, station: cp.stationId }, 'OCPP charge point connected')
    let counts = perCp.get(cp.id)
    if (!counts) perCp.set(cp.id, (counts = { in: 0, out: 0, lastAt: 0 }))
    const c = counts
    client.on('message', ({ message, outbound }: { message: Buffer | string; outbound: boolean }) => {
      if (outbound) {
        link.out++
        c.out++
        totals.messagesOut++
      } else {
        link.in++
        c.in++
        totals.messagesIn++
        link.lastAt = now()
        c.lastAt = link.lastAt.getTime()
      }
      dirty.add(cp.id)
      log.debug({ chargePoint: cp.id, outbound, frame: message.toString() }, 'OCPP frame')
    })
    client.on('close', ({ code, reason }: { code: number; reason: string }) => {
      link.closed = true
      if (links.get(cp.id) === link) {
        links.delete(cp.id)
        leftSinceFlush.set(cp.id, link)
      }
      dirty.add(cp.id)
      log.info({ chargePoint: cp.id, code, reason: String(reason ?? '') }, 'OCPP charge point disconnected')
    })

    /** Run `fn` after the charge point's earlier messages; clears the silent mark first. */
    const serial = <T>(fn: (ref: ChargePointRef) => Promise<T>): Promise<T> => {
      const next = link.chain.then(async () => {
        if (link.silent) {
          link.silent = false
          await ocpp.heardAgain(cp)
          // Connected again or heard again after silence: what the charger says now, not what it said before
          // (OCPP 1.6 §5.17 "Trigger Message"; without connectorId it reports every connector, 0 included).
          await ocpp.enqueue(cp, 'TriggerMessage', { requestedMessage: 'StatusNotification' })
        }
        // Handling time for the metrics: a duration (performance.now()), not a time of day.
        const started = performance.now()
        let out: T
        try {
          out = await fn(cp)
        } catch (err) {
          messageMetrics.handled((performance.now() - started) / 1000, true)
          throw err
        }
        messageMetrics.handled((performance.now() - started) / 1000, false)
        if (!link.ready) {
          link.ready = true
          setImmediate(() => void deliver(link))
        }
        return out
      })
      link.chain = next.catch(() => undefined)
      return next.catch((err) => {
        log.error({ err, chargePoint: cp.id }, 'OCPP message failed')
        throw createRPCError('InternalError', 'the central system could not handle the message')
      })
    }
    handleMessages(client, { cp, ocpp, serial, now, silenceMs, heartbeatSeconds, gap: link.gap })
  })

  /** Send the charge point's queued commands in order; one that the connection lost waits for the next. */
  async function deliver(link: Link): Promise<void> {
    if (link.delivering || link.closed || !link.ready) return
    link.delivering = true
    try {
      for (;;) {
        const cmds = await ocpp.queued(link.cp.id)
        if (!cmds.length) return
        for (const cmd of cmds) {
          if (link.closed) return
          if (!(await ocpp.sending(cmd.id))) continue
          try {
            const answer = (await link.client.call(cmd.action, cmd.payload)) as { status?: string } | undefined
            await ocpp.answered(cmd, answer?.status ?? 'Accepted', answer)
          } catch (err) {
            if (link.closed) {
              await ocpp.requeue(cmd.id)
              return
            }
            // A CALLERROR keeps its OCPP-J 1.6 §4.2.3 code (ocpp-rpc's rpcErrorCode) for the admin who sent it.
            const e = err as Error & { rpcErrorCode?: string }
            await ocpp.answered(cmd, 'failed', { error: e.rpcErrorCode ? `${e.rpcErrorCode}: ${e.message}` : e.message })
          }
        }
      }
    } catch (err) {
      log.error({ err, chargePoint: link.cp.id }, 'OCPP command delivery failed')
    } finally {
      link.delivering = false
    }
  }
  const unlisten = ocpp.onCommand((id) => {
    const link = links.get(id)
    if (link) void deliver(link)
  })

  /** Solar stations follow the PV surplus: their limit is re-evaluated every minute. */
  async function followSun(at: Date): Promise<void> {
    // One query finds the solar stations, so 500 charge points do not cost 500 profile reads a minute.
    const solar = await ocpp.stationsInMode([...links.values()].filter((l) => l.ready).map((l) => l.cp.stationId), 'solar')
    for (const link of links.values()) {
      if (!link.ready || !solar.has(link.cp.stationId)) continue
      const p = await ocpp.profileOf(link.cp.stationId, at)
      if (!p || p.mode !== 'solar') continue
      const amps = p.profile.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit
      if (link.solarAmps === amps) continue
      link.solarAmps = amps
      await ocpp.enqueue(p.cp, 'SetChargingProfile', p.profile as unknown as Record<string, unknown>)
    }
  }
  let lastSun = 0

  async function flush(): Promise<Map<string, Date>> {
    const rows = [...dirty].map((id) => {
      const link = links.get(id) ?? leftSinceFlush.get(id)
      const row = { id, connected: links.has(id), lastMessageAt: link?.lastAt ?? null, in: link?.in ?? 0, out: link?.out ?? 0 }
      if (link) link.in = link.out = 0
      return row
    })
    dirty.clear()
    leftSinceFlush.clear()
    await ocpp.flushActivity(rows)
    const heard = new Map<string, Date>()
    for (const [id, link] of links) if (link.lastAt) heard.set(id, link.lastAt)
    return heard
  }

  async function sweep(at = now()): Promise<void> {
    const heard = await flush()
    const silent = await ocpp.markSilent(new Date(at.getTime() - silenceMs), heard)
    // Commands queued by another process (or while delivery was busy) go out here at the latest.
    for (const id of await ocpp.withQueued()) {
      const link = links.get(id)
      if (link) void deliver(link)
    }
    if (at.getTime() - lastSun >= 60_000) {
      lastSun = at.getTime()
      await followSun(at)
    }
    for (const id of silent) {
      const link = links.get(id)
      if (link) link.silent = true
      log.warn({ chargePoint: id }, 'OCPP charge point silent for 2 heartbeat intervals: offline')
    }
  }

  const sweepMs = Math.min(OCPP.flushMs, Math.max(100, (heartbeatSeconds * 1000) / 4))
  return {
    handleUpgrade(req, socket, head) {
      const path = (req.url ?? '/').split('?')[0]
      if (path !== OCPP_PATH && !path.startsWith(`${OCPP_PATH}/`)) return false
      void rpc.handleUpgrade(req, socket as never, head)
      return true
    },
    sweep: (at) => (sweeping ??= sweep(at).finally(() => (sweeping = null))),
    start() {
      started = true
      stopped = false
      void ocpp.disconnectAll().catch((err) => log.error({ err }, 'OCPP start failed'))
      const tick = () => {
        if (stopped) return
        timer = clock.setTimeout(() => {
          void (sweeping ??= sweep().finally(() => (sweeping = null)))
            .catch((err) => log.error({ err }, 'OCPP sweep failed'))
            .finally(tick)
        }, sweepMs)
        timer.unref()
      }
      tick()
    },
    async stop() {
      stopped = true
      unlisten()
      clock.clearTimeout(timer)
      const ids = [...links.keys()]
      // A clean close (1001), unless a charge point does not answer it within 2 s.
      const closing = rpc.close({ code: 1001, reason: 'server shutting down' }).catch(() => undefined)
      const late = setTimeout(() => void rpc.close({ force: true }).catch(() => undefined), 2000)
      await closing
      clearTimeout(late)
      await sweeping
      await ocpp.settleSamples().catch(() => undefined)
      await ocpp.disconnectAll(ids).catch(() => undefined)
    },
    accepting: () => started && !stopped,
    stats: () => ({ connected: links.size, ...totals }),
    isConnected: (id) => links.has(id),
    disconnect(id) {
      const link = links.get(id)
      if (!link) return false
      // 1008 policy violation (RFC 6455 §7.4.1): its credentials are no longer valid.
      void link.client.close({ code: 1008, reason: 'credentials changed' }).catch(() => undefined)
      return true
    },
  }
}
