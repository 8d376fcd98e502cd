import type { Db } from '../../db/connection.ts'
import { tagIs } from './id-token.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import type { MessageKey } from '../../lib/messages.ts'
import { canWrite, isAdmin, mayReadRfid, mayReadStation, rfidLevel, type PermissionEntry } from '../../../shared/rules/permissions.ts'
import { tagHasSpaces, type PendingRfid, type Rfid, type RfidPendingChange } from '../../../shared/schemas/rfid.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { DeviceLink, SentChange } from '../devices/link.ts'
import type { Clock } from '../../lib/clock.ts'

/** A learned card works this long after it was registered (SPEC §9: about 3 minutes). */
export const LEARNED_READY_MS = 3 * 60_000

/** Fields a create or update may carry (validated shapes from shared/schemas/rfid.ts). */
export interface RfidInput {
  tag?: string
  description?: string
  user_id?: number | null
  all_stations?: boolean
  station_ids?: number[]
}

/**
 * RFID cards (SPEC §3–§6): reading with rights (admins all; others their own cards and those their
 * rfid permission entries grant), creating and editing by admins (owners and read_and_write holders may
 * change the description), deleting by admins (sets active false, SPEC §4), per-station permissions or
 * all stations. Errors: 404 unknown or unreadable, 403 readable but not writable, 400 `{field: [msg]}`.
 *
 * While the installation is offline (SPEC §4) what reaches the stations waits in the device
 * link, after the same rights and input checks as online: the tag, the allowed stations and a deletion
 * stay as they were until the facility is back (the cards answer them in `pending_changes`), then are
 * applied as the person who made them (checks again) and journaled on the stations the card reaches. A
 * new card is recorded at once (the devices read it once connected) and marked as not yet sent. The
 * description and the card's holder are the portal's own and change at once. "Now" (when a change waits,
 * when a learned card becomes usable) is `clock`'s (ARCHITECTURE §1 "Time").
 */
