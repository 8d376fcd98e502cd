/**
 * The MQTT topics Cockpit reads meter readings from (README "MQTT"), as pure parsing:
 *
 * - `cockpit/{installation_id}/meters/{meter_id}`: a JSON reading or an array of them, as
 *   POST /api/ingest/v1/readings takes them (timestamp, measurand, unit, value); the meter is the
 *   topic's (a reading naming another meter is refused);
 * - `cockpit/{installation_id}/meters/{meter_id}/{measurand}`: a plain number in the measurand's own
 *   unit ({@link PLAIN_UNITS}), stamped with its arrival time on the server's clock.
 */

/** The unit a plain number is read in, per measurand (the units the portal stores). */
export const PLAIN_UNITS: Readonly<Record<string, string>> = {
  'Energy.Active.Import.Register': 'kWh',
  'Energy.Active.Export.Register': 'kWh',
  'Energy.Heat.Register': 'kWh',
  'Power.Active.Import': 'kW',
  'Power.Active.Export': 'kW',
  SoC: 'Percent',
  Voltage: 'V',
  'Current.Import': 'A',
  Volume: 'm3',
}

/** The subscription: every meter topic of every installation, shared among Cockpit's API processes (MQTT 5 §4.8.2). */
export const SUBSCRIPTION = '$share/cockpit/cockpit/+/meters/#'

/** A reading as the ingestion service takes it (shared/schemas/ingest.ts IngestReading). */
export interface TopicReading {
  meter_id: number
  timestamp: string
  measurand: string
  unit: string
  value: number
}

/** What a message carried: an installation's readings, or why it was refused. */
export type Parsed = { ok: true; installationId: number; readings: TopicReading[] } | { ok: false; reason: string }

const ID = /^[1-9]\d{0,9}$/
/** Most readings one message may carry (the ingestion API's batch limit). */
const MAX_READINGS = 10_000

/**
 * Parse a message on `topic` with `payload`, received at `now` (ISO 8601). Fields other than timestamp,
 * measurand, unit and value are not passed on; the ingestion service checks the figures themselves.
 */
export function parseMessage(topic: string, payload: Buffer, now: string): Parsed {
  const parts = topic.split('/')
  if (parts.length < 4 || parts.length > 5 || parts[0] !== 'cockpit' || parts[2] !== 'meters') return { ok: false, reason: 'topic is not cockpit/{installation_id}/meters/{meter_id}[/{measurand}]' }
  if (!ID.test(parts[1])) return { ok: false, reason: `installation id "${parts[1]}" is not a positive integer` }
  if (!ID.test(parts[3])) return { ok: false, reason: `meter id "${parts[3]}" is not a positive integer` }
  const installationId = Number(parts[1])
  const meterId = Number(parts[3])
  const text = payload.toString('utf8').trim()
  if (parts.length === 5) {
    const measurand = parts[4]
    const unit = PLAIN_UNITS[measurand]
    if (!unit) return { ok: false, reason: `unknown measurand "${measurand}" (one of ${Object.keys(PLAIN_UNITS).join(', ')})` }
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return { ok: false, reason: `payload "${text.slice(0, 40)}" is not a number` }
    return { ok: true, installationId, readings: [{ meter_id: meterId, timestamp: now, measurand, unit, value: Number(text) }] }
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'payload is not JSON (a reading or an array of readings)' }
  }
  const items = Array.isArray(body) ? body : [body]
  if (!items.length) return { ok: false, reason: 'payload is an empty array' }
  if (items.length > MAX_READINGS) return { ok: false, reason: `more than ${MAX_READINGS} readings in one message` }
  const readings: TopicReading[] = []
  for (const [i, r] of items.entries()) {
    const where = Array.isArray(body) ? `reading ${i}: ` : ''
    if (!r || typeof r !== 'object' || Array.isArray(r)) return { ok: false, reason: `${where}not an object` }
    const o = r as Record<string, unknown>
    if (o.meter_id !== undefined && o.meter_id !== meterId) return { ok: false, reason: `${where}meter_id ${String(o.meter_id)} is not the topic's meter ${meterId}` }
    if (o.meter_serial !== undefined) return { ok: false, reason: `${where}meter_serial: the topic names the meter` }
    for (const [field, type] of [['timestamp', 'string'], ['measurand', 'string'], ['unit', 'string'], ['value', 'number']] as const) {
      if (typeof o[field] !== type) return { ok: false, reason: `${where}${field} missing or not a ${type}` }
    }
    readings.push({ meter_id: meterId, timestamp: o.timestamp as string, measurand: o.measurand as string, unit: o.unit as string, value: o.value as number })
  }
  return { ok: true, installationId, readings }
}
