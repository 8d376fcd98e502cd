import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { canWrite, isAdmin, stationLevel, type PermissionEntry } from '../../../shared/rules/permissions.ts'
import { projectStation } from '../../../shared/rules/visibility.ts'
import { mayReadStation } from '../../../shared/rules/permissions.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { ChargingMode, StationStatus } from '../../../shared/rules/status.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { DeviceLink, SentChange } from '../devices/link.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Lang } from '../../lib/messages.ts'
import { mergedState, stationReason, type StoredLimit } from '../load/station-reason.ts'
import { tagIs } from '../rfids/id-token.ts'

const r2 = (x: number) => Math.round(x * 100) / 100

/** Station fields that reach the device and so wait while the installation is offline. */
const PENDING_FIELDS = ['charging_mode', 'rfid_lernmodus'] as const
type PendingField = (typeof PENDING_FIELDS)[number]

/** The live state a device reports for a station (SPEC §4 statuses and alerts, power in kW). */
export interface StationState {
  status: StationStatus | null
  status_code: number
  alerts: string[]
  power_kw: number
  current_session_id: number | null
}

/** Who hears of station changes a device must follow: an OCPP charge point's profile. */
export interface StationEvents {
  modeChanged?: (stationId: number, mode: string, previous: string) => Promise<void>
}

