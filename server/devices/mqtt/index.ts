import crypto from 'node:crypto'
import mqtt, { type MqttClient } from 'mqtt'
import type { FastifyBaseLogger } from 'fastify'
import { MQTT } from '../../../config/defaults.ts'
import type { Clock } from '../../lib/clock.ts'
import { parseMessage, SUBSCRIPTION, type TopicReading } from './topics.ts'

/** The ingestion service as the subscriber calls it (server/domain/ingest: `domain.ingest.ingest`). */
export type IngestFn = (installationId: number, readings: TopicReading[], via: 'mqtt') => Promise<{ accepted: number; duplicates: number; rejected: { index: number; reason: string }[] }>

/**
 * The MQTT subscriber (MQTT_URL; ARCHITECTURE §1 devices): connects to the broker at `url` (mqtt:// or
 * mqtts://; user and password from `username`/`password`, else from the URL), subscribes to every
 * installation's meter topics (server/devices/mqtt/topics.ts; a shared subscription, so several API
 * processes each take a share instead of all storing every message), and passes each message's readings
 * to `ingest(installation, readings, 'mqtt')`, which checks them like the ingestion API's. Messages of
 * one installation are handled in arrival order. A bad message is logged with its reason and dropped;
 * nothing a publisher sends stops the subscriber. The broker going away is logged once; the client
 * connects again every MQTT.reconnectMs.
 */
export function createMqttSubscriber({ url, username, password, ingest, clock, log }: { url: string; username?: string; password?: string; ingest: IngestFn; clock: Clock; log: FastifyBaseLogger }) {
  let client: MqttClient | null = null
  let connected = false
  // The broker's trouble is logged once until it is connected again.
  let troubleLogged = false
  // One chain per installation: its messages are ingested in the order they came.
  const chains = new Map<number, Promise<void>>()

  const u = new URL(url)
  const user = username ?? (u.username ? decodeURIComponent(u.username) : undefined)
  const pass = password ?? (u.password ? decodeURIComponent(u.password) : undefined)
  // The broker's address without the credentials, for the log.
  const where = `${u.protocol}//${u.host}`

  function handle(topic: string, payload: Buffer) {
    const parsed = parseMessage(topic, payload, clock.now().toISOString())
    if (!parsed.ok) {
      log.warn({ topic, reason: parsed.reason }, 'mqtt: message refused')
      return
    }
    const id = parsed.installationId
    const next = (chains.get(id) ?? Promise.resolve()).then(async () => {
      try {
        const result = await ingest(id, parsed.readings, 'mqtt')
        if (result.rejected.length) log.warn({ topic, rejected: result.rejected.slice(0, 5) }, 'mqtt: readings refused')
      } catch (err) {
        log.warn({ topic, reason: (err as Error).message }, 'mqtt: message refused')
      }
    })
    chains.set(id, next)
    void next.then(() => {
      if (chains.get(id) === next) chains.delete(id)
    })
  }

  return {
    /** Connect and subscribe; resolves once the first connection is made or failed (it keeps trying). */
    start(): Promise<void> {
      return new Promise((resolve) => {
        client = mqtt.connect(url, {
          username: user,
          password: pass,
          clientId: `cockpit-${crypto.randomBytes(6).toString('hex')}`,
          protocolVersion: 5,
          reconnectPeriod: MQTT.reconnectMs,
          connectTimeout: 10_000,
        })
        client.on('connect', () => {
          if (!connected) log.info({ broker: where }, 'mqtt: connected')
          connected = true
          troubleLogged = false
          client!.subscribe(SUBSCRIPTION, { qos: 1 }, (err) => {
            if (err) log.error({ broker: where, reason: err.message }, 'mqtt: subscription refused')
            resolve()
          })
        })
        client.on('message', (topic, payload) => handle(topic, payload))
        client.on('error', (err) => {
          if (!troubleLogged) log.warn({ broker: where, reason: err.message }, 'mqtt: broker error; connecting again')
          troubleLogged = true
          resolve()
        })
        client.on('close', () => {
          if (connected && !troubleLogged) log.warn({ broker: where }, 'mqtt: connection lost; connecting again')
          if (connected) troubleLogged = true
          connected = false
          resolve()
        })
      })
    },
    /** Disconnect, after the messages already received are ingested. */
    async stop(): Promise<void> {
      await client?.endAsync()
      client = null
      await Promise.all(chains.values())
    },
    /** Whether the broker connection is up (for readiness). */
    connected: () => connected,
    /** Resolves once every message received so far has been ingested (or refused). */
    async drained(): Promise<void> {
      while (chains.size) await Promise.all(chains.values())
    },
  }
}
export type MqttSubscriber = ReturnType<typeof createMqttSubscriber>
