import { readLocaleNumber } from '../../components/parse-number.ts'
import type { LoadManagement, LoadManagementPut } from '../../../shared/schemas/load-management.ts'

/**
 * The Load management form's values as typed, and their way to and from the API's shape
 * (shared/schemas/load-management.ts). Circuits are keyed by a stable `key` so that renaming a
 * circuit's id keeps its children and stations; a station's circuit is the key of its circuit or null
 * (the grid connection directly).
 */

/** One circuit as typed: `key` stays while `id` is edited; `parent` is the feeding circuit's key, null for the connection. */
export interface CircuitDraft {
  key: string
  id: string
  name: string
  parent: string | null
  limit_a: string
}

/** The whole form: the switch, the two limits as typed, the circuits and each station's circuit key. */
export interface LoadDraft {
  enabled: boolean
  grid_limit_a: string
  grid_limit_kw: string
  circuits: CircuitDraft[]
  /** Peak shaving with the battery (docs/load-management.md "Peak shaving"): on, and its peak in kW as typed. */
  peak_shaving: boolean
  peak_kw: string
  /** Station id → circuit key (null: on the connection). */
  stations: Record<number, string | null>
}

/** Client findings by field (the server's names: `grid_limit_a`, `circuits.1.limit_a`), as `validation.*` keys of the provisioning namespace. */
export type DraftErrors = Record<string, string>

/** A number as the locale writes it (decimal sign), for an input. */
function typed(value: number | null, decimal: string): string {
  return value === null ? '' : String(value).replace('.', decimal)
}

/** The form's values of the stored settings; `decimal` is the locale's decimal sign. */
export function toDraft(s: LoadManagement, decimal = '.'): LoadDraft {
  const stations: Record<number, string | null> = {}
  for (const st of s.stations) stations[st.id] = null
  for (const c of s.circuits) for (const id of c.station_ids) stations[id] = c.id
  return {
    enabled: s.enabled,
    grid_limit_a: typed(s.grid_limit_a, decimal),
    grid_limit_kw: typed(s.grid_limit_kw, decimal),
    circuits: s.circuits.map((c) => ({ key: c.id, id: c.id, name: c.name, parent: c.parent_id, limit_a: typed(c.limit_a, decimal) })),
    peak_shaving: s.peak_shaving.enabled,
    peak_kw: typed(s.peak_shaving.peak_kw, decimal),
    stations,
  }
}

/** A key no circuit of `circuits` has, and an id suggestion ("circuit-3") no circuit uses. */
export function newCircuit(circuits: CircuitDraft[]): CircuitDraft {
  let n = circuits.length + 1
  while (circuits.some((c) => c.key === `new-${n}` || c.id === `circuit-${n}`)) n++
  return { key: `new-${n}`, id: `circuit-${n}`, name: '', parent: null, limit_a: '' }
}

/**
 * Remove the circuit `key`: its sub-circuits are then fed by its own parent and its stations hang on
 * that parent too (null: the connection), so nothing refers to a circuit that is gone.
 */
export function removeCircuit(d: LoadDraft, key: string): LoadDraft {
  const gone = d.circuits.find((c) => c.key === key)
  if (!gone) return d
  const stations: Record<number, string | null> = {}
  for (const [id, k] of Object.entries(d.stations)) stations[Number(id)] = k === key ? gone.parent : k
  return {
    ...d,
    circuits: d.circuits.filter((c) => c.key !== key).map((c) => (c.parent === key ? { ...c, parent: gone.parent } : c)),
    stations,
  }
}

/**
 * The circuits in tree order with their depth (0: fed by the connection): each circuit followed by the
 * circuits it feeds. A circuit the tree does not reach (a cycle typed in) follows at depth 0, so it
 * stays on screen to be corrected.
 */
export function treeOrder(circuits: CircuitDraft[]): { circuit: CircuitDraft; index: number; depth: number }[] {
  const out: { circuit: CircuitDraft; index: number; depth: number }[] = []
  const seen = new Set<string>()
  const keys = new Set(circuits.map((c) => c.key))
  const visit = (parent: string | null, depth: number) => {
    circuits.forEach((c, index) => {
      const p = c.parent !== null && keys.has(c.parent) ? c.parent : null
      if (p !== parent || seen.has(c.key)) return
      seen.add(c.key)
      out.push({ circuit: c, index, depth })
      visit(c.key, depth + 1)
    })
  }
  visit(null, 0)
  circuits.forEach((c, index) => {
    if (seen.has(c.key)) return
    seen.add(c.key)
    out.push({ circuit: c, index, depth: 0 })
    visit(c.key, 1)
  })
  return out
}

/**
 * The PUT body of the form, or the fields whose text is not a number (`validation.positive`) or is
 * missing (`validation.required`: a circuit's limit). Everything else (a negative limit, a cycle, an id
 * used twice) the server checks and names (SPEC §5), so its wording shows at the field. `locale` reads
 * the numbers ("63,5" in de-CH).
 */
export function toBody(d: LoadDraft, locale: string): { body: LoadManagementPut; errors: DraftErrors } {
  const errors: DraftErrors = {}
  const number = (text: string, field: string, optional: boolean): number | null => {
    const r = readLocaleNumber(text, locale)
    if (r.ok) return r.value
    if (r.reason === 'empty' && optional) return null
    errors[field] = r.reason === 'empty' ? 'validation.required' : 'validation.positive'
    return null
  }
  const grid_limit_a = number(d.grid_limit_a, 'grid_limit_a', true)
  const grid_limit_kw = number(d.grid_limit_kw, 'grid_limit_kw', true)
  // The peak is needed only while peak shaving is on; the server says so (required) when it is missing.
  const peak_kw = number(d.peak_kw, 'peak_shaving.peak_kw', true)
  const idOf = new Map(d.circuits.map((c) => [c.key, c.id.trim()]))
  const circuits = d.circuits.map((c, i) => ({
    id: c.id.trim(),
    name: c.name.trim(),
    parent_id: c.parent === null ? null : (idOf.get(c.parent) ?? null),
    limit_a: number(c.limit_a, `circuits.${i}.limit_a`, false) ?? 0,
    station_ids: Object.entries(d.stations).filter(([, k]) => k === c.key).map(([id]) => Number(id)).sort((a, b) => a - b),
  }))
  circuits.forEach((c, i) => {
    if (!c.id) errors[`circuits.${i}.id`] = 'validation.required'
    if (!c.name) errors[`circuits.${i}.name`] = 'validation.required'
  })
  return { body: { enabled: d.enabled, grid_limit_a, grid_limit_kw, circuits, peak_shaving: { enabled: d.peak_shaving, peak_kw } }, errors }
}
