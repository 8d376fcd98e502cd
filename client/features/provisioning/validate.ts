/**
 * Checks of the provisioning forms before they are sent, and the small rules the screens share. The
 * server checks everything again (and names the field, SPEC §5); these only spare a round trip for what
 * is plainly missing. Each check answers message keys of the provisioning namespace by field.
 */
import { parseLocaleNumber } from '../../components/parse-number.ts'
import type { MeterKind, ObjectNode, ObjectType } from './api.ts'

export type FormErrors = Record<string, string>

/** The time zone every new installation starts with (SPEC §9: a Swiss product). */
export const DEFAULT_TIMEZONE = 'Europe/Zurich'

/** The IANA time zones this browser knows, sorted, always including {@link DEFAULT_TIMEZONE} and `current`. */
export function timeZones(current?: string): string[] {
  let zones: string[] = []
  try {
    zones = Intl.supportedValuesOf('timeZone')
  } catch {
    // an older browser: the default and the current zone only
  }
  const all = new Set([...zones, DEFAULT_TIMEZONE, ...(current ? [current] : [])])
  return [...all].sort()
}

/** Raw values of the address fields as typed. */
export interface AddressValues {
  street: string
  building_number: string
  zip: string
  city: string
  country: string
}

const required = (value: string) => value.trim() === ''

/** Name (1..100), time zone and the address's street, zip and city are required; a Swiss zip has 4 digits. */
export function validateInstallation(v: { name: string; timezone: string; address: AddressValues }): FormErrors {
  const errors: FormErrors = {}
  if (required(v.name)) errors.name = 'validation.required'
  else if (v.name.trim().length > 100) errors.name = 'validation.tooLong'
  if (required(v.timezone)) errors.timezone = 'validation.required'
  if (required(v.address.street)) errors['address.street'] = 'validation.required'
  if (required(v.address.zip)) errors['address.zip'] = 'validation.required'
  else if (['CH', 'LI'].includes(v.address.country) && !/^\d{4}$/.test(v.address.zip.trim())) errors['address.zip'] = 'validation.zip'
  if (required(v.address.city)) errors['address.city'] = 'validation.required'
  return errors
}

/** An object needs a description of 1..100 characters. */
export function validateObject(v: { description: string }): FormErrors {
  if (required(v.description)) return { description: 'validation.required' }
  if (v.description.trim().length > 100) return { description: 'validation.tooLong' }
  return {}
}

/** Raw values of the meter form. */
export interface MeterValues {
  name: string
  object_id: string
  meter_type: MeterKind
  serial: string
  unit: string
  capacity: string
  source: string
  /** The Modbus device (source 'modbus'): host name or address, port, unit id, register map, seconds between reads. */
  host: string
  port: string
  unit_id: string
  model: string
  interval_s: string
}

/** Name and object are required; a capacity, when given, is a number above 0 (kW, kWh for a battery). */
export function validateMeter(v: MeterValues, locale: string): FormErrors {
  const errors: FormErrors = {}
  if (required(v.name)) errors.name = 'validation.required'
  if (required(v.object_id)) errors.object_id = 'validation.required'
  if (!required(v.capacity)) {
    const c = parseLocaleNumber(v.capacity, locale)
    if (Number.isNaN(c) || c <= 0) errors.capacity = 'validation.positive'
  }
  if (v.unit !== defaultUnit(v.meter_type)) errors.unit = 'validation.unit'
  if (v.source === 'modbus') Object.assign(errors, validateModbus(v))
  return errors
}

/** A host name or an IPv4/IPv6 address, without scheme, port or path (as the server takes it). */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/

/** A whole number from `min` to `max` typed in `text`, or null. */
function wholeIn(text: string, min: number, max: number): number | null {
  if (!/^\d{1,6}$/.test(text.trim())) return null
  const n = Number(text.trim())
  return n >= min && n <= max ? n : null
}

/** The Modbus device's fields: host required (a name or address), port 1..65535, unit id 0..247, interval 1..3600 s. */
export function validateModbus(v: Pick<MeterValues, 'host' | 'port' | 'unit_id' | 'interval_s'>): FormErrors {
  const errors: FormErrors = {}
  if (required(v.host)) errors.host = 'validation.required'
  else if (!HOST.test(v.host.trim()) || v.host.trim().length > 253) errors.host = 'validation.host'
  if (wholeIn(v.port, 1, 65535) === null) errors.port = 'validation.port'
  if (wholeIn(v.unit_id, 0, 247) === null) errors.unit_id = 'validation.unitId'
  if (wholeIn(v.interval_s, 1, 3600) === null) errors.interval_s = 'validation.interval'
  return errors
}

