import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { AppError, Forbidden, NotFound } from '../../lib/errors.ts'
import { canWrite, isAdmin, stationLevel, type PermissionEntry } from '../../../shared/rules/permissions.ts'
import { projectStation } from '../../../shared/rules/visibility.ts'
import { mayReadStation } from '../../../shared/rules/permissions.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { ChargingMode, StationStatus } from '../../../shared/rules/status.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'

const r2 = (x: number) => Math.round(x * 100) / 100

/** The live state a device reports for a station (SPEC §4 statuses and alerts, power in kW). */
export interface StationState {
  status: StationStatus | null
  status_code: number
  alerts: string[]
  power_kw: number
  current_session_id: number | null
}

/**
 * Charging stations: reading with rights (ARCHITECTURE §4), editing name and charging mode, and the
 * device side's state reports.
 */
export function createStationService({ db, installations }: { db: Db; installations: InstallationService }) {
  async function rows(installationId: number, stationId?: number): Promise<Station[]> {
    let q = db
      .selectFrom('charging_stations as s')
      .leftJoin('charging_sessions as cs', 'cs.id', 's.current_session_id')
      .leftJoin('rfids as r', 'r.id', 'cs.rfid_id')
      .where('s.installation_id', '=', installationId)
    if (stationId !== undefined) q = q.where('s.id', '=', stationId)
    const list = await q
      .selectAll('s')
      .select(['cs.energy_kwh', 'cs.start as session_start', 'r.id as rfid_id', 'r.tag as rfid_tag', 'r.description as rfid_description'])
      .orderBy('s.id')
      .execute()
    return list.map((s) => ({
      id: s.id,
      device_id: s.device_id,
      name: s.name,
      description: s.description,
      object_id: s.object_id,
      object_type: 'charging_station' as const,
      capacity_kw: s.capacity_kw,
      charging_mode: s.charging_mode as ChargingMode,
      status: s.status as StationStatus | null,
      status_code: s.status_code,
      alerts: s.alerts,
      rfid_lernmodus: s.rfid_lernmodus,
      power_kw: r2(s.power_kw),
      energy_kwh: r2(s.energy_kwh ?? 0),
      session_start: s.session_start?.toISOString() ?? null,
      rfid: s.rfid_id != null ? { id: s.rfid_id, tag: s.rfid_tag!, description: s.rfid_description ?? '' } : null,
      updated_at: s.updated_at.toISOString(),
    }))
  }

  return {
    /** GET …/charging_stations/: the stations the caller may read, paginated (limit ≤ 1000). */
    async list(actor: Actor, installationId: number, { limit, offset }: { limit: number; offset: number }): Promise<PageOf<Station>> {
      const access = await installations.access(actor, installationId)
      const visible = (await rows(installationId)).filter((s) => mayReadStation(access, s.id)).map((s) => projectStation(s, access))
      return { count: visible.length, next: null, previous: null, results: visible.slice(offset, offset + limit) }
    },

    /** GET …/charging_stations/{id}: 404 when unknown in this installation or not readable. */
    async get(actor: Actor, installationId: number, stationId: number): Promise<Station> {
      const access = await installations.access(actor, installationId)
      const [s] = await rows(installationId, stationId)
      if (!s || !mayReadStation(access, s.id)) throw NotFound()
      return projectStation(s, access)
    },

    /**
     * PATCH …/charging_stations/{id}: name and charging mode. Needs read_and_write on the station (admins
     * have it). Leaving `locked` (unlocking a disabled station) is for admins only (SPEC §6).
     */
    async update(actor: Actor, installationId: number, stationId: number, patch: { name?: string; charging_mode?: ChargingMode; rfid_lernmodus?: number }): Promise<Station> {
      const role = await installations.requireRole(actor, installationId)
      const station = await db.selectFrom('charging_stations').selectAll().where('id', '=', stationId).where('installation_id', '=', installationId).executeTakeFirst()
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
      }
      const set: Record<string, unknown> = { updated_at: new Date() }
      if (patch.name !== undefined) set.name = patch.name
      if (patch.rfid_lernmodus !== undefined) set.rfid_lernmodus = patch.rfid_lernmodus
      if (patch.charging_mode !== undefined) {
        set.charging_mode = patch.charging_mode
        if (patch.charging_mode === 'locked') set.status = 'off'
        else if (station.charging_mode === 'locked') set.status = 'noCar'
      }
      await db.updateTable('charging_stations').set(set).where('id', '=', stationId).execute()
      return this.get(actor, installationId, stationId)
    },

    /** Device side: the stations of an installation with what a simulator or gateway needs. */
    async forDevices(installationId: number) {
      return db.selectFrom('charging_stations').selectAll().where('installation_id', '=', installationId).orderBy('id').execute()
    },

    /** Device side: a station's reported state (SPEC §4 status, code, alerts, power). */
    async reportState(stationId: number, state: StationState): Promise<void> {
      await db
        .updateTable('charging_stations')
        .set({ ...state, alerts: JSON.stringify(state.alerts), updated_at: new Date() })
        .where('id', '=', stationId)
        .execute()
    },
  }
}
export type StationService = ReturnType<typeof createStationService>
