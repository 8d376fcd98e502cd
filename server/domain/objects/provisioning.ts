import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { ObjectsTable } from '../../db/schema.ts'
import type { Actor } from '../auth/service.ts'
import type { Clock } from '../../lib/clock.ts'
import type { InstallationService } from '../installations/service.ts'
import { AppError, Invalid, NotFound } from '../../lib/errors.ts'
import type { ObjectCreate, ObjectPatch } from '../../../shared/schemas/objects.ts'
import { recordAudit, recordAudits } from '../audit/service.ts'
import type { ObjectNode } from './service.ts'

type ObjectRow = Selectable<ObjectsTable>

const snapshot = (o: ObjectRow) => ({ description: o.description, object_type: o.object_type, parent_object_id: o.parent_object_id })

/**
 * Node `o` with its subtree, meters and stations as GET …/objects/{id} shows it to an admin (three reads
 * of the installation, the tree built in memory).
 */
async function node(tx: Db, o: ObjectRow): Promise<ObjectNode> {
  const [objects, meters, stations] = await Promise.all([
    tx.selectFrom('objects').selectAll().where('installation_id', '=', o.installation_id).orderBy('id').execute(),
    tx.selectFrom('meters').select(['id', 'name', 'meter_type', 'object_id']).where('installation_id', '=', o.installation_id).where('object_id', 'is not', null).orderBy('id').execute(),
    tx.selectFrom('charging_stations').select(['id', 'name', 'object_id']).where('installation_id', '=', o.installation_id).where('object_id', 'is not', null).orderBy('id').execute(),
  ])
  const build = (x: ObjectRow, depth: number): ObjectNode => {
    const own = meters.filter((m) => m.object_id === x.id).map((m) => ({ id: m.id, name: m.name, meter_type: m.meter_type }))
    const of = (types: string[]) => own.filter((m) => types.includes(m.meter_type))
    return {
      id: x.id, object_id: x.id, parent_object_id: x.parent_object_id, description: x.description, object_type: x.object_type,
      // depth bounds a tree the database holds with a cycle (made by hand): it must not hang the answer.
      children: depth > 50 ? [] : objects.filter((c) => c.parent_object_id === x.id).map((c) => build(c, depth + 1)),
      electrical_meters: of(['main_power', 'pv', 'battery', 'power']),
      heating_meters: of(['heat']),
      water_meters: of(['cold_water', 'hot_water']),
      charging_stations: stations.filter((s) => s.object_id === x.id).map((s) => ({ id: s.id, name: s.name })),
    }
  }
  return build(o, 0)
}

/**
 * Building the object tree of an installation (SPEC §3 objects: buildings, staircases, apartments,
 * common areas, garages): create, change or move, delete when empty. Installation admins and superusers
 * (403 otherwise; 409 installationArchived on an archived installation). Each change is one
 * transaction with its audit event (server/domain/audit/service.ts).
 */
