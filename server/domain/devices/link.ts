import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import { AppError, Invalid } from '../../lib/errors.ts'
import { DEVICES } from '../../../config/defaults.ts'

/** A change made while the installation was offline, as objects show it. */
export interface PendingChange {
  id: number
  target_type: string
  target_id: number
  field: string
  value: unknown
  requested_at: string
}

/** What a change's target needs to apply it on reconnect; throws the service's typed errors on refusal. */
export type ApplyChange = (actor: Actor, installationId: number, change: PendingChange) => Promise<void>

/** Outcome of one sent change: applied, or failed with the message key of the refusal. */
export interface SentChange extends PendingChange {
  outcome: 'applied' | 'failed'
  reason: string | null
}

/**
 * The link between an installation and its devices (SPEC §4 "offline since a date; while
 * offline, changes are stored temporarily and sent on reconnect"). Device-neutral: the simulator calls
 * `heartbeat` every step, an OCPP gateway would call it on a charge point's Heartbeat. No heartbeat for
 * DEVICES.offlineAfterMs (60 s) and `sweep` marks the installation offline since its last heartbeat.
 * While offline, device-bound changes (`defer`) wait in `device_changes`; the next heartbeat sends them
 * once each, in the order they were made, through the appliers given per target type, and journals
 * each outcome. A later change of the same field replaces one still waiting (`superseded`).
 * Installations no device ever reported for (last_heartbeat_at null) keep their stored online flag.
 */