export function createRfidService({ db, clock, installations, link }: { db: Db; clock: Clock; installations: InstallationService; link?: DeviceLink }) {
  async function load(installationId: number, ids?: number[], activeOnly = true): Promise<Rfid[]> {
    let q = db.selectFrom('rfids as r').leftJoin('users as u', 'u.id', 'r.user_id').where('r.installation_id', '=', installationId)
    if (ids) {
      if (!ids.length) return []
      q = q.where('r.id', 'in', ids)
    }
    if (activeOnly) q = q.where('r.active', '=', true)
    const rows = await q.selectAll('r').select(['u.first_name', 'u.last_name']).orderBy('r.id').execute()
    const links = rows.length
      ? await db.selectFrom('rfid_stations').select(['rfid_id', 'station_id']).where('rfid_id', 'in', rows.map((r) => r.id)).orderBy('station_id').execute()
      : []
    const waiting = link && rows.length ? await link.pending(installationId, 'rfid') : []
    return rows.map((r) => ({
      id: r.id,
      installation_id: r.installation_id,
      tag: r.tag,
      description: r.description,
      user_id: r.user_id,
      user_name: r.user_id != null ? `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() : null,
      active: r.active,
      all_stations: r.all_stations,
      station_ids: r.all_stations ? [] : links.filter((l) => l.rfid_id === r.id).map((l) => l.station_id),
      ready_at: r.ready_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
      pending_changes: waiting.filter((c) => c.target_id === r.id)
        .map((c) => ({ field: c.field as RfidPendingChange['field'], value: c.value as RfidPendingChange['value'], requested_at: c.requested_at })),
    }))
  }

  /** Whether changes that reach the stations must wait; never for a change being sent. */
  async function mustWait(installationId: number, replay?: boolean): Promise<boolean> {
    return Boolean(link && !replay && (await link.offline(installationId)))
  }

  /** The stations a card works at (all of the installation's for an all-stations card). */
  async function reach(installationId: number, rfidId: number): Promise<number[]> {
    const r = await db.selectFrom('rfids').select('all_stations').where('id', '=', rfidId).executeTakeFirst()
    if (!r) return []
    const rows = r.all_stations
      ? await db.selectFrom('charging_stations').select('id as station_id').where('installation_id', '=', installationId).execute()
      : await db.selectFrom('rfid_stations').select('station_id').where('rfid_id', '=', rfidId).execute()
    return rows.map((x) => x.station_id)
  }

  /** The installation of an RFID (global endpoints); 404 when unknown. */
  async function installationOf(rfidId: number): Promise<number> {
    const row = await db.selectFrom('rfids').select('installation_id').where('id', '=', rfidId).executeTakeFirst()
    if (!row) throw NotFound()
    return row.installation_id
  }

  async function levelOf(actor: Actor, installationId: number, rfid: { id: number; user_id: number | null }) {
    const entries = await db.selectFrom('permissions').select(['object_type', 'object_id', 'level', 'cost', 'overview'])
      .where('user_id', '=', actor.id).where('installation_id', '=', installationId).execute()
    return rfidLevel(rfid, actor.id, entries as PermissionEntry[])
  }

  /** The RFID readable by the caller (404 otherwise; admins also see inactive ones). */
  async function readable(actor: Actor, installationId: number, rfidId: number): Promise<Rfid> {
    const access = await installations.access(actor, installationId)
    const [r] = await load(installationId, [rfidId], !isAdmin(access.role))
    if (!r || !mayReadRfid(access, r.id)) throw NotFound()
    return r
  }

  async function validate(installationId: number, input: RfidInput, exceptId?: number): Promise<void> {
    const fields: Record<string, MessageKey[]> = {}
    if (input.tag !== undefined) {
      if (tagHasSpaces(input.tag)) fields.tag = ['rfidTagSpaces']
      else {
        let q = db.selectFrom('rfids').select('id').where('installation_id', '=', installationId).where('active', '=', true).where(tagIs(input.tag))
        if (exceptId !== undefined) q = q.where('id', '!=', exceptId)
        if (await q.executeTakeFirst()) fields.tag = ['rfidTagExists']
      }
    }
    if (input.user_id != null) {
      const member = await db.selectFrom('installation_users').select('user_id').where('installation_id', '=', installationId).where('user_id', '=', input.user_id).executeTakeFirst()
      if (!member) fields.user_id = ['invalidValue']
    }
    if (input.station_ids?.length) {
      const found = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('id', 'in', input.station_ids).execute()
      if (found.length !== new Set(input.station_ids).size) fields.station_ids = ['invalidValue']
    }
    if (Object.keys(fields).length) throw new Invalid(fields)
  }

  async function setStations(rfidId: number, stationIds: number[]): Promise<void> {
    await db.deleteFrom('rfid_stations').where('rfid_id', '=', rfidId).execute()
    const unique = [...new Set(stationIds)]
    if (unique.length) await db.insertInto('rfid_stations').values(unique.map((station_id) => ({ rfid_id: rfidId, station_id }))).execute()
  }

  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }

  /** Station ids of an installation for device ids; 400 on `device_ids` when one is unknown there. */
  async function stationIdsOf(installationId: number, deviceIds: string[]): Promise<number[]> {
    if (!deviceIds.length) return []
    const rows = await db.selectFrom('charging_stations').select(['id', 'device_id']).where('installation_id', '=', installationId).where('device_id', 'in', deviceIds).execute()
    if (rows.length !== new Set(deviceIds).size) throw new Invalid({ device_ids: ['invalidValue'] })
    return rows.map((r) => r.id)
  }

  /**
   * Offline: store the fields of `patch` that reach the stations as waiting changes (only those that
   * change something, or that replace a change still waiting) and return the rest, which applies now.
   */
  async function deferDeviceFields(actor: Actor, installationId: number, current: Rfid, patch: RfidInput): Promise<RfidInput> {
    const at = clock.now()
    const waiting = new Set(current.pending_changes.map((c) => c.field))
    const defer = (field: 'tag' | 'stations', value: unknown) => link!.defer({ installationId, targetType: 'rfid', targetId: current.id, field, value, userId: actor.id, at })
    if (patch.tag !== undefined && (patch.tag !== current.tag || waiting.has('tag'))) await defer('tag', patch.tag)
    if (patch.all_stations !== undefined || patch.station_ids !== undefined) {
      const all = patch.all_stations ?? current.all_stations
      const ids = all ? [] : [...new Set(patch.station_ids ?? current.station_ids)].sort((x, y) => x - y)
      const same = all === current.all_stations && ids.join() === current.station_ids.join()
      if (!same || waiting.has('stations')) await defer('stations', { all_stations: all, station_ids: ids })
    }
    return { description: patch.description, user_id: patch.user_id }
  }

  // How a waiting change is sent on reconnect, and where its outcome is journaled: on every
  // station the card reached before or reaches after it (the card shows it in its own journal too).
  const reachedBefore = new Map<number, number[]>()
  link?.handle('rfid', {
    apply: async (actor, installationId, change) => {
      reachedBefore.set(change.id, await reach(installationId, change.target_id))
      const replay = { replay: true }
      if (change.field === 'tag') await service.update(actor, installationId, change.target_id, { tag: change.value as string }, replay)
      else if (change.field === 'stations') await service.update(actor, installationId, change.target_id, change.value as { all_stations: boolean; station_ids: number[] }, replay)
      else if (change.field === 'active') await service.remove(actor, installationId, change.target_id, replay)
      // 'create': the card is recorded already; the devices read it once connected.
    },
    journal: async (installationId: number, change: SentChange, at: Date) => {
      const stations = [...new Set([...(reachedBefore.get(change.id) ?? []), ...(await reach(installationId, change.target_id))])]
      reachedBefore.delete(change.id)
      if (!stations.length) return
      const modes = await db.selectFrom('charging_stations').select(['id', 'charging_mode']).where('installation_id', '=', installationId).where('id', 'in', stations).execute()
      const detail = change.outcome === 'applied' ? `offline_applied:card_${change.field}` : `offline_failed:card_${change.field}:${change.reason}`
      await db.insertInto('journal_events').values(modes.map((s) => ({ installation_id: installationId, station_id: s.id, rfid_id: change.target_id, kind: 'journal_entry' as const, charging_mode: s.charging_mode, at, detail }))).execute()
    },
  })

  const service = {
    installationOf,

    /** GET …/installations/{id}/rfids/: the active cards the caller may read, by id. */
    async list(actor: Actor, installationId: number, { limit, offset }: { limit: number; offset: number }): Promise<PageOf<Rfid>> {
      const access = await installations.access(actor, installationId)
      const visible = (await load(installationId)).filter((r) => mayReadRfid(access, r.id))
      return { count: visible.length, next: null, previous: null, results: visible.slice(offset, offset + limit) }
    },

    /** GET /api/rfids/: the readable active cards of every installation the caller has a role in. */
    async listAll(actor: Actor, { limit, offset }: { limit: number; offset: number }): Promise<PageOf<Rfid>> {
      const mine = await installations.list(actor, { limit: 1000, offset: 0, include_archived: true })
      const all: Rfid[] = []
      for (const inst of mine.results) {
        const access = await installations.access(actor, inst.id)
        all.push(...(await load(inst.id)).filter((r) => mayReadRfid(access, r.id)))
      }
      return { count: all.length, next: null, previous: null, results: all.slice(offset, offset + limit) }
    },

    /** GET one card; 404 when unknown in this installation or not readable. */
    get: readable,

    /** Create a card (admins only, 403 otherwise); 400 for a tag with spaces or already active here. */
    async create(actor: Actor, installationId: number, input: Required<RfidInput>): Promise<Rfid> {
      await requireAdmin(actor, installationId)
      await validate(installationId, input)
      const row = await db
        .insertInto('rfids')
        .values({ installation_id: installationId, tag: input.tag, description: input.description, user_id: input.user_id, active: true, all_stations: input.all_stations, created_at: clock.now() })
        .returning('id')
        .executeTakeFirstOrThrow()
      if (!input.all_stations) await setStations(row.id, input.station_ids)
      if (await mustWait(installationId)) await link!.defer({ installationId, targetType: 'rfid', targetId: row.id, field: 'create', value: null, userId: actor.id, at: clock.now() })
      return readable(actor, installationId, row.id)
    },

    /**
     * PUT/PATCH a card. Admins change every field; the owner or a read_and_write holder only the
     * description (403 for other fields); readers get 403, others 404. Offline, the tag and the allowed
     * stations wait (`pending_changes`); `replay` is the sending of such a change on reconnect.
     */
    async update(actor: Actor, installationId: number, rfidId: number, patch: RfidInput, opts: { replay?: boolean } = {}): Promise<Rfid> {
      const current = await readable(actor, installationId, rfidId)
      const role = await installations.requireRole(actor, installationId)
      if (!isAdmin(role)) {
        if (!canWrite(await levelOf(actor, installationId, current))) throw Forbidden()
        const adminOnly = (['tag', 'user_id', 'all_stations', 'station_ids'] as const).some((k) => patch[k] !== undefined)
        if (adminOnly) throw Forbidden()
      }
      await validate(installationId, patch, rfidId)
      if (await mustWait(installationId, opts.replay)) patch = await deferDeviceFields(actor, installationId, current, patch)
      const set: Record<string, unknown> = {}
      if (patch.tag !== undefined) set.tag = patch.tag
      if (patch.description !== undefined) set.description = patch.description
      if (patch.user_id !== undefined) set.user_id = patch.user_id
      if (patch.all_stations !== undefined) set.all_stations = patch.all_stations
      if (Object.keys(set).length) await db.updateTable('rfids').set(set).where('id', '=', rfidId).execute()
      if (patch.station_ids !== undefined) await setStations(rfidId, patch.station_ids)
      if (patch.all_stations === true) await setStations(rfidId, [])
      return readable(actor, installationId, rfidId)
    },

    /**
     * DELETE a card (admins only): sets active false (SPEC §4); the row and its sessions stay. Offline,
     * the deletion waits (the card stays active until it is sent).
     */
    async remove(actor: Actor, installationId: number, rfidId: number, opts: { replay?: boolean } = {}): Promise<void> {
      await readable(actor, installationId, rfidId)
      await requireAdmin(actor, installationId)
      if (await mustWait(installationId, opts.replay)) {
        // A deletion makes the card's other waiting changes moot.
        await link!.defer({ installationId, targetType: 'rfid', targetId: rfidId, field: 'active', value: false, userId: actor.id, at: clock.now(), supersedeAll: true })
        return
      }
      await db.updateTable('rfids').set({ active: false }).where('id', '=', rfidId).execute()
    },

    /** GET /api/rfids/{id}/charging_stations: the stations the card may charge at (all when all_stations). */
    async stations(actor: Actor, rfidId: number) {
      const installationId = await installationOf(rfidId)
      const r = await readable(actor, installationId, rfidId)
      let q = db.selectFrom('charging_stations').select(['id', 'device_id', 'name']).where('installation_id', '=', installationId).where('archived_at', 'is', null)
      if (!r.all_stations) q = r.station_ids.length ? q.where('id', 'in', r.station_ids) : q.where('id', '=', -1)
      return { all_stations: r.all_stations, results: await q.orderBy('id').execute() }
    },

    /**
     * POST (add) or PUT (replace) /api/rfids/{id}/charging_stations with device_ids: limits the card to
     * those stations (all_stations becomes false). Admins only.
     */
    async setStationsByDevice(actor: Actor, rfidId: number, deviceIds: string[], mode: 'add' | 'replace') {
      const installationId = await installationOf(rfidId)
      const r = await readable(actor, installationId, rfidId)
      await requireAdmin(actor, installationId)
      const ids = await stationIdsOf(installationId, deviceIds)
      const next = mode === 'add' && !r.all_stations ? [...r.station_ids, ...ids] : ids
      // Through update, so that it waits like any other change of the allowed stations while offline.
      await service.update(actor, installationId, rfidId, { all_stations: false, station_ids: [...new Set(next)] })
      return service.stations(actor, rfidId)
    },

    /** DELETE /api/rfids/{id}/charging_stations/{device_id}: take one station off the card (admins). */
    async removeStationByDevice(actor: Actor, rfidId: number, deviceId: string): Promise<void> {
      const installationId = await installationOf(rfidId)
      const r = await readable(actor, installationId, rfidId)
      await requireAdmin(actor, installationId)
      const [stationId] = await stationIdsOf(installationId, [deviceId]).catch(() => {
        throw NotFound()
      })
      if (r.all_stations) {
        // "All stations" minus one: list every other station explicitly.
        const others = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('id', '!=', stationId).execute()
        await service.update(actor, installationId, rfidId, { all_stations: false, station_ids: others.map((o) => o.id) })
      } else {
        if (!r.station_ids.includes(stationId)) throw NotFound()
        await service.update(actor, installationId, rfidId, { all_stations: false, station_ids: r.station_ids.filter((id) => id !== stationId) })
      }
    },

    /**
     * GET …/charging_stations/{id}/rfids (SPEC §7): the readable active cards that may charge at the
     * station (all-stations cards and those limited to it). 404 when the station is unknown or unreadable.
     */
    async forStation(actor: Actor, installationId: number, stationId: number): Promise<PageOf<Rfid>> {
      const access = await installations.access(actor, installationId)
      const station = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('id', '=', stationId).executeTakeFirst()
      if (!station || !mayReadStation(access, station.id)) throw NotFound()
      const visible = (await load(installationId)).filter((r) => mayReadRfid(access, r.id) && (r.all_stations || r.station_ids.includes(stationId)))
      return { count: visible.length, next: null, previous: null, results: visible }
    },

    /** GET /api/rfids/new?installation=…: tags learned by stations and waiting for an admin (admins only). */
    async pending(actor: Actor, installationId: number): Promise<PendingRfid[]> {
      await requireAdmin(actor, installationId)
      const rows = await db.selectFrom('charging_stations').select(['id', 'device_id', 'name', 'pending_rfid_tag', 'pending_rfid_at'])
        .where('installation_id', '=', installationId).where('pending_rfid_tag', 'is not', null).orderBy('id').execute()
      return rows.map((r) => ({ station_id: r.id, device_id: r.device_id, station_name: r.name, tag: r.pending_rfid_tag!, detected_at: (r.pending_rfid_at ?? clock.now()).toISOString() }))
    },

    /**
     * POST …/charging_stations/{id}/learned_rfid (admins): register the station's pending learned tag as a
     * card for all stations, usable about 3 minutes later (SPEC §9, `LEARNED_READY_MS`); clears the
     * pending tag and ends learning at that station. 404 unknown station, 400 noPendingRfid or
     * rfidTagExists.
     */
    async registerLearned(actor: Actor, installationId: number, stationId: number, input: { description: string; user_id: number | null }, now = clock.now()): Promise<Rfid> {
      await requireAdmin(actor, installationId)
      const station = await db.selectFrom('charging_stations').select(['id', 'pending_rfid_tag', 'charging_mode']).where('installation_id', '=', installationId).where('id', '=', stationId).executeTakeFirst()
      if (!station) throw NotFound()
      const tag = station.pending_rfid_tag
      if (!tag) throw new AppError(400, 'noPendingRfid')
      await validate(installationId, { tag, user_id: input.user_id })
      const id = await db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('rfids')
          .values({ installation_id: installationId, tag, description: input.description, user_id: input.user_id, active: true, all_stations: true, ready_at: new Date(now.getTime() + LEARNED_READY_MS), created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
        await tx.updateTable('charging_stations').set({ rfid_lernmodus: 0, pending_rfid_tag: null, pending_rfid_at: null, updated_at: now }).where('id', '=', stationId).execute()
        await tx.insertInto('journal_events').values({ installation_id: installationId, station_id: stationId, rfid_id: null, kind: 'rfid_session_journal_entry', charging_mode: station.charging_mode, at: now, detail: `rfid_learned:${tag}` }).execute()
        return row.id
      })
      return readable(actor, installationId, id)
    },

    /**
     * DELETE …/charging_stations/{id}/learned_rfid (admins): ignore the pending tag; learning stays on. The
     * journal notes the tag as ignored, and the station does not offer it again (stations service
     * reportLearnedTag). 404 unknown station.
     */
    async ignoreLearned(actor: Actor, installationId: number, stationId: number): Promise<void> {
      await requireAdmin(actor, installationId)
      const now = clock.now()
      await db.transaction().execute(async (tx) => {
        const station = await tx.selectFrom('charging_stations').select(['pending_rfid_tag', 'charging_mode']).where('installation_id', '=', installationId).where('id', '=', stationId).forUpdate().executeTakeFirst()
        if (!station) throw NotFound()
        if (!station.pending_rfid_tag) return
        await tx.updateTable('charging_stations').set({ pending_rfid_tag: null, pending_rfid_at: null, updated_at: now }).where('id', '=', stationId).execute()
        await tx.insertInto('journal_events').values({ installation_id: installationId, station_id: stationId, rfid_id: null, kind: 'rfid_session_journal_entry', charging_mode: station.charging_mode, at: now, detail: `rfid_ignored:${station.pending_rfid_tag}` }).execute()
      })
    },

    /** Whether an active card with `tag` exists in the installation (learning mode, device side). */
    async byTag(installationId: number, tag: string) {
      return db.selectFrom('rfids').selectAll().where('installation_id', '=', installationId).where(tagIs(tag)).where('active', '=', true).executeTakeFirst()
    },
  }
  return service
}
export type RfidService = ReturnType<typeof createRfidService>
