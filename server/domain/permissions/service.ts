import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { normalizeLevel } from '../../../shared/rules/permissions.ts'
import type { Permission, PermissionSet } from '../../../shared/schemas/permissions.ts'
import type { Clock } from '../../lib/clock.ts'
import { recordAudit } from '../audit/service.ts'

type Key = { user_id: number; object_type: Permission['object_type']; object_id: number }

/**
 * Permission entries (SPEC §5–6, ARCHITECTURE §4): read and changed only by the
 * installation's admins and superusers. The user must belong to the installation and the object must be
 * one of its objects, stations or RFIDs (or 0 = all stations / all RFIDs); otherwise 404. Setting the
 * level to none deletes the entry. The relay picks the change up at its next access check. Every change
 * is recorded in the audit trail with the entry before and after (entity "user:object_type:object_id").
 */
export function createPermissionService({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  async function requireAdmin(actor: Actor, installationId: number) {
    const role = await installations.requireRole(actor, installationId)
    if (role === 'installation_user') throw Forbidden()
  }

  async function checkKey(installationId: number, key: Key) {
    const member = await db.selectFrom('installation_users').select('user_id').where('user_id', '=', key.user_id).where('installation_id', '=', installationId).executeTakeFirst()
    if (!member) throw NotFound()
    if (key.object_id === 0 && key.object_type !== 'object') return
    const table = key.object_type === 'object' ? 'objects' : key.object_type === 'charging_station' ? 'charging_stations' : 'rfids'
    const found = await db.selectFrom(table).select('id').where('id', '=', key.object_id).where('installation_id', '=', installationId).executeTakeFirst()
    if (!found) throw NotFound()
  }

  const entityId = (key: Key) => `${key.user_id}:${key.object_type}:${key.object_id}`
  const entry = (p: Permission | undefined) => p && { user_id: p.user_id, object_type: p.object_type, object_id: p.object_id, level: p.level, cost: p.cost, overview: p.overview }

  const keyed = (installationId: number, key: Key, tx: Db = db) =>
    tx.selectFrom('permissions').selectAll().where('installation_id', '=', installationId).where('user_id', '=', key.user_id)
      .where('object_type', '=', key.object_type).where('object_id', '=', key.object_id)

  return {
    /**
     * GET …/permissions: the installation's entries, filtered by any of user_id, object_type, object_id; ordered
     * by user, type, object. `pinned` (the object named in the path, …/objects/{id}/permissions) must be an
     * object of this installation: 404 otherwise, as for any path naming another installation's object.
     */
    async list(actor: Actor, installationId: number, filter: Partial<Key>, pinned?: { object_type: Key['object_type']; object_id: number }): Promise<Permission[]> {
      await requireAdmin(actor, installationId)
      if (pinned && !(pinned.object_id === 0 && pinned.object_type !== 'object')) {
        const table = pinned.object_type === 'object' ? 'objects' : pinned.object_type === 'charging_station' ? 'charging_stations' : 'rfids'
        if (!(await db.selectFrom(table).select('id').where('id', '=', pinned.object_id).where('installation_id', '=', installationId).executeTakeFirst())) throw NotFound()
      }
      let q = db.selectFrom('permissions').selectAll().where('installation_id', '=', installationId)
      if (filter.user_id !== undefined) q = q.where('user_id', '=', filter.user_id)
      if (filter.object_type !== undefined) q = q.where('object_type', '=', filter.object_type)
      if (filter.object_id !== undefined) q = q.where('object_id', '=', filter.object_id)
      return q.orderBy('user_id').orderBy('object_type').orderBy('object_id').execute()
    },

    /**
     * PUT/PATCH …/permissions: create or update the entry; a level that reduces to none deletes it and
     * answers null (SPEC §5). `cost`/`overview` left out keep their value (false for a new entry).
     */
    async set(actor: Actor, installationId: number, body: PermissionSet): Promise<Permission | null> {
      await requireAdmin(actor, installationId)
      const key = { user_id: body.user_id, object_type: body.object_type, object_id: body.object_id }
      await checkKey(installationId, key)
      const level = normalizeLevel(body.level)
      return db.transaction().execute(async (tx) => {
        const existing = await keyed(installationId, key, tx).forUpdate().executeTakeFirst()
        const audit = (after: Permission | undefined) =>
          recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: !existing ? 'create' : after ? 'update' : 'delete', entity_type: 'permission', entity_id: entityId(key), before: entry(existing), after: entry(after) })
        if (level === 'none') {
          if (existing) {
            await tx.deleteFrom('permissions').where('id', '=', existing.id).execute()
            await audit(undefined)
          }
          return null
        }
        const cost = body.cost ?? existing?.cost ?? false
        const overview = body.overview ?? existing?.overview ?? false
        const saved = await tx.insertInto('permissions').values({ installation_id: installationId, ...key, level, cost, overview })
          .onConflict((oc) => oc.columns(['user_id', 'installation_id', 'object_type', 'object_id']).doUpdateSet({ level, cost, overview }))
          .returningAll().executeTakeFirstOrThrow()
        if (!existing || existing.level !== saved.level || existing.cost !== saved.cost || existing.overview !== saved.overview) await audit(saved)
        return saved
      })
    },

    /** DELETE …/permissions: remove the entry (404 when there is none). */
    async remove(actor: Actor, installationId: number, key: Key): Promise<void> {
      await requireAdmin(actor, installationId)
      await checkKey(installationId, key)
      await db.transaction().execute(async (tx) => {
        const gone = await tx.deleteFrom('permissions').where('installation_id', '=', installationId).where('user_id', '=', key.user_id)
          .where('object_type', '=', key.object_type).where('object_id', '=', key.object_id).returningAll().executeTakeFirst()
        if (!gone) throw NotFound()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'delete', entity_type: 'permission', entity_id: entityId(key), before: entry(gone) })
      })
    },
  }
}
export type PermissionService = ReturnType<typeof createPermissionService>
