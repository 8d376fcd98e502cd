import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { Shortcut, ShortcutCreate } from '../../../shared/schemas/shortcut.ts'
import type { Clock } from '../../lib/clock.ts'

/** Shortcuts per person and installation; more are refused (400), so a list never grows without bound. */
export const SHORTCUTS_MAX = 100

/**
 * Shortcuts (SPEC §2, §7 …/installations/{id}/shortcuts): a person pins an app path (a
 * station, a chart with its period, a report) in an installation they belong to and finds it on Home.
 * Personal: nobody else sees, opens or deletes them, superusers included (404, so ids reveal nothing).
 * The url is an app path (shared/schemas/shortcut.ts `isAppPath`, checked by the route schema). Pinning
 * the same path again answers the existing shortcut (with its new name) instead of a duplicate.
 * Errors: 403/404 from installations.requireRole, 404 unknown or someone else's, 400 past {@link SHORTCUTS_MAX}.
 * `created` is `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createShortcutService({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  const out = (r: { id: number; installation_id: number; name: string; url: string; created_at: Date }): Shortcut => ({
    id: r.id, installation_id: r.installation_id, name: r.name, url: r.url, created: new Date(r.created_at).toISOString(),
  })
  const mine = (actor: Actor, installationId: number) =>
    db.selectFrom('shortcuts').select(['id', 'installation_id', 'name', 'url', 'created_at']).where('user_id', '=', actor.id).where('installation_id', '=', installationId)

  const service = {
    /** GET …/shortcuts: the caller's shortcuts here, oldest first. */
    async list(actor: Actor, installationId: number): Promise<PageOf<Shortcut>> {
      await installations.requireRole(actor, installationId)
      const rows = await mine(actor, installationId).orderBy('id').execute()
      return { count: rows.length, next: null, previous: null, results: rows.map(out) }
    },

    /** GET …/shortcuts/{id}. */
    async get(actor: Actor, installationId: number, id: number): Promise<Shortcut> {
      await installations.requireRole(actor, installationId)
      const r = await mine(actor, installationId).where('id', '=', id).executeTakeFirst()
      if (!r) throw NotFound()
      return out(r)
    },

    /** POST …/shortcuts: pin `url` as `name`; the same url again renames the existing one. */
    async create(actor: Actor, installationId: number, input: ShortcutCreate): Promise<{ shortcut: Shortcut; created: boolean }> {
      await installations.requireRole(actor, installationId)
      const same = await mine(actor, installationId).where('url', '=', input.url).executeTakeFirst()
      if (same) {
        await db.updateTable('shortcuts').set({ name: input.name }).where('id', '=', same.id).execute()
        return { shortcut: out({ ...same, name: input.name }), created: false }
      }
      const n = await db.selectFrom('shortcuts').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', actor.id).where('installation_id', '=', installationId).executeTakeFirstOrThrow()
      if (Number(n.n) >= SHORTCUTS_MAX) throw new Invalid({ url: [{ key: 'shortcutLimit', params: { max: SHORTCUTS_MAX } }] })
      const r = await db.insertInto('shortcuts').values({ user_id: actor.id, installation_id: installationId, name: input.name, url: input.url, created_at: clock.now() }).returning(['id', 'installation_id', 'name', 'url', 'created_at']).executeTakeFirstOrThrow()
      return { shortcut: out(r), created: true }
    },

    /** DELETE …/shortcuts/{id}. */
    async remove(actor: Actor, installationId: number, id: number): Promise<void> {
      await service.get(actor, installationId, id)
      await db.deleteFrom('shortcuts').where('id', '=', id).where('user_id', '=', actor.id).execute()
    },
  }
  return service
}
export type ShortcutService = ReturnType<typeof createShortcutService>
