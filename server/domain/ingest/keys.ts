import crypto from 'node:crypto'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { Forbidden, NotFound, Unauthorized } from '../../lib/errors.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import { DEVICE_KEY_PREFIX, type DeviceKey, type DeviceKeyCreated } from '../../../shared/schemas/ingest.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import { inTransaction } from '../../db/transaction.ts'
import { recordAudit } from '../audit/service.ts'

/** SHA-256 of a key's text, hex: a random 256-bit key needs no slow hash (the hash is only looked up). */
const hashOf = (key: string) => crypto.createHash('sha256').update(key).digest('hex')

type Row = { id: number; name: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }
const toKey = (r: Row): DeviceKey => ({ id: r.id, name: r.name, created_at: r.created_at.toISOString(), last_used_at: r.last_used_at?.toISOString() ?? null, revoked_at: r.revoked_at?.toISOString() ?? null })

/** `last_used_at` is written at most this often per key (a gateway sends every few seconds). */
const TOUCH_MS = 60_000

/**
 * Device keys (docs/decisions.md "Ingest: registers become deltas" for what they open): an installation's
 * admins and superusers create (the key shown once, `ck_` + 43 characters), list and revoke them; a
 * device sends one as `Authorization: Bearer ck_…` and reaches only its installation's meters. Errors:
 * 403 not an admin of the installation, 404 unknown key here, 409 installationArchived on create, 401
 * (authenticate) for a missing, unknown or revoked key.
 */
export function createDeviceKeyService({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }
  const touched = new Map<number, number>()

  return {
    /** GET …/device_keys/ (admins): the installation's keys, revoked ones included, newest first. */
    async list(actor: Actor, installationId: number, q: { limit: number; offset: number }): Promise<PageOf<DeviceKey>> {
      await requireAdmin(actor, installationId)
      const base = db.selectFrom('device_keys').where('installation_id', '=', installationId)
      const [{ count }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
        base.select(['id', 'name', 'created_at', 'last_used_at', 'revoked_at']).orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute(),
      ])
      return { count: Number(count), next: null, previous: null, results: rows.map(toKey) }
    },

    /** POST …/device_keys/ (admins, installation not archived): a new key, its text returned this once. */
    async create(actor: Actor, installationId: number, name: string): Promise<DeviceKeyCreated> {
      await installations.requireWritable(actor, installationId)
      const key = DEVICE_KEY_PREFIX + crypto.randomBytes(32).toString('base64url')
      return inTransaction(db, async (tx) => {
        const row = await tx.insertInto('device_keys')
          .values({ installation_id: installationId, name, key_hash: hashOf(key), created_at: clock.now(), created_by: actor.id })
          .returning(['id', 'name', 'created_at']).executeTakeFirstOrThrow()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'create', entity_type: 'device_key', entity_id: row.id, after: { name } })
        return { id: row.id, name: row.name, key, created_at: row.created_at.toISOString() }
      })
    },

    /** DELETE …/device_keys/{id}/ (admins): revoke; the key answers 401 from now on. 404 unknown here. */
    async revoke(actor: Actor, installationId: number, keyId: number): Promise<void> {
      await requireAdmin(actor, installationId)
      const exists = await db.selectFrom('device_keys').select(['id', 'name']).where('id', '=', keyId).where('installation_id', '=', installationId).executeTakeFirst()
      if (!exists) throw NotFound()
      await inTransaction(db, async (tx) => {
        const r = await tx.updateTable('device_keys').set({ revoked_at: clock.now() }).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst()
        if (Number(r.numUpdatedRows)) await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'revoke', entity_type: 'device_key', entity_id: keyId, before: { name: exists.name } })
      })
    },

    /**
     * The installation a device key belongs to; 401 for a missing, malformed, unknown or revoked key (or
     * one of a deleted installation). Notes when it was last used (at most once a minute).
     */
    async authenticate(key: string | undefined): Promise<{ installationId: number; keyId: number }> {
      if (!key?.startsWith(DEVICE_KEY_PREFIX) || key.length > 200) throw Unauthorized('deviceKeyInvalid')
      const row = await db.selectFrom('device_keys').select(['id', 'installation_id']).where('key_hash', '=', hashOf(key)).where('revoked_at', 'is', null).executeTakeFirst()
      if (!row) throw Unauthorized('deviceKeyInvalid')
      const now = clock.ms()
      if (now - (touched.get(row.id) ?? -Infinity) >= TOUCH_MS) {
        touched.set(row.id, now)
        await db.updateTable('device_keys').set({ last_used_at: clock.now() }).where('id', '=', row.id).execute()
      }
      return { installationId: row.installation_id, keyId: row.id }
    },
  }
}
export type DeviceKeyService = ReturnType<typeof createDeviceKeyService>
