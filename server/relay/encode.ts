import jsonpatch from 'fast-json-patch'
import jsonMergePatch from 'json-merge-patch'

/** How a change of a topic's state travels (ARCHITECTURE §5, docs/decisions.md "Live updates as merge patches"). */
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

/**
 * The smallest exact encoding of the change from `prev` to `next` (both JSON values; `nextJson` is
 * `JSON.stringify(next)`): RFC 7396 merge patch, RFC 6902 ops, or the snapshot itself. Null when
 * nothing changed. Sizes are compared as serialized JSON; a tie goes to the snapshot, then to ops.
 */
export function encodeChange(prev: unknown, next: unknown, nextJson: string): Change | null {
  if (prev === undefined || prev === null || next === null || typeof prev !== 'object' || typeof next !== 'object') {
    if (prev !== undefined && JSON.stringify(prev) === nextJson) return null
    return { type: 'snapshot', json: nextJson }
  }
  const ops = jsonpatch.compare(prev, next)
  if (!ops.length) return null
  let best: Change = { type: 'snapshot', json: nextJson }
  const opsJson = JSON.stringify(ops)
  if (opsJson.length < best.json.length) best = { type: 'patch', json: opsJson, ops }
  if (isObject(prev) && isObject(next)) {
    const merge = jsonMergePatch.generate(prev, next)
    if (isObject(merge) && mergeIsExact(merge, next)) {
      const mergeJson = JSON.stringify(merge)
      if (mergeJson.length < best.json.length) best = { type: 'merge', json: mergeJson, merge }
    }
  }
  return best
}
