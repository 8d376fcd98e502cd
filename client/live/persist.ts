import type { Topic } from '../../shared/live-protocol.ts'
import { readTokens } from '../session/tokens.ts'
import { applyEvent, ensureInstallation, HISTORY_MS, live, seedHistory } from './store.ts'
import type { MetricsSample } from './store.ts'
import { clientNow } from '../api/clock.ts'

/**
 * The last live state of an installation kept in sessionStorage, so the Power page paints
 * its figures at once on a reload, before the stream has connected. The tiles show the data's age and
 * "stale" until the stream's snapshots replace it. Per tab, per user; cleared on logout.
 */
const PREFIX = 'cockpit.live.'
/** Saved state older than this is not shown (an hour-old power flow would mislead more than help). */
export const SAVED_MAX_AGE_MS = HISTORY_MS
const SAVE_EVERY_MS = 2_000
const TOPICS: readonly Topic[] = ['metrics', 'stations', 'sessions', 'info', 'energy_return']

interface Saved {
  v: 1
  savedAt: number
  topics: Partial<Record<Topic, { data: unknown; updatedAt: number }>>
  history: MetricsSample[]
}

function keyOf(installationId: number): string | null {
  const user = readTokens().userId
  return user === null ? null : `${PREFIX}${user}.${installationId}`
}

/** Save the installation's loaded topics and chart history now. */
export function saveLive(installationId: number, now: number = clientNow()): void {
  const key = keyOf(installationId)
  const inst = live.installations[String(installationId)]
  if (!key || !inst || !inst.topics.metrics.loaded) return
  const saved: Saved = { v: 1, savedAt: now, topics: {}, history: [...inst.history] }
  for (const topic of TOPICS) {
    const slot = inst.topics[topic]
    if (slot.loaded && slot.updatedAt !== null) saved.topics[topic] = { data: slot.data, updatedAt: slot.updatedAt }
  }
  try {
    sessionStorage.setItem(key, JSON.stringify(saved))
  } catch {
    // quota or storage blocked: the page just waits for the stream
  }
}

const timers = new Map<number, ReturnType<typeof setTimeout>>()

/** Save at most every 2 s while events arrive (JSON of stations and history is not free). */
export function scheduleSave(installationId: number): void {
  if (timers.has(installationId)) return
  timers.set(
    installationId,
    setTimeout(() => {
      timers.delete(installationId)
      saveLive(installationId)
    }, SAVE_EVERY_MS),
  )
}

/**
 * Put the saved state of the installation into the live store, unless live data is already there or
 * the saved state is older than {@link SAVED_MAX_AGE_MS}. Goes through applyEvent as snapshots without
 * a sequence number, stamped with their original time (the tiles' data age), so the stream's first
 * snapshot replaces each topic. Returns true when something was restored.
 */
export function restoreLive(installationId: number, now: number = clientNow()): boolean {
  const key = keyOf(installationId)
  if (!key) return false
  const inst = ensureInstallation(installationId)
  if (inst.topics.metrics.loaded) return false
  let saved: Saved
  try {
    const text = sessionStorage.getItem(key)
    if (!text) return false
    saved = JSON.parse(text) as Saved
  } catch {
    return false
  }
  if (saved?.v !== 1 || !(now - saved.savedAt < SAVED_MAX_AGE_MS) || !saved.topics.metrics) return false
  for (const topic of TOPICS) {
    const t = saved.topics[topic]
    if (t) applyEvent(installationId, 'snapshot', { topic, data: t.data }, null, t.updatedAt)
  }
  if (Array.isArray(saved.history)) seedHistory(installationId, saved.history)
  return true
}

/** Forget every saved live state (logout, SPEC §4: installation data is cleared). */
export function clearSavedLive(): void {
  for (const t of timers.values()) clearTimeout(t)
  timers.clear()
  try {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const k = sessionStorage.key(i)
      if (k?.startsWith(PREFIX)) sessionStorage.removeItem(k)
    }
  } catch {
    // storage blocked: nothing was saved
  }
}
