/** Applying the relay's update events in tests, as the browser store does (client/live/store.ts). */
import jsonpatch from 'fast-json-patch'
import jsonMergePatch from 'json-merge-patch'
import { EventSource } from 'eventsource'

/** The relay's update events: RFC 6902 ops (`patch`) or an RFC 7396 merge patch (`merge`), whichever was smaller. */
export const UPDATE_EVENTS = ['patch', 'merge'] as const

/** A topic's state after a relay update event, applied to a copy like the browser store does. */
export function applyUpdate(state: unknown, type: string, d: { ops?: jsonpatch.Operation[]; merge?: unknown }): unknown {
  if (type === 'patch') return jsonpatch.applyPatch(structuredClone(state), d.ops!, true, false).newDocument
  if (type === 'merge') return jsonMergePatch.apply(structuredClone(state), d.merge)
  throw new Error(`not an update event: ${type}`)
}

/**
 * Open a live stream at `url` (a ticket or display key in it) and keep each topic's state as the
 * browser would: snapshots replace, update events apply. When the relay closes the stream the
 * EventSource is closed too (it would reconnect with a spent ticket and be refused) and `isOpen()`
 * turns false.
 */
export function watchStream(url: string): { es: EventSource; state: Record<string, unknown>; isOpen: () => boolean } {
  const state: Record<string, unknown> = {}
  let open = true
  const es = new EventSource(url)
  es.addEventListener('snapshot', (e) => {
    const d = JSON.parse(e.data)
    state[d.topic] = d.data
  })
  for (const type of UPDATE_EVENTS) {
    es.addEventListener(type, (e) => {
      const d = JSON.parse(e.data)
      state[d.topic] = applyUpdate(state[d.topic], type, d)
    })
  }
  es.onerror = () => {
    open = false
    es.close()
  }
  return { es, state, isOpen: () => open }
}