/** The unit of a meter kind: m3 for water, kWh for the others (the server refuses another). */
export function defaultUnit(kind: MeterKind): 'kWh' | 'm3' {
  return kind === 'hot_water' || kind === 'cold_water' ? 'm3' : 'kWh'
}

/** Raw values of the new-station form. */
export interface StationValues {
  name: string
  object_id: string
  capacity_kw: string
  phases: string
  ocpp_charge_point_id: string
}

/**
 * An OCPP 1.6J charge point id: the last path segment of the endpoint URL, 1–48 letters, digits and
 * `-_.:` (the server's rule, shared/schemas/ocpp.ts ChargePointId), so it is safe in a URL.
 */
export const CHARGE_POINT_ID = /^[A-Za-z0-9._:-]{1,48}$/

/** Name and object required; capacity 1..350 kW; phases 1 or 3; a charge point id, when given, as {@link CHARGE_POINT_ID}. */
export function validateStation(v: StationValues, locale: string): FormErrors {
  const errors: FormErrors = {}
  if (required(v.name)) errors.name = 'validation.required'
  if (required(v.object_id)) errors.object_id = 'validation.required'
  const kw = parseLocaleNumber(v.capacity_kw, locale)
  if (required(v.capacity_kw)) errors.capacity_kw = 'validation.required'
  else if (Number.isNaN(kw) || kw < 1 || kw > 350) errors.capacity_kw = 'validation.capacity'
  if (v.phases !== '1' && v.phases !== '3') errors.phases = 'validation.required'
  if (!required(v.ocpp_charge_point_id) && !CHARGE_POINT_ID.test(v.ocpp_charge_point_id.trim())) errors.ocpp_charge_point_id = 'validation.chargePointId'
  return errors
}

/** A tree node flattened for lists and selects: its depth below a root (0). */
export interface FlatObject {
  id: number
  description: string
  object_type: string
  parent_object_id: number | null
  depth: number
  /** The descriptions from the root down to it, for labels such as "House A › Flat 1". */
  path: string
}

/** The tree in display order (depth first), each node with its depth and path. */
export function flattenTree(roots: ObjectNode[]): FlatObject[] {
  const out: FlatObject[] = []
  const walk = (nodes: ObjectNode[], depth: number, prefix: string) => {
    for (const n of nodes) {
      const path = prefix ? `${prefix} › ${n.description}` : n.description
      out.push({ id: n.id, description: n.description, object_type: n.object_type, parent_object_id: n.parent_object_id, depth, path })
      walk(n.children ?? [], depth + 1, path)
    }
  }
  walk(roots, 0, '')
  return out
}

/** The ids of `node` and everything below it: where it cannot be moved to (a cycle, refused by the server with 422). */
export function subtreeIds(node: ObjectNode): Set<number> {
  const ids = new Set<number>()
  const walk = (n: ObjectNode) => {
    ids.add(n.id)
    for (const c of n.children ?? []) walk(c)
  }
  walk(node)
  return ids
}

/** Whether a node holds anything (children, meters, stations): the server then refuses to delete it (409). */
export function holdsSomething(node: ObjectNode): boolean {
  return (
    (node.children?.length ?? 0) > 0 ||
    node.electrical_meters.length + node.heating_meters.length + node.water_meters.length + node.charging_stations.length > 0
  )
}

/** The kind a new child of `parent` most likely is: a building at the top, flats inside buildings and staircases. */
export function defaultChildType(parent: string | null): ObjectType {
  if (parent === null) return 'building'
  if (parent === 'building' || parent === 'staircase') return 'apartment'
  return 'common_area'
}

/** How old data of `at` is at `now`, in the largest whole unit (for Intl.RelativeTimeFormat). */
export function age(at: string, now: number): { value: number; unit: 'second' | 'minute' | 'hour' | 'day' } {
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000))
  if (s < 60) return { value: s, unit: 'second' }
  if (s < 3600) return { value: Math.floor(s / 60), unit: 'minute' }
  if (s < 86_400) return { value: Math.floor(s / 3600), unit: 'hour' }
  return { value: Math.floor(s / 86_400), unit: 'day' }
}