/**
 * Charging stations: reading with rights (ARCHITECTURE §4), editing name and charging mode, and the
 * device side's state reports. Changes are stamped with `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createStationService({ db, clock, installations, link, events = {} }: { db: Db; clock: Clock; installations: InstallationService; link?: DeviceLink; events?: StationEvents }) {
  async function rows(installationId: number, stationId?: number, lang: Lang = 'en'): Promise<Station[]> {
    const waiting = link ? await link.pending(installationId, 'charging_station') : []
    const inst = await db.selectFrom('installations').select('timezone').where('id', '=', installationId).executeTakeFirst()
    const tz = inst?.timezone ?? 'Europe/Zurich'
    // The load controller's last decision per station (migration 0174): limit, reason, code, alerts.
    let lq = db.selectFrom('load_limits').select(['station_id', 'limit_a', 'reason', 'params', 'until', 'status_code', 'alerts']).where('installation_id', '=', installationId)
    if (stationId !== undefined) lq = lq.where('station_id', '=', stationId)
    const limits = new Map<number, StoredLimit>((await lq.execute()).map((l) => [l.station_id, l]))
    let q = db
      .selectFrom('charging_stations as s')
      .leftJoin('charging_sessions as cs', 'cs.id', 's.current_session_id')
      .leftJoin('rfids as r', 'r.id', 'cs.rfid_id')
      .where('s.installation_id', '=', installationId)
      // A deleted (archived) station leaves the lists and live data; its sessions stay (migration 0170).
      .where('s.archived_at', 'is', null)
    if (stationId !== undefined) q = q.where('s.id', '=', stationId)
    const list = await q
      .selectAll('s')
      .select(['cs.energy_kwh', 'cs.start as session_start', 'r.id as rfid_id', 'r.tag as rfid_tag', 'r.description as rfid_description'])
      .orderBy('s.id')
      .execute()
    return list.map((s) => ({
      ...mergedState(s, limits.get(s.id) ?? null),
      reason: stationReason(s, limits.get(s.id) ?? null, tz, lang),
      id: s.id,
      device_id: s.device_id,
      name: s.name,
      description: s.description,
      object_id: s.object_id,
      object_type: 'charging_station' as const,
      capacity_kw: s.capacity_kw,
      phases: s.phases,
      charging_mode: s.charging_mode as ChargingMode,
      status: s.status as StationStatus | null,
      rfid_lernmodus: s.rfid_lernmodus,
      pending_rfid: s.pending_rfid_tag ? { tag: s.pending_rfid_tag, detected_at: (s.pending_rfid_at ?? s.updated_at).toISOString() } : null,
      power_kw: r2(s.power_kw),
      energy_kwh: r2(s.energy_kwh ?? 0),
      session_start: s.session_start?.toISOString() ?? null,
      rfid: s.rfid_id != null ? { id: s.rfid_id, tag: s.rfid_tag!, description: s.rfid_description ?? '' } : null,
      updated_at: s.updated_at.toISOString(),
      pending_changes: waiting.filter((c) => c.target_id === s.id).map((c) => ({ field: c.field as PendingField, value: c.value as string | number, requested_at: c.requested_at })),
    }))
  }

  // The outcome of a change sent on reconnect, one journal entry each.
  async function journalSent(installationId: number, change: SentChange, at: Date): Promise<void> {
    const s = await db.selectFrom('charging_stations').select('charging_mode').where('id', '=', change.target_id).executeTakeFirst()
    if (!s) return
    const detail = change.outcome === 'applied' ? `offline_applied:${change.field}` : `offline_failed:${change.field}:${change.reason}`
    const mode = change.field === 'charging_mode' ? String(change.value) : s.charging_mode
    await db.insertInto('journal_events').values({ installation_id: installationId, station_id: change.target_id, rfid_id: null, kind: 'journal_entry', charging_mode: mode, at, detail }).execute()
  }

  const service = {
    /** GET …/charging_stations/: the stations the caller may read, paginated (limit ≤ 1000). */
    async list(actor: Actor, installationId: number, { limit, offset }: { limit: number; offset: number }, lang: Lang = 'en'): Promise<PageOf<Station>> {
      const access = await installations.access(actor, installationId)
      const visible = (await rows(installationId, undefined, lang)).filter((s) => mayReadStation(access, s.id)).map((s) => projectStation(s, access))
      return { count: visible.length, next: null, previous: null, results: visible.slice(offset, offset + limit) }
    },

    /** GET …/charging_stations/{id}: 404 when unknown in this installation or not readable. */
    async get(actor: Actor, installationId: number, stationId: number, lang: Lang = 'en'): Promise<Station> {
      const access = await installations.access(actor, installationId)
      const [s] = await rows(installationId, stationId, lang)
      if (!s || !mayReadStation(access, s.id)) throw NotFound()
      return projectStation(s, access)
    },

    /**
     * PATCH …/charging_stations/{id}: name, charging mode and learning mode. Needs read_and_write on the
     * station (admins have it). Leaving `locked` (unlocking a disabled station) is for admins only
     * (SPEC §6). Learning mode (rfid_lernmodus, SPEC §4) is for admins: turning it on needs a car plugged
     * in (400 learningNoCar) and is refused while charging (400 learningCharging); turning it off clears
     * the pending learned tag. While the installation is offline the charging mode and
     * learning mode wait as pending changes (`pending_changes` of the answer) after the rights checks and
     * are applied on reconnect (`replay`), where the learning-mode checks happen; the name applies at once.
     */
    async update(actor: Actor, installationId: number, stationId: number, patch: { name?: string; charging_mode?: ChargingMode; rfid_lernmodus?: number }, opts: { replay?: boolean; lang?: Lang } = {}): Promise<Station> {
      const role = await installations.requireRole(actor, installationId)
      const station = await db.selectFrom('charging_stations').selectAll().where('id', '=', stationId).where('installation_id', '=', installationId).where('archived_at', 'is', null).executeTakeFirst()
      if (!station) throw NotFound()
      if (!isAdmin(role)) {
        const [entries, objects] = await Promise.all([
          db.selectFrom('permissions').select(['object_type', 'object_id', 'level', 'cost', 'overview']).where('user_id', '=', actor.id).where('installation_id', '=', installationId).execute(),
          db.selectFrom('objects').select(['id', 'parent_object_id']).where('installation_id', '=', installationId).execute(),
        ])
        const level = stationLevel(station, new Map(objects.map((o) => [o.id, o.parent_object_id])), entries as PermissionEntry[])
        if (level === 'none' || level === 'inherit') throw NotFound()
        if (!canWrite(level)) throw Forbidden()
        if (station.charging_mode === 'locked' && patch.charging_mode && patch.charging_mode !== 'locked') throw new AppError(403, 'unlockStation')
        if (patch.rfid_lernmodus !== undefined && patch.rfid_lernmodus !== station.rfid_lernmodus) throw Forbidden()
      }
      if (link && !opts.replay && (patch.charging_mode !== undefined || patch.rfid_lernmodus !== undefined) && (await link.offline(installationId))) {
        const at = clock.now()
        for (const field of PENDING_FIELDS) {
          if (patch[field] !== undefined) await link.defer({ installationId, targetType: 'charging_station', targetId: stationId, field, value: patch[field], userId: actor.id, at })
        }
        patch = { name: patch.name }
      }
      if (patch.rfid_lernmodus !== undefined && patch.rfid_lernmodus > 0 && station.rfid_lernmodus === 0) {
        if (station.status === 'charging') throw new Invalid({ rfid_lernmodus: ['learningCharging'] })
        if (station.status !== 'carPluggedIn' && station.status !== 'notBadgedIn') throw new Invalid({ rfid_lernmodus: ['learningNoCar'] })
      }
      const set: Record<string, unknown> = { updated_at: clock.now() }
      if (patch.name !== undefined) set.name = patch.name
      if (patch.rfid_lernmodus !== undefined) {
        set.rfid_lernmodus = patch.rfid_lernmodus
        if (patch.rfid_lernmodus === 0) Object.assign(set, { pending_rfid_tag: null, pending_rfid_at: null })
      }
      if (patch.charging_mode !== undefined) {
        set.charging_mode = patch.charging_mode
        // A station bound to an OCPP charge point shows what its charger reports (OCPP 1.6 §4.9 Status
        // Notification): locking it sends ChangeAvailability, and the charger's answer is its new status —
        // a charger still charging says so, it does not become "Ready" by a mode change.
        const charger = await db.selectFrom('ocpp_charge_points').select('id').where('station_id', '=', stationId).executeTakeFirst()
        if (!charger) {
          if (patch.charging_mode === 'locked') set.status = 'off'
          else if (station.charging_mode === 'locked') set.status = 'noCar'
        }
      }
      await db.updateTable('charging_stations').set(set).where('id', '=', stationId).execute()
      // A replayed change is journaled with its outcome by journalSent.
      if (patch.charging_mode !== undefined && patch.charging_mode !== station.charging_mode && !opts.replay) {
        await db.insertInto('journal_events').values({ installation_id: installationId, station_id: stationId, rfid_id: null, kind: 'journal_entry', charging_mode: patch.charging_mode, at: clock.now(), detail: 'mode_changed' }).execute()
        await events.modeChanged?.(stationId, patch.charging_mode, station.charging_mode)
      }
      return service.get(actor, installationId, stationId, opts.lang)
    },

    /** Device side: the stations of an installation with what a simulator or gateway needs. */
    async forDevices(installationId: number) {
      return db.selectFrom('charging_stations').selectAll().where('installation_id', '=', installationId).where('archived_at', 'is', null).orderBy('id').execute()
    },

    /** The installation of station `stationId` (the /ladestation/{id}/ routes); 404 when unknown. */
    async installationOf(stationId: number): Promise<number> {
      const row = await db.selectFrom('charging_stations').select('installation_id').where('id', '=', stationId).executeTakeFirst()
      if (!row) throw NotFound()
      return row.installation_id
    },

    /** Device side: stations in learning mode still waiting for an unknown badge. */
    async learning(installationId: number): Promise<number[]> {
      const rows = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('archived_at', 'is', null)
        .where('rfid_lernmodus', '>', 0).where('pending_rfid_tag', 'is', null).execute()
      return rows.map((r) => r.id)
    },

    /**
     * Device side: an unknown card badged at a station in learning mode (SPEC §4). Kept as the pending
     * new RFID until an admin registers or ignores it (the journal notes either then, not the detection);
     * ignored when learning is off, a tag is pending, the tag is an active card of the installation, or
     * an admin ignored it at this station before (docs/decisions.md "Learning mode: what is offered").
     * True when the tag became the pending one.
     */
    async reportLearnedTag(stationId: number, tag: string, at: Date): Promise<boolean> {
      const r = await db.updateTable('charging_stations').set({ pending_rfid_tag: tag, pending_rfid_at: at, updated_at: at })
        .where('id', '=', stationId).where('rfid_lernmodus', '>', 0).where('pending_rfid_tag', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('rfids').select('rfids.id').whereRef('rfids.installation_id', '=', 'charging_stations.installation_id').where('rfids.active', '=', true).where(tagIs(tag, 'rfids.tag')))))
        .where((eb) => eb.not(eb.exists(eb.selectFrom('journal_events').select('journal_events.id').where('journal_events.station_id', '=', stationId).where('journal_events.detail', '=', `rfid_ignored:${tag}`))))
        .returning('id').executeTakeFirst()
      return r !== undefined
    },

    /** Device side: a station in timer mode switched to `mode` by one of its timers (journal, set by timer). */
    async recordTimerSwitch(stationId: number, mode: string, at: Date): Promise<void> {
      const s = await db.selectFrom('charging_stations').select('installation_id').where('id', '=', stationId).executeTakeFirst()
      if (!s) return
      await db.insertInto('journal_events').values({ installation_id: s.installation_id, station_id: stationId, rfid_id: null, kind: 'journal_entry', charging_mode: mode, at, set_by_timer: true, detail: 'mode_changed' }).execute()
    },

    /** Device side: a station's reported state (SPEC §4 status, code, alerts, power). */
    async reportState(stationId: number, state: StationState): Promise<void> {
      await db
        .updateTable('charging_stations')
        .set({ ...state, alerts: JSON.stringify(state.alerts), updated_at: clock.now() })
        .where('id', '=', stationId)
        .execute()
    },
  }
  link?.handle('charging_station', {
    apply: async (actor, installationId, change) => {
      await service.update(actor, installationId, change.target_id, { [change.field]: change.value } as { charging_mode?: ChargingMode; rfid_lernmodus?: number }, { replay: true })
    },
    journal: journalSent,
  })
  return service
}
export type StationService = ReturnType<typeof createStationService>
