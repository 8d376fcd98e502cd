import mqtt, { type MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClock } from '../../server/lib/clock.ts'
import { createMqttSubscriber, type IngestFn, type MqttSubscriber } from '../../server/devices/mqtt/index.ts'
import { AT, until } from './helpers.ts'
import { startMosquitto } from './mosquitto.ts'
import { recordingLog } from './recording-log.ts'

// The MQTT subscriber (server/devices/mqtt) with Debian's real mosquitto started by the test: readings
// published as JSON or as a plain number reach the ingestion service with via 'mqtt'; bad messages are
// logged with the reason; the broker going away and coming back is survived.
let broker: Awaited<ReturnType<typeof startMosquitto>>
let subscriber: MqttSubscriber
let publisher: MqttClient
const clock = createTestClock(AT.morning)
const { log, lines } = recordingLog()
const calls: { installationId: number; readings: { meter_id: number; timestamp: string; measurand: string; unit: string; value: number }[]; via: string }[] = []
// Set: the service fails with this message (the database went away).
let failWith: string | null = null
const ingest: IngestFn = async (installationId, readings, via) => {
  if (failWith) throw new Error(failWith)
  calls.push({ installationId, readings, via })
  return { accepted: readings.length, duplicates: 0, rejected: [] }
}

beforeAll(async () => {
  broker = await startMosquitto()
  // User and password in the URL (percent-encoded), as MQTT_URL takes them.
  subscriber = createMqttSubscriber({ url: `mqtt://${broker.user}:${encodeURIComponent(broker.password)}@127.0.0.1:${broker.port}`, ingest, clock, log })
  await subscriber.start()
  expect(subscriber.connected()).toBe(true)
  publisher = await mqtt.connectAsync(broker.url, { username: broker.user, password: broker.password, reconnectPeriod: 200 })
})
afterAll(async () => {
  await publisher?.endAsync()
  await subscriber?.stop()
  await broker?.close()
})

/** Warnings logged about `topic` since line `from`. */
const warningsOn = (topic: string, from: number) => lines.slice(from).filter((l) => l.level === 'warn' && l.obj.topic === topic)

/** Publish and wait until the subscriber has handled `expectCalls` more calls. */
async function publish(topic: string, payload: string, expectCalls = 1) {
  const before = calls.length
  await publisher.publishAsync(topic, payload, { qos: 1 })
  await until(() => calls.length >= before + expectCalls, 10_000, `message on ${topic}`)
  await subscriber.drained()
}

/**
 * Publish a bad message and wait until a warning about this topic gives `reason`. QoS 1 is
 * at-least-once: a busy broker may deliver an earlier message again, so the wait looks for this
 * message's warning, not for any new warning (MQTT 3.1.1 §4.3.2).
 */
async function publishBad(topic: string, payload: string, reason: RegExp) {
  const from = lines.length
  await publisher.publishAsync(topic, payload, { qos: 1 })
  await until(() => warningsOn(topic, from).some((w) => reason.test(String(w.obj.reason))), 10_000, `a warning "${reason.source}" on ${topic}`)
  await subscriber.drained()
}

describe('MQTT subscriber', () => {
  it('passes a JSON reading and an array of readings to the ingestion service with via mqtt', async () => {
    const r = { timestamp: '2026-03-04T08:00:00+01:00', measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 1234.5 }
    await publish('cockpit/1/meters/7', JSON.stringify(r))
    expect(calls.at(-1)).toEqual({ installationId: 1, via: 'mqtt', readings: [{ ...r, meter_id: 7 }] })
    await publish('cockpit/1/meters/7', JSON.stringify([r, { ...r, measurand: 'Power.Active.Import', unit: 'W', value: 3200 }]))
    expect(calls.at(-1)!.readings.map((x) => x.measurand)).toEqual(['Energy.Active.Import.Register', 'Power.Active.Import'])
  })

  it('takes a plain number on …/{measurand} in its unit, stamped with the arrival time on the clock', async () => {
    await publish('cockpit/2/meters/9/Power.Active.Import', '3.25')
    expect(calls.at(-1)).toEqual({ installationId: 2, via: 'mqtt', readings: [{ meter_id: 9, timestamp: clock.now().toISOString(), measurand: 'Power.Active.Import', unit: 'kW', value: 3.25 }] })
    await clock.advance(5000)
    await publish('cockpit/2/meters/9/SoC', '81')
    expect(calls.at(-1)!.readings[0]).toMatchObject({ measurand: 'SoC', unit: 'Percent', value: 81, timestamp: clock.now().toISOString() })
  })

  it('logs bad messages with the reason and goes on', async () => {
    const bad: [string, string, RegExp][] = [
      ['cockpit/1/meters/7', '{not json', /not JSON/],
      ['cockpit/1/meters/7', '[]', /empty/],
      ['cockpit/1/meters/7', JSON.stringify({ timestamp: 'x', measurand: 'Voltage', unit: 'V' }), /value missing/],
      ['cockpit/1/meters/7', JSON.stringify({ meter_id: 8, timestamp: 'x', measurand: 'Voltage', unit: 'V', value: 1 }), /not the topic's meter 7/],
      ['cockpit/1/meters/7/Voltage', 'high', /not a number/],
      ['cockpit/1/meters/7/Temperature', '21', /unknown measurand/],
      ['cockpit/abc/meters/7', '{}', /installation id/],
      ['cockpit/1/meters/99999999999/Voltage', '230', /meter id/],
    ]
    const before = calls.length
    for (const [topic, payload, reason] of bad) {
      await publishBad(topic, payload, reason)
    }
    expect(calls.length).toBe(before)
    // A service that throws (e.g. the database went away) is logged too, and the next message goes through.
    failWith = 'database unavailable'
    await publisher.publishAsync('cockpit/3/meters/1/Voltage', '230', { qos: 1 })
    await until(() => lines.some((l) => l.obj.reason === 'database unavailable'), 10_000, 'the failure logged')
    failWith = null
    await publish('cockpit/1/meters/7/Voltage', '231')
    expect(calls.at(-1)!.readings[0].value).toBe(231)
  })

  it('connects again after the broker went away and came back', async () => {
    await broker.stop()
    await until(() => !subscriber.connected(), 10_000, 'the subscriber to notice')
    expect(lines.some((l) => /connecting again/.test(l.msg))).toBe(true)
    await broker.start()
    await until(() => subscriber.connected(), 15_000, 'the subscriber to connect again')
    await until(() => publisher.connected, 15_000, 'the publisher to connect again')
    await publish('cockpit/1/meters/7/Voltage', '229.5')
    expect(calls.at(-1)!.readings[0].value).toBe(229.5)
  })
})
