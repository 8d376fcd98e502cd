import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import { NotFound } from '../../lib/errors.ts'
import type { User } from '../../../shared/schemas/auth.ts'

/** Users (this slice: reading one). Issue 3 adds the rest of SPEC §7 "Authentication and user". */
export function createUserService({ db }: { db: Db }) {
  return {
    /**
     * GET /api/users/{id}/: yourself, a user of an installation you administer, or anyone for a
     * superuser. Anything else answers 404, so ids of other installations' users are not revealed.
     */
    async get(actor: Actor, id: number): Promise<User> {
      const user = await db.selectFrom('users').selectAll().where('id', '=', id).where('is_service', '=', false).executeTakeFirst()
      if (!user) throw NotFound()
      const memberships = await db.selectFrom('installation_users').select(['installation_id as id', 'role']).where('user_id', '=', id).execute()
      if (actor.id !== id && !actor.is_superuser) {
        const administered = await db
          .selectFrom('installation_users').select('installation_id')
          .where('user_id', '=', actor.id).where('role', '=', 'installation_admin').execute()
        const mine = new Set(administered.map((a) => a.installation_id))
        if (!memberships.some((m) => mine.has(m.id))) throw NotFound()
      }
      return {
        id: user.id,
        email: user.email,
        first_name: user.first_name,
        last_name: user.last_name,
        full_name: `${user.first_name} ${user.last_name}`.trim(),
        is_active: user.is_active,
        is_superuser: user.is_superuser,
        ietf_lang_tag: user.ietf_lang_tag,
        last_login: user.last_login?.toISOString() ?? null,
        previous_login: user.previous_login?.toISOString() ?? null,
        installations: memberships,
      }
    },
  }
}
export type UserService = ReturnType<typeof createUserService>
