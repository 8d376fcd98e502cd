import { LineCounter, parseDocument, type Document } from 'yaml'
import { AppError, Invalid, type FieldMessage } from '../../lib/errors.ts'
import { invalidFields, type IssueLike } from '../../api/http.ts'
import { ConfigurationFile } from '../../../shared/schemas/configuration.ts'

/** A place in the file: the keys and indexes from the root, e.g. ['installations', 0, 'meters', 2, 'unit']. */
export type FilePath = readonly (string | number)[]

/** `installations[0].meters[2].unit`: a path as a reader of the file names it. */
export function fieldName(path: FilePath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('')
}

/**
 * A configuration file read with its line numbers (docs/configuration-files.md): `where(path)` names a
 * place as `line 14, installations[0].meters[2].unit`, the line of the value at `path` (or of the
 * nearest enclosing value the file has, for a missing field). Field errors of the import are keyed by it,
 * so the project's 400 shape `{field: [message]}` carries the line.
 */
export interface ParsedFile {
  config: ConfigurationFile
  where(path: FilePath): string
}

/**
 * Parse YAML `text` (YAML 1.2, eemeli/yaml) and check it against {@link ConfigurationFile}. 400 with
 * every problem keyed by its line and field: malformed YAML (`line 3, yaml`), a wrong or missing value,
 * an unknown key (`line 9, installations[0].meters[1].seriall`), a key given twice in one installation
 * (an object path, meter serial or name, station OCPP id or name, tariff start, rate kind and start,
 * user e-mail) or an OCPP id given twice in the file.
 */
export function parseConfiguration(text: string): ParsedFile {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length) {
    const fields: Record<string, FieldMessage[]> = {}
    for (const e of doc.errors.slice(0, 20)) (fields[`line ${lines.linePos(e.pos[0]).line}, yaml`] ??= []).push({ key: 'configurationYaml', params: { reason: e.message.split('\n')[0] } })
    throw new Invalid(fields)
  }
  const where = (path: FilePath) => `line ${lineOf(doc, lines, path)}, ${fieldName(path) || 'file'}`
  let value: unknown
  try {
    // yaml refuses an alias expanded too often (a "billion laughs" file) by throwing, not in doc.errors.
    value = doc.toJS({ maxAliasCount: 1000 }) ?? {}
  } catch (err) {
    throw new Invalid({ [`line 1, yaml`]: [{ key: 'configurationYaml', params: { reason: (err as Error).message } }] })
  }
  const parsed = ConfigurationFile.safeParse(value)
  if (!parsed.success) {
    const issues: IssueLike[] = parsed.error.issues.flatMap((i) => {
      const path = i.path as (string | number)[]
      // An unknown key is named itself, so a typo points at its own line.
      if (i.code === 'unrecognized_keys') return i.keys.map((k) => ({ code: 'unknown_key', path: [where([...path, k])] }))
      return [{ ...(i as IssueLike), path: [where(path)] }]
    })
    throw invalidFields(issues)
  }
  const config = parsed.data
  const fields: Record<string, FieldMessage[]> = {}
  const once = <T>(list: T[], key: (x: T) => string | null, at: (i: number) => FilePath, seen = new Map<string, number>()) => {
    list.forEach((x, i) => {
      const k = key(x)
      if (k === null) return
      if (seen.has(k)) (fields[where(at(i))] ??= []).push({ key: 'configurationDuplicate', params: { line: lineOf(doc, lines, at(seen.get(k)!)) } })
      else seen.set(k, i)
    })
  }
  const cpIds = new Map<string, number>()
  const cpAt = new Map<number, number>()
  once(config.installations, (x) => x.name, (i) => ['installations', i, 'name'])
  config.installations.forEach((inst, n) => {
    const at = (list: string, field: string) => (i: number) => ['installations', n, list, i, field]
    once(inst.objects, (o) => o.path, at('objects', 'path'))
    once(inst.meters, (m) => (m.serial ? `serial:${m.serial}` : `name:${m.name}`), at('meters', 'serial'))
    once(inst.stations, (s) => s.ocpp_charge_point_id?.toLowerCase() ?? `name:${s.name}`, at('stations', 'name'))
    once(inst.tariffs, (t) => t.valid_from, at('tariffs', 'valid_from'))
    once(inst.rates, (r) => `${r.kind}:${r.start_date}`, at('rates', 'start_date'))
    once(inst.users, (u) => u.email, at('users', 'email'))
    inst.stations.forEach((s, i) => {
      if (!s.ocpp_charge_point_id) return
      const k = s.ocpp_charge_point_id.toLowerCase()
      const first = cpIds.get(k)
      if (first !== undefined && first !== n) (fields[where(['installations', n, 'stations', i, 'ocpp_charge_point_id'])] ??= []).push({ key: 'configurationDuplicate', params: { line: cpAt.get(first) ?? 0 } })
      if (first === undefined) {
        cpIds.set(k, n)
        cpAt.set(n, lineOf(doc, lines, ['installations', n, 'stations', i, 'ocpp_charge_point_id']))
      }
    })
  })
  if (Object.keys(fields).length) throw new Invalid(fields, {}, 409)
  return { config, where }
}

/** The line (1-based) of the value at `path`, or of the nearest enclosing one the document has. */
function lineOf(doc: Document, lines: LineCounter, path: FilePath): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n ? doc.getIn(path.slice(0, n), true) : doc.contents
    const range = (node as { range?: [number, number, number] } | undefined)?.range
    if (range) return lines.linePos(range[0]).line
  }
  return 1
}

/**
 * An error a service threw for the entity at `path`, re-keyed by line and field: a field error's fields
 * through `fieldOf` (the service's field name → the file's, e.g. object_id → object), any other 4xx but
 * 401/403 under the entity itself; everything else as it was.
 */
export function atLine(err: unknown, where: (path: FilePath) => string, path: FilePath, fieldOf: Record<string, string> = {}): unknown {
  if (err instanceof Invalid) {
    const fields = Object.fromEntries(Object.entries(err.fields).map(([f, m]) => [where([...path, ...(fieldOf[f] ?? f).split('.')]), m]))
    return new Invalid(fields, err.params, err.status as 400)
  }
  if (err instanceof AppError && [400, 404, 409, 422].includes(err.status)) return new Invalid({ [where(path)]: [{ key: err.key, params: err.params }] }, {}, err.status as 400)
  return err
}
