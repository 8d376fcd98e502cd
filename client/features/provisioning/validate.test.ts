import { describe, expect, it } from 'vitest'
import type { ObjectNode } from './api.ts'
import {
  age, defaultChildType, defaultUnit, DEFAULT_TIMEZONE, flattenTree, holdsSomething, subtreeIds, timeZones, validateInstallation, validateMeter,
  validateObject, validateStation,
} from './validate.ts'

const address = { street: 'Bahnhofstrasse', building_number: '1', zip: '8001', city: 'Zürich', country: 'CH' }

describe('the new-installation form', () => {
  it('asks for the name, the time zone and the street, zip and city of the address', () => {
    expect(validateInstallation({ name: ' ', timezone: '', address: { street: '', building_number: '', zip: '', city: '', country: 'CH' } })).toEqual({
      name: 'validation.required',
      timezone: 'validation.required',
      'address.street': 'validation.required',
      'address.zip': 'validation.required',
      'address.city': 'validation.required',
    })
  })
  it('accepts a complete installation; the building number may be left out', () => {
    expect(validateInstallation({ name: 'Wohnpark Aare', timezone: DEFAULT_TIMEZONE, address: { ...address, building_number: '' } })).toEqual({})
  })
  it('refuses a name over 100 characters and a Swiss postcode that is not 4 digits', () => {
    expect(validateInstallation({ name: 'x'.repeat(101), timezone: DEFAULT_TIMEZONE, address: { ...address, zip: '80010' } })).toEqual({
      name: 'validation.tooLong',
      'address.zip': 'validation.zip',
    })
  })
  it('offers every time zone of the browser, Europe/Zurich among them, and keeps a stored one it does not know', () => {
    const zones = timeZones('Mars/Olympus_Mons')
    expect(zones).toContain('Europe/Zurich')
    expect(zones).toContain('America/New_York')
    expect(zones).toContain('Mars/Olympus_Mons')
    expect([...zones].sort()).toEqual(zones)
  })
})

describe('the object form', () => {
  it('needs a name of at most 100 characters', () => {
    expect(validateObject({ description: '  ' })).toEqual({ description: 'validation.required' })
    expect(validateObject({ description: 'y'.repeat(101) })).toEqual({ description: 'validation.tooLong' })
    expect(validateObject({ description: 'Haus A' })).toEqual({})
  })
  it('proposes a building at the top and a flat inside a building or staircase', () => {
    expect(defaultChildType(null)).toBe('building')
    expect(defaultChildType('building')).toBe('apartment')
    expect(defaultChildType('staircase')).toBe('apartment')
    expect(defaultChildType('garage')).toBe('common_area')
  })
})

describe('the meter form', () => {
  const meter = { name: 'Hauptzähler', object_id: '3', meter_type: 'main_power' as const, serial: '', unit: 'kWh', capacity: '', source: 'ingest', host: '', port: '502', unit_id: '1', model: 'sdm630', interval_s: '5' }
  it('needs a name and an object', () => {
    expect(validateMeter({ ...meter, name: '', object_id: '' }, 'de-CH')).toEqual({ name: 'validation.required', object_id: 'validation.required' })
    expect(validateMeter(meter, 'de-CH')).toEqual({})
  })
  it('reads the capacity in the user’s locale and refuses zero, negatives and text', () => {
    expect(validateMeter({ ...meter, meter_type: 'battery', capacity: '13,5' }, 'fr-CH')).toEqual({})
    expect(validateMeter({ ...meter, capacity: '1’000.5' }, 'de-CH')).toEqual({})
    for (const capacity of ['0', '-3', 'viel']) expect(validateMeter({ ...meter, capacity }, 'de-CH')).toEqual({ capacity: 'validation.positive' })
  })
  it('measures water in m3 and everything else in kWh', () => {
    expect(defaultUnit('cold_water')).toBe('m3')
    expect(defaultUnit('hot_water')).toBe('m3')
    expect(defaultUnit('heat')).toBe('kWh')
    expect(defaultUnit('pv')).toBe('kWh')
    expect(validateMeter({ ...meter, meter_type: 'cold_water', unit: 'kWh' }, 'de-CH')).toEqual({ unit: 'validation.unit' })
  })
  it('needs a Modbus device only for the source Modbus: a host, a port, a unit id and an interval in range', () => {
    expect(validateMeter({ ...meter, source: 'modbus' }, 'de-CH')).toEqual({ host: 'validation.required' })
    expect(validateMeter({ ...meter, source: 'modbus', host: '192.168.1.20' }, 'de-CH')).toEqual({})
    expect(validateMeter({ ...meter, source: 'modbus', host: 'sdm630.local', port: '1502', unit_id: '0', interval_s: '3600' }, 'de-CH')).toEqual({})
    expect(validateMeter({ ...meter, source: 'modbus', host: 'http://sdm630/', port: '70000', unit_id: '248', interval_s: '0' }, 'de-CH'))
      .toEqual({ host: 'validation.host', port: 'validation.port', unit_id: 'validation.unitId', interval_s: 'validation.interval' })
    expect(validateMeter({ ...meter, source: 'modbus', host: 'fe80::1', port: '5.5' }, 'de-CH')).toEqual({ port: 'validation.port' })
  })
})