export function createObjectProvisioning({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  /** The object `id` of installation `installationId`, locked for the change; 404 when it is not one of its objects. */
  async function mine(tx: Db, installationId: number, id: number): Promise<ObjectRow> {
    const row = await tx.selectFrom('objects').selectAll().where('id', '=', id).where('installation_id', '=', installationId).forUpdate().executeTakeFirst()
    if (!row) throw NotFound()
    return row
  }

  /**
   * Lock the installation's row for the change: tree changes of one installation run one after the other
   * (two concurrent moves could otherwise make a cycle), and not beside its archiving (409 when archived).
   */
  async function lockInstallation(tx: Db, installationId: number): Promise<void> {
    const row = await tx.selectFrom('installations').select('archived_at').where('id', '=', installationId).forUpdate().executeTakeFirst()
    if (!row) throw NotFound()
    if (row.archived_at) throw new AppError(409, 'installationArchived')
  }

  /** 404 `{parent_object_id: [notFound]}` unless `parent` is an object of the installation. */
  async function checkParent(tx: Db, installationId: number, parent: number): Promise<void> {
    const found = await tx.selectFrom('objects').select('id').where('id', '=', parent).where('installation_id', '=', installationId).executeTakeFirst()
    if (!found) throw new Invalid({ parent_object_id: ['notFound'] }, {}, 404)
  }

  /**
   * The checks, insert and audit events of new objects in `tx` (create, add, addMany): the installation
   * locked and writable, every parent an object of it (404 `parent_object_id`, the first such entry's
   * error passed through `refused`), one insert and one audit insert for all. The new rows, in the order given.
   */
  async function insert(tx: Db, actor: Actor, installationId: number, bodies: ObjectCreate[], refused: (index: number, err: unknown) => unknown): Promise<ObjectRow[]> {
    await lockInstallation(tx, installationId)
    const parents = [...new Set(bodies.flatMap((b) => (b.parent_object_id === null ? [] : [b.parent_object_id])))]
    const known = new Set(parents.length ? (await tx.selectFrom('objects').select('id').where('id', 'in', parents).where('installation_id', '=', installationId).execute()).map((o) => o.id) : [])
    const stranger = bodies.findIndex((b) => b.parent_object_id !== null && !known.has(b.parent_object_id))
    if (stranger >= 0) throw refused(stranger, new Invalid({ parent_object_id: ['notFound'] }, {}, 404))
    const rows: ObjectRow[] = []
    // At most 65,535 parameters a statement (PostgreSQL frontend/backend protocol, Bind): 1,000 rows fit.
    for (let k = 0; k < bodies.length; k += 1000) {
      // A multi-row insert takes its ids in the order of its rows: by id, the objects are in the order given.
      const made = (await tx.insertInto('objects').values(bodies.slice(k, k + 1000).map((b) => ({ installation_id: installationId, ...b }))).returningAll().execute()).sort((a, b) => a.id - b.id)
      await recordAudits(tx, made.map((row) => ({ at: clock.now(), actor, installation_id: installationId, action: 'create', entity_type: 'object', entity_id: row.id, after: snapshot(row) })))
      rows.push(...made)
    }
    return rows
  }
  const asIs = (_index: number, err: unknown) => err

  /**
   * Create `bodies` (siblings or cousins: parents that exist already) as `create` creates each (the same
   * checks, errors and one audit event per object) in one transaction, with one insert and one audit
   * insert, answering the new ids in the order given: for a configuration import, a level of the tree
   * at a time (docs/performance.md "Performance: importing 200 installations from a configuration
   * file"). The first refused entry's error is thrown as `refused(index, error)` answers it, and none is made.
   */
  async function addMany(actor: Actor, installationId: number, bodies: ObjectCreate[], refused = asIs): Promise<{ id: number }[]> {
    await installations.requireWritable(actor, installationId)
    if (!bodies.length) return []
    return inTransaction(db, async (tx) => (await insert(tx, actor, installationId, bodies, refused)).map((r) => ({ id: r.id })))
  }

  return {
    /**
     * POST /api/cockpit/installations/{id}/objects/: 201 with the new node. 404 `parent_object_id` when
     * the parent is not an object of this installation.
     */
    async create(actor: Actor, installationId: number, body: ObjectCreate): Promise<ObjectNode> {
      await installations.requireWritable(actor, installationId)
      return inTransaction(db, async (tx) => node(tx, (await insert(tx, actor, installationId, [body], asIs))[0]))
    },

    /**
     * Create as `create` does (same checks, errors and audit event), answering only the new object's id:
     * for a caller that builds a tree and needs no node back (the demo seed), without create's three
     * reads of the installation.
     */
    async add(actor: Actor, installationId: number, body: ObjectCreate): Promise<{ id: number }> {
      return (await addMany(actor, installationId, [body]))[0]
    },

    addMany,

    /**
     * PATCH …/objects/{objectId}/: rename, retype or move (parent_object_id, null for a root). 404 unknown
     * here, 404 `parent_object_id` for a parent not of this installation, 422 `parent_object_id`
     * objectCycle for a parent that is the object itself or below it.
     */
    async update(actor: Actor, installationId: number, objectId: number, patch: ObjectPatch): Promise<ObjectNode> {
      await installations.requireWritable(actor, installationId)
      return inTransaction(db, async (tx) => {
        await lockInstallation(tx, installationId)
        const before = await mine(tx, installationId, objectId)
        if (patch.parent_object_id != null && patch.parent_object_id !== before.parent_object_id) {
          await checkParent(tx, installationId, patch.parent_object_id)
          // Walk up from the new parent: meeting the object itself means it would sit below itself.
          const tree = new Map((await tx.selectFrom('objects').select(['id', 'parent_object_id']).where('installation_id', '=', installationId).execute()).map((o) => [o.id, o.parent_object_id]))
          const seen = new Set<number>()
          for (let at: number | null | undefined = patch.parent_object_id; at != null && !seen.has(at); at = tree.get(at)) {
            if (at === objectId) throw new Invalid({ parent_object_id: ['objectCycle'] }, {}, 422)
            seen.add(at)
          }
        }
        const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
        if (!Object.keys(set).length) return node(tx, before)
        const after = await tx.updateTable('objects').set(set).where('id', '=', objectId).returningAll().executeTakeFirstOrThrow()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'update', entity_type: 'object', entity_id: objectId, before: snapshot(before), after: snapshot(after) })
        return node(tx, after)
      })
    },

    /**
     * DELETE …/objects/{objectId}/: 204 when it holds no sub-objects, meters or charging stations; else
     * 409 objectNotEmpty with the counts (nothing is deleted along with it). The permission entries on it
     * go with it.
     */
    async remove(actor: Actor, installationId: number, objectId: number): Promise<void> {
      await installations.requireWritable(actor, installationId)
      await inTransaction(db, async (tx) => {
        await lockInstallation(tx, installationId)
        const before = await mine(tx, installationId, objectId)
        const count = (table: 'objects' | 'meters' | 'charging_stations', column: 'parent_object_id' | 'object_id') =>
          tx.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where(column, '=', objectId).executeTakeFirstOrThrow().then((r) => Number(r.n))
        const [objects, meters, stations] = await Promise.all([count('objects', 'parent_object_id'), count('meters', 'object_id'), count('charging_stations', 'object_id')])
        if (objects || meters || stations) throw new AppError(409, 'objectNotEmpty', { objects, meters, stations })
        // The entries granting rights on it go with it, recorded in the object's 'before'.
        const permissions = await tx.deleteFrom('permissions').where('installation_id', '=', installationId).where('object_type', '=', 'object').where('object_id', '=', objectId)
          .returning(['user_id', 'level', 'cost', 'overview']).execute()
        await tx.deleteFrom('objects').where('id', '=', objectId).execute()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'delete', entity_type: 'object', entity_id: objectId, before: { ...snapshot(before), permissions } })
      })
    },
  }
}
export type ObjectProvisioning = ReturnType<typeof createObjectProvisioning>
