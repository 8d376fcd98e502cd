/** Applying the relay's update events in tests, as the browser store does (client/live/store.ts). */
import jsonpatch from 'fast-json-patch'
import jsonMergePatch from 'json-merge-patch'

/** The relay's update events: RFC 6902 ops (`patch`) or an RFC 7396 merge patch (`merge`), whichever was smaller. */
export const UPDATE_EVENTS = ['patch', 'merge'] as const

/** A topic's state after a relay update event, applied to a copy like the browser store does. */
export function applyUpdate(state: unknown, type: string, d: { ops?: jsonpatch.Operation[]; merge?: unknown }): unknown {
  if (type === 'patch') return jsonpatch.applyPatch(structuredClone(state), d.ops!, true, false).newDocument
  if (type === 'merge') return jsonMergePatch.apply(structuredClone(state), d.merge)
  throw new Error(`not an update event: ${type}`)
}