export function createDeviceLink({ db }: { db: Db }) {
  // When each installation's real devices last counted as a heartbeat (`reported`), in this process.
  const lastReport = new Map<number, number>()
  // Per target type (charging_station, …): how to apply a change and how to journal its outcome. Set by
  // the target's service (`handle`), which itself defers through this link.
  const targets = new Map<string, { apply: ApplyChange; journal: (installationId: number, change: SentChange, at: Date) => Promise<void> }>()
  const listeners = new Set<(installationIds: number[]) => void>()
  const changed = (ids: number[]) => {
    if (ids.length) for (const listener of listeners) listener(ids)
  }
  const toPending = (r: { id: number; target_type: string; target_id: number; field: string; value: unknown; requested_at: Date }): PendingChange => ({
    id: r.id, target_type: r.target_type, target_id: r.target_id, field: r.field, value: r.value, requested_at: r.requested_at.toISOString(),
  })

  const reasonOf = (err: unknown): string => {
    if (err instanceof Invalid) {
      const first = Object.values(err.fields)[0]?.[0]
      return first === undefined ? err.key : typeof first === 'string' ? first : first.key
    }
    if (err instanceof AppError) return err.key
    return 'serverError'
  }

  /** Send what waits for `installationId`, in order, once each: the claim is one UPDATE, so two heartbeats cannot both send a change. */
  async function flush(installationId: number, at: Date): Promise<SentChange[]> {
    const claimed = await db.updateTable('device_changes').set({ state: 'sending' })
      .where('installation_id', '=', installationId).where('state', '=', 'pending')
      .returning(['id', 'target_type', 'target_id', 'field', 'value', 'requested_at', 'user_id']).execute()
    const out: SentChange[] = []
    for (const row of claimed.sort((a, b) => a.id - b.id)) {
      const change = toPending(row)
      let reason: string | null = null
      try {
        const user = row.user_id == null ? undefined
          : await db.selectFrom('users').select(['id', 'is_superuser']).where('id', '=', row.user_id).where('is_active', '=', true).executeTakeFirst()
        const target = targets.get(row.target_type)
        if (!user) reason = 'forbidden'
        else if (!target) reason = 'invalidValue'
        else await target.apply(user, installationId, change)
      } catch (err) {
        reason = reasonOf(err)
      }
      const sent: SentChange = { ...change, outcome: reason ? 'failed' : 'applied', reason }
      await db.updateTable('device_changes').set({ state: sent.outcome, settled_at: at, outcome: reason }).where('id', '=', row.id).execute()
      await targets.get(row.target_type)?.journal(installationId, sent, at)
      out.push(sent)
    }
    return out
  }

  const link = {
    /** Register how changes of `targetType` are applied on reconnect and journaled (one handler per type). */
    handle(targetType: string, handler: { apply: ApplyChange; journal: (installationId: number, change: SentChange, at: Date) => Promise<void> }): void {
      targets.set(targetType, handler)
    },

    /**
     * A device of `installationId` reported at `at`. Brings an offline installation back online and sends
     * the changes that waited (returned with their outcome, empty when none).
     */
    async heartbeat(installationId: number, at: Date): Promise<SentChange[]> {
      // One statement while it stays online (every heartbeat); a second only when it comes back.
      const stayed = await db.updateTable('installations').set({ last_heartbeat_at: at })
        .where('id', '=', installationId).where('online', '=', true).returning('id').execute()
      if (!stayed.length) {
        const back = await db.updateTable('installations').set({ last_heartbeat_at: at, online: true, offline_since: null })
          .where('id', '=', installationId).returning('id').execute()
        changed(back.map((r) => r.id))
      }
      // Also when it was online: a change deferred just before this heartbeat is not left waiting.
      return flush(installationId, at)
    },

    /**
     * A real device of `installationId` reported at `at` (readings through the ingestion API or MQTT, the
     * facility gateway asking for its meters): a heartbeat at most once per DEVICES.reportHeartbeatMs per
     * installation, so an installation is online while any of its devices reports (SPEC §4), and one
     * whose gateway was cut off comes back with the gateway's first report, when the changes that waited
     * for it are sent (docs/decisions.md "Devices: changes made while offline wait"). Returns them
     * (empty when skipped or none).
     */
    async reported(installationId: number, at: Date): Promise<SentChange[]> {
      const last = lastReport.get(installationId)
      if (last !== undefined && at.getTime() - last < DEVICES.reportHeartbeatMs && at.getTime() >= last) return []
      lastReport.set(installationId, at.getTime())
      return link.heartbeat(installationId, at)
    },

    /**
     * The watchdog: installations whose last heartbeat is older than DEVICES.offlineAfterMs at `now` go
     * offline since that heartbeat. Returns their ids.
     */
    async sweep(now: Date): Promise<number[]> {
      const rows = await db.updateTable('installations')
        .set((eb) => ({ online: false, offline_since: eb.ref('last_heartbeat_at') }))
        .where('online', '=', true).where('last_heartbeat_at', 'is not', null)
        .where('last_heartbeat_at', '<', new Date(now.getTime() - DEVICES.offlineAfterMs))
        .returning('id').execute()
      changed(rows.map((r) => r.id))
      return rows.map((r) => r.id)
    },

    /** Demo control: the connection drops now; offline since the last heartbeat (or `at` when none). */
    async disconnect(installationId: number, at: Date): Promise<void> {
      const rows = await db.updateTable('installations').set((eb) => ({ online: false, offline_since: eb.fn.coalesce('last_heartbeat_at', eb.val(at)) }))
        .where('id', '=', installationId).where('online', '=', true).returning('id').execute()
      changed(rows.map((r) => r.id))
    },

    /**
     * Listen for installations going offline or coming back (heartbeat, sweep, disconnect): a relay in
     * this process re-polls their info topic at once instead of at its 2-minute interval (
     * a stream opened after the change must not show the state before it). Returns the unsubscribe.
     */
    onOnlineChanged(listener: (installationIds: number[]) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    /** Whether changes to `installationId` must wait for its devices. */
    async offline(installationId: number): Promise<boolean> {
      const row = await db.selectFrom('installations').select('online').where('id', '=', installationId).executeTakeFirst()
      return row ? !row.online : false
    },

    /**
     * Store a change of `field` of a target to send on reconnect; a change of the same field still
     * waiting is superseded (with `supersedeAll`, every change of the target still waiting). `value` is
     * what the target's applier receives.
     */
    async defer(input: { installationId: number; targetType: string; targetId: number; field: string; value: unknown; userId: number; at: Date; supersedeAll?: boolean }): Promise<PendingChange> {
      // `supersedeAll`: a change that makes the target's other waiting changes moot (a deletion).
      await db.updateTable('device_changes').set({ state: 'superseded', settled_at: input.at })
        .where('installation_id', '=', input.installationId).where('target_type', '=', input.targetType)
        .where('target_id', '=', input.targetId).where('state', '=', 'pending')
        .$if(!input.supersedeAll, (q) => q.where('field', '=', input.field)).execute()
      const row = await db.insertInto('device_changes').values({
        installation_id: input.installationId, target_type: input.targetType, target_id: input.targetId, field: input.field,
        value: JSON.stringify(input.value), user_id: input.userId, requested_at: input.at,
      }).returning(['id', 'target_type', 'target_id', 'field', 'value', 'requested_at']).executeTakeFirstOrThrow()
      return toPending(row)
    },

    /** Changes still waiting in `installationId` for targets of `targetType`, oldest first. */
    async pending(installationId: number, targetType: string): Promise<PendingChange[]> {
      const rows = await db.selectFrom('device_changes').select(['id', 'target_type', 'target_id', 'field', 'value', 'requested_at'])
        .where('installation_id', '=', installationId).where('target_type', '=', targetType).where('state', 'in', ['pending', 'sending'])
        .orderBy('id').execute()
      return rows.map(toPending)
    },
  }
  return link
}
export type DeviceLink = ReturnType<typeof createDeviceLink>
