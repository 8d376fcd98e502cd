import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import { AppError, NotFound } from '../../lib/errors.ts'
import type { User } from '../../../shared/schemas/auth.ts'
import type { UserDetails } from '../../../shared/schemas/accounts.ts'
import { assertMayChangeIdentity } from './identity.ts'
import { activeAt } from './active.ts'
import type { EmailChangeService } from './email-change.ts'
import type { Clock } from '../../lib/clock.ts'

/**
 * Users (SPEC §7 "Authentication and user"): reading, editing and deleting an account.
 * Who may act on user `id`: the user themself, a superuser, or an installation_admin of an installation
 * the user belongs to (and, for a superuser target, only a superuser). Anyone else gets 404, so ids of
 * other installations' users are not revealed. Writes follow the identity rule (./identity.ts): an admin
 * changes only people all of whose installations they administer, else 403.
 */
export function createUserService({ db, clock, emailChange, endSessions }: { db: Db; clock: Clock; emailChange: EmailChangeService; endSessions?: (userId: number) => Promise<void> }) {
  async function load(id: number) {
    const user = await db.selectFrom('users').selectAll().where('id', '=', id).where('is_service', '=', false).executeTakeFirst()
    if (!user) throw NotFound()
    const memberships = await db.selectFrom('installation_users').select(['installation_id as id', 'role']).where('user_id', '=', id).orderBy('installation_id').execute()
    return { user, memberships }
  }

  async function administered(actorId: number): Promise<Set<number>> {
    const rows = await db.selectFrom('installation_users').select('installation_id').where('user_id', '=', actorId).where('role', '=', 'installation_admin').execute()
    return new Set(rows.map((r) => r.installation_id))
  }

  /**
   * The target; 404 when the caller may not see it. A write also needs the identity rule
   * ({@link assertMayChangeIdentity}: 403 unless the caller administers every installation of the target).
   */
  async function reach(actor: Actor, id: number, write = true) {
    const loaded = await load(id)
    if (actor.id !== id && !actor.is_superuser) {
      const mine = await administered(actor.id)
      if (!loaded.memberships.some((m) => mine.has(m.id))) throw NotFound()
    }
    if (write) await assertMayChangeIdentity(db, actor, id)
    return loaded
  }

  function view({ user, memberships }: Awaited<ReturnType<typeof load>>): User {
    return {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      full_name: `${user.first_name} ${user.last_name}`.trim(),
      is_active: activeAt(user, clock.now()),
      is_superuser: user.is_superuser,
      ietf_lang_tag: user.ietf_lang_tag,
      last_login: user.last_login?.toISOString() ?? null,
      previous_login: user.previous_login?.toISOString() ?? null,
      installations: memberships,
      title: user.title === 'mr' || user.title === 'ms' ? user.title : null,
      address: user.address,
      zip_code: user.zip_code,
      city: user.city,
      country: user.country,
      telephone: user.telephone,
      company: user.company,
      comment: user.comment,
      description: user.description,
      deactivation_datetime: user.deactivation_datetime?.toISOString() ?? null,
    }
  }

  return {
    /** GET /api/users/{id}/: the user with SPEC §3 details and memberships ({id, role}). */
    async get(actor: Actor, id: number): Promise<User> {
      return view(await reach(actor, id, false))
    },

    /**
     * PUT (all of {@link UserDetails}) and PATCH (a subset) /api/users/{id}/: the user's details, language
     * and region format. Answers the updated user.
     */
    async update(actor: Actor, id: number, details: Partial<UserDetails>): Promise<User> {
      await reach(actor, id)
      const set = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined))
      if (Object.keys(set).length) await db.updateTable('users').set(set).where('id', '=', id).execute()
      return view(await load(id))
    },

    /**
     * PUT /api/users/{id}/email: ask for a new sign-in address (lower-cased), confirmed from the new
     * address before it counts (./email-change.ts `request`: one's own needs the current `password`; 400
     * `{email: [emailTaken]}` only for an address of a user the caller reaches already; every other address
     * gets the same answer).
     */
    async changeEmail(actor: Actor, id: number, email: string, password?: string): Promise<void> {
      await reach(actor, id)
      await emailChange.request(actor, id, email.trim().toLowerCase(), { password })
    },

    /**
     * DELETE /api/users/{id}/: delete the account (yourself, a superuser, or an admin of every
     * installation the user belongs to — the identity rule; else 403). Refused with 400 "unpaidBlocksDeletion" while charging
     * sessions the user charged are unpaid (SPEC §5; a session is the person's who charged, not the card's
     * holder today). Ends all sessions: refresh tokens
     * go with the row and access tokens fail `verify` for a missing user.
     */
    async remove(actor: Actor, id: number): Promise<void> {
      await reach(actor, id)
      const unpaid = await db
        .selectFrom('charging_sessions')
        .select('id')
        .where('status', '=', 'unpaid')
        .where('user_id', '=', id)
        .limit(1)
        .executeTakeFirst()
      if (unpaid) throw new AppError(400, 'unpaidBlocksDeletion')
      await endSessions?.(id)
      await db.deleteFrom('users').where('id', '=', id).execute()
    },
  }
}
export type UserService = ReturnType<typeof createUserService>