describe('the charging-station form', () => {
  const station = { name: 'Wallbox 1', object_id: '4', capacity_kw: '11', phases: '3', ocpp_charge_point_id: '' }
  it('needs a name, an object and a capacity from 1 to 350 kW', () => {
    expect(validateStation(station, 'en-CH')).toEqual({})
    expect(validateStation({ ...station, name: ' ', object_id: '', capacity_kw: '' }, 'en-CH')).toEqual({
      name: 'validation.required',
      object_id: 'validation.required',
      capacity_kw: 'validation.required',
    })
    for (const capacity_kw of ['0.5', '351', 'fast']) expect(validateStation({ ...station, capacity_kw }, 'en-CH').capacity_kw).toBe('validation.capacity')
    expect(validateStation({ ...station, capacity_kw: '22,5' }, 'fr-CH')).toEqual({})
  })
  it('takes 1 or 3 phases only', () => {
    expect(validateStation({ ...station, phases: '2' }, 'en-CH')).toEqual({ phases: 'validation.required' })
  })
  it('takes an OCPP charge point id of up to 48 characters without spaces or slashes, or none', () => {
    expect(validateStation({ ...station, ocpp_charge_point_id: 'CP-0042_garage.A' }, 'en-CH')).toEqual({})
    for (const id of ['CP 42', 'cp/42', 'x'.repeat(49), 'cp#1', 'cp*1']) {
      expect(validateStation({ ...station, ocpp_charge_point_id: id }, 'en-CH')).toEqual({ ocpp_charge_point_id: 'validation.chargePointId' })
    }
  })
})

const node = (id: number, description: string, children: ObjectNode[] = [], extra: Partial<ObjectNode> = {}): ObjectNode => ({
  id, parent_object_id: null, description, object_type: 'building', children,
  electrical_meters: [], heating_meters: [], water_meters: [], charging_stations: [], ...extra,
})

describe('the object tree', () => {
  const tree = [node(1, 'Haus A', [node(2, 'Treppenhaus 1', [node(3, 'Wohnung 1.1')]), node(4, 'Garage')]), node(5, 'Haus B')]
  it('lists the objects depth first with their depth and path', () => {
    expect(flattenTree(tree).map((o) => [o.id, o.depth, o.path])).toEqual([
      [1, 0, 'Haus A'],
      [2, 1, 'Haus A › Treppenhaus 1'],
      [3, 2, 'Haus A › Treppenhaus 1 › Wohnung 1.1'],
      [4, 1, 'Haus A › Garage'],
      [5, 0, 'Haus B'],
    ])
  })
  it('does not offer an object or anything below it as its new parent (a cycle)', () => {
    expect([...subtreeIds(tree[0].children[0])].sort()).toEqual([2, 3])
  })
  it('knows an object that still holds children, meters or stations', () => {
    expect(holdsSomething(tree[0])).toBe(true)
    expect(holdsSomething(tree[1])).toBe(false)
    expect(holdsSomething(node(9, 'Keller', [], { water_meters: [{ id: 1, name: 'Kaltwasser' }] }))).toBe(true)
    expect(holdsSomething(node(9, 'PP', [], { charging_stations: [{ id: 1, name: 'WB' }] }))).toBe(true)
  })
})

describe('the age of the last data', () => {
  const now = Date.parse('2025-03-01T12:00:00Z')
  it('is told in the largest whole unit', () => {
    expect(age('2025-03-01T11:59:30Z', now)).toEqual({ value: 30, unit: 'second' })
    expect(age('2025-03-01T11:45:00Z', now)).toEqual({ value: 15, unit: 'minute' })
    expect(age('2025-03-01T09:00:00Z', now)).toEqual({ value: 3, unit: 'hour' })
    expect(age('2025-02-27T12:00:00Z', now)).toEqual({ value: 2, unit: 'day' })
  })
  it('is never negative for a clock slightly behind', () => {
    expect(age('2025-03-01T12:00:05Z', now)).toEqual({ value: 0, unit: 'second' })
  })
})
