import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Forbidden, Invalid, NotFound, Unauthorized } from '../../lib/errors.ts'
import { isAdmin, type Access } from '../../../shared/rules/permissions.ts'
import type { Clock } from '../../lib/clock.ts'
import { DISPLAY_KEY_PREFIX, type Display, type DisplayCreate, type DisplayCreated, type DisplaySelf } from '../../../shared/schemas/display.ts'

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

/**
 * What a display link may see: the Power view of its installation — every station and the
 * main meters (overview), but no costs and no one's card or name (no RFIDs readable). Its user id is the
 * link's id negated, so it never matches a person's and the relay can tell displays from users.
 */
export function displayAccess(displayId: number, installationId: number): Access {
  return {
    user_id: -displayId, installation_id: installationId, role: 'installation_user',
    cost: false, overview: true, stations: 'all', rfids: [], writable_stations: [], writable_rfids: [], sessions_valid_after: null,
  }
}

/**
 * Display links: created, listed and revoked by admins of the installation (and
 * superusers, SPEC §6); a link's key is 256 random bits shown once in its URL's fragment and stored
 * only as its SHA-256. A link works until revoked or past `valid_until`, judged at `clock`'s now
 * (ARCHITECTURE §1 "Time").
 */
export function createDisplayService({ db, clock, installations, publicUrl }: { db: Db; clock: Clock; installations: InstallationService; publicUrl: string }) {
  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (actor.display) throw Forbidden('displayReadOnly')
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }
  const active = (at = clock.now()) => sql<boolean>`revoked_at IS NULL AND (valid_until IS NULL OR valid_until > ${at}::timestamptz)`
  const toDisplay = (r: { id: number; installation_id: number; name: string; created_at: Date; valid_until: Date | null }): Display => ({
    id: r.id, installation_id: r.installation_id, name: r.name, created_at: r.created_at.toISOString(), valid_until: r.valid_until?.toISOString() ?? null,
  })

  return {
    /** POST …/{id}/displays → the link with its URL (the only time the key is shown). 400 valid_until in the past. */
    async create(actor: Actor, installationId: number, body: DisplayCreate): Promise<DisplayCreated> {
      await requireAdmin(actor, installationId)
      const validUntil = body.valid_until ? new Date(body.valid_until) : null
      if (validUntil && validUntil.getTime() <= clock.ms()) throw new Invalid({ valid_until: ['invalidValue'] })
      const key = DISPLAY_KEY_PREFIX + crypto.randomBytes(32).toString('base64url')
      const row = await db.insertInto('displays')
        .values({ installation_id: installationId, name: body.name, key_hash: sha256(key), created_by: actor.id, valid_until: validUntil, created_at: clock.now() })
        .returning(['id', 'installation_id', 'name', 'created_at', 'valid_until'])
        .executeTakeFirstOrThrow()
      // The key travels in the fragment: browsers never send it, so it stays out of access logs and Referer.
      return { ...toDisplay(row), url: `${publicUrl.replace(/\/+$/, '')}/display#${key}` }
    },

    /** GET …/{id}/displays: the links not revoked (expired ones too, so they can be cleaned up), oldest first. */
    async list(actor: Actor, installationId: number): Promise<Display[]> {
      await requireAdmin(actor, installationId)
      const rows = await db.selectFrom('displays').select(['id', 'installation_id', 'name', 'created_at', 'valid_until'])
        .where('installation_id', '=', installationId).where('revoked_at', 'is', null).orderBy('id').execute()
      return rows.map(toDisplay)
    },

    /** DELETE …/{id}/displays/{displayId}: revoke; 404 for a link of another installation or one already revoked. */
    async revoke(actor: Actor, installationId: number, displayId: number): Promise<void> {
      await requireAdmin(actor, installationId)
      const r = await db.updateTable('displays').set({ revoked_at: clock.now() })
        .where('id', '=', displayId).where('installation_id', '=', installationId).where('revoked_at', 'is', null).executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) throw NotFound()
    },

    /** The actor behind a display key; 401 tokenInvalid for an unknown, revoked or expired key. */
    async verify(key: string): Promise<Actor> {
      const row = await db.selectFrom('displays').select(['id', 'installation_id'])
        .where('key_hash', '=', sha256(key)).where(active()).executeTakeFirst()
      if (!row) throw Unauthorized('tokenInvalid')
      return { id: -row.id, is_superuser: false, display: { id: row.id, installation_id: row.installation_id } }
    },

    /** GET /api/display/: the link a display key belongs to and its installation (display keys only). */
    async self(actor: Actor): Promise<DisplaySelf> {
      if (!actor.display) throw Forbidden()
      const d = await db.selectFrom('displays').innerJoin('installations', 'installations.id', 'displays.installation_id')
        .select(['displays.id', 'displays.name', 'installations.id as installation_id', 'installations.name as installation_name', 'installations.timezone', 'installations.currency'])
        .where('displays.id', '=', actor.display.id).executeTakeFirst()
      if (!d) throw Unauthorized('tokenInvalid')
      return { id: d.id, name: d.name, installation: { id: d.installation_id, name: d.installation_name, timezone: d.timezone, currency: d.currency } }
    },

    /** The Access of the given links that still work in `installationId` (the relay's re-check; superusers only). */
    async accessOf(actor: Actor, installationId: number, displayIds: number[]): Promise<Access[]> {
      if (!actor.is_superuser) throw Forbidden()
      if (!displayIds.length) return []
      const rows = await db.selectFrom('displays').select('id').where('id', 'in', displayIds)
        .where('installation_id', '=', installationId).where(active()).orderBy('id').execute()
      return rows.map((r) => displayAccess(r.id, installationId))
    },
  }
}
export type DisplayService = ReturnType<typeof createDisplayService>
