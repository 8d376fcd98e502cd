import jsonpatch from 'fast-json-patch'
import jsonMergePatch from 'json-merge-patch'

/**
 * How a change of a topic's state travels (ARCHITECTURE §5, docs/decisions.md "Relay: merge patches beside
 * RFC 6902 ops").
 */
export type Change =
  | { type: 'snapshot'; json: string }
  | { type: 'patch'; json: string; ops: jsonpatch.Operation[] }
  | { type: 'merge'; json: string; merge: object }

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * True when applying `merge` (RFC 7396) to the previous state gives exactly `next`. A merge patch
 * cannot set a value to null (null means "remove"), and a new object's null members vanish when it is
 * merged in; such changes need RFC 6902 ops instead.
 */
export function mergeIsExact(merge: unknown, next: unknown): boolean {
  if (!isObject(merge)) return true
  if (!isObject(next)) return false
  for (const key of Object.keys(merge)) {
    const m = merge[key]
    if (m === null) {
      if (Object.hasOwn(next, key)) return false
    } else if (isObject(m) && !mergeIsExact(m, next[key])) return false
  }
  return true
}

/** Serialized size of a change as events: JSON plus the frame around it (id, event, topic, seq). */
const FRAME_OVERHEAD = 60
const size = (changes: Change[]) => changes.reduce((a, c) => a + c.json.length + FRAME_OVERHEAD, 0)

/**
 * The smallest exact encoding of the change from `prev` to `next` (both JSON values; `nextJson` is
 * `JSON.stringify(next)`), as one or two events applied in order: an RFC 7396 merge patch, RFC 6902
 * ops, both (a merge patch for the records it can express exactly, then ops for the records it cannot,
 * e.g. a new charging session with `end: null`), or the snapshot itself. Null when nothing changed.
 * Sizes are compared as serialized JSON plus the frame of each event; a tie goes to fewer events.
 */
export function encodeChange(prev: unknown, next: unknown, nextJson: string): Change[] | null {
  if (prev === undefined || prev === null || next === null || typeof prev !== 'object' || typeof next !== 'object') {
    if (prev !== undefined && JSON.stringify(prev) === nextJson) return null
    return [{ type: 'snapshot', json: nextJson }]
  }
  const ops = jsonpatch.compare(prev, next)
  if (!ops.length) return null
  const candidates: Change[][] = [[{ type: 'snapshot', json: nextJson }], [{ type: 'patch', json: JSON.stringify(ops), ops }]]
  if (isObject(prev) && isObject(next)) {
    const merge = jsonMergePatch.generate(prev, next)
    if (isObject(merge)) {
      if (mergeIsExact(merge, next)) candidates.push([{ type: 'merge', json: JSON.stringify(merge), merge }])
      else {
        // Split by top-level key (a record of a collection, a block of metrics): merge what merges exactly.
        const exact: Record<string, unknown> = {}
        const before: Record<string, unknown> = {}
        const after: Record<string, unknown> = {}
        for (const key of Object.keys(merge)) {
          if (mergeIsExact({ [key]: merge[key] }, next)) exact[key] = merge[key]
          else {
            if (Object.hasOwn(prev, key)) before[key] = prev[key]
            if (Object.hasOwn(next, key)) after[key] = next[key]
          }
        }
        const rest = jsonpatch.compare(before, after)
        if (Object.keys(exact).length && rest.length) {
          candidates.push([{ type: 'merge', json: JSON.stringify(exact), merge: exact }, { type: 'patch', json: JSON.stringify(rest), ops: rest }])
        }
      }
    }
  }
  let best = candidates[0]
  for (const c of candidates.slice(1)) if (size(c) < size(best)) best = c
  return best
}
