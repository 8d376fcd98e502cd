import { describe, expect, it } from 'vitest'
import type { LoadManagement } from '../../../shared/schemas/load-management.ts'
import { newCircuit, removeCircuit, toBody, toDraft, treeOrder } from './draft.ts'

const reason = { code: 'ok', text: 'Charging at full power.', until: null }
const station = (id: number, circuit_id: string | null) => ({ id, name: `S${id}`, phases: 3, min_current_a: 6, max_current_a: 15.9, circuit_id, limit_a: null, reason })
const stored: LoadManagement = {
  enabled: true,
  grid_limit_a: 63,
  grid_limit_kw: 40.5,
  circuits: [
    { id: 'garage', name: 'Garage', parent_id: null, limit_a: 50, station_ids: [1, 2] },
    { id: 'row-b', name: 'Row B', parent_id: 'garage', limit_a: 32.5, station_ids: [3] },
  ],
  peak_shaving: { enabled: true, peak_kw: 22.5 },
  battery_command: null,
  effective_grid_limit_a: 58.6,
  updated_at: '2026-03-04T09:00:00.000Z',
  stations: [station(1, 'garage'), station(2, 'garage'), station(3, 'row-b'), station(4, null)],
}

describe('the load management form', () => {
  it('reads the stored settings and sends them back unchanged', () => {
    const d = toDraft(stored)
    expect(d.stations).toEqual({ 1: 'garage', 2: 'garage', 3: 'row-b', 4: null })
    const { body, errors } = toBody(d, 'en-CH')
    expect(errors).toEqual({})
    expect(body).toEqual({ enabled: true, grid_limit_a: 63, grid_limit_kw: 40.5, circuits: stored.circuits, peak_shaving: { enabled: true, peak_kw: 22.5 } })
  })

  it('writes and reads numbers with the locale\'s decimal sign', () => {
    const d = toDraft(stored, ',')
    expect(d.grid_limit_kw).toBe('40,5')
    expect(toBody(d, 'de-DE').body.grid_limit_kw).toBe(40.5)
  })

  it('reads and sends the peak of peak shaving in the locale\'s numbers, and leaves an empty peak to the server', () => {
    const d = toDraft(stored, ',')
    expect([d.peak_shaving, d.peak_kw]).toEqual([true, '22,5'])
    expect(toBody({ ...d, peak_kw: '30,5' }, 'de-DE').body.peak_shaving).toEqual({ enabled: true, peak_kw: 30.5 })
    const empty = toBody({ ...d, peak_kw: '' }, 'de-DE')
    expect([empty.body.peak_shaving, empty.errors]).toEqual([{ enabled: true, peak_kw: null }, {}])
    expect(toBody({ ...d, peak_kw: '2x' }, 'de-DE').errors).toEqual({ 'peak_shaving.peak_kw': 'validation.positive' })
  })

  it('keeps children and stations when a circuit\'s id is renamed', () => {
    const d = toDraft(stored)
    d.circuits[0] = { ...d.circuits[0], id: 'basement' }
    const { body } = toBody(d, 'en-CH')
    expect(body.circuits.map((c) => [c.id, c.parent_id, c.station_ids])).toEqual([['basement', null, [1, 2]], ['row-b', 'basement', [3]]])
  })

  it('hands a removed circuit\'s sub-circuits and stations to its parent', () => {
    const gone = removeCircuit(toDraft(stored), 'garage')
    expect(gone.circuits).toEqual([{ key: 'row-b', id: 'row-b', name: 'Row B', parent: null, limit_a: '32.5' }])
    expect(gone.stations).toEqual({ 1: null, 2: null, 3: 'row-b', 4: null })
  })

  it('leaves empty limits out, and names unreadable numbers and missing circuit fields', () => {
    const d = { ...toDraft(stored), grid_limit_a: '', grid_limit_kw: '12a' }
    d.circuits = [...d.circuits, newCircuit(d.circuits)]
    const { body, errors } = toBody(d, 'en-CH')
    expect(body.grid_limit_a).toBeNull()
    expect(errors).toEqual({ grid_limit_kw: 'validation.positive', 'circuits.2.limit_a': 'validation.required', 'circuits.2.name': 'validation.required' })
    expect(d.circuits[2].id).toBe('circuit-3')
  })

  it('sends a negative limit on, for the server to refuse at its field', () => {
    const { body, errors } = toBody({ ...toDraft(stored), grid_limit_a: '-63' }, 'en-CH')
    expect(errors).toEqual({})
    expect(body.grid_limit_a).toBe(-63)
  })

  it('orders circuits as a tree, and keeps a cycle typed in on screen', () => {
    const d = toDraft(stored)
    expect(treeOrder(d.circuits).map((r) => [r.circuit.id, r.depth])).toEqual([['garage', 0], ['row-b', 1]])
    const cycle = [{ ...d.circuits[0], parent: 'row-b' }, d.circuits[1]]
    expect(treeOrder(cycle).map((r) => [r.circuit.id, r.index, r.depth])).toEqual([['garage', 0, 0], ['row-b', 1, 1]])
  })
})
