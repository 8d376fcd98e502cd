import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import { Forbidden } from '../../lib/errors.ts'

/**
 * The identity rule (ARCHITECTURE §4): who may change a person's identity — sign-in address,
 * details, activation, set-password (welcome) links, payment methods, deletion — on `/users/{id}/…`.
 * Allowed for a superuser and for the person themself. An installation admin may only when every
 * installation the person belongs to is one they administer (so an admin cannot take over an account
 * that another installation relies on, e.g. that installation's own admin), and never for a superuser.
 * Otherwise throws 403 `identityElsewhere` (or `forbidden` for a superuser target).
 *
 * Whether the caller may see the person at all (404 otherwise) is checked before, by the calling service;
 * installation-scoped writes (a membership's role in the admin's own installation) do not fall under it.
 */
export async function assertMayChangeIdentity(db: Db, actor: Actor, userId: number): Promise<void> {
  if (actor.is_superuser || actor.id === userId) return
  const [target, memberships, administered] = await Promise.all([
    db.selectFrom('users').select('is_superuser').where('id', '=', userId).executeTakeFirst(),
    db.selectFrom('installation_users').select('installation_id').where('user_id', '=', userId).execute(),
    db.selectFrom('installation_users').select('installation_id').where('user_id', '=', actor.id).where('role', '=', 'installation_admin').execute(),
  ])
  if (!target || target.is_superuser) throw Forbidden()
  const mine = new Set(administered.map((r) => r.installation_id))
  if (!memberships.length || memberships.some((m) => !mine.has(m.installation_id))) throw Forbidden('identityElsewhere')
}

/**
 * Whether `actor` reaches user `userId` already, so that learning the person has an account tells them
 * nothing new (docs/decisions.md "Accounts: creating a user whose address has an account elsewhere"):
 * themself; everyone for a superuser; for an installation admin the members of the installations they
 * administer and the superusers (who are in every installation's user list); nobody else for a user who
 * administers nothing.
 */
export async function reaches(db: Db, actor: Actor, userId: number): Promise<boolean> {
  if (actor.is_superuser || actor.id === userId) return true
  const administered = await db.selectFrom('installation_users').select('installation_id').where('user_id', '=', actor.id).where('role', '=', 'installation_admin').execute()
  if (!administered.length) return false
  const user = await db.selectFrom('users').select('is_superuser').where('id', '=', userId).executeTakeFirst()
  if (!user) return false
  if (user.is_superuser) return true
  return Boolean(await db.selectFrom('installation_users').select('user_id').where('user_id', '=', userId)
    .where('installation_id', 'in', administered.map((r) => r.installation_id)).executeTakeFirst())
}
