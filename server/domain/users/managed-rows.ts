import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { ManagedUser } from '../../../shared/schemas/accounts.ts'
import { activeAt } from './active.ts'

/**
 * Managed-user rows for user management (./management.ts; SPEC §3 user fields, role, memberships) in name
 * order, active as of `now` (./active.ts); memberships limited to `scope`. Superusers appear in every
 * installation's list (they hold all of them); to a caller who is not one, only as the operator they are:
 * id, names, e-mail, role and state, no other details and no memberships.
 */
export async function managedRows(db: Db, now: Date, actor: Actor, userIds: number[], scope: number[] | 'all'): Promise<ManagedUser[]> {
  if (!userIds.length) return []
  const users = await db.selectFrom('users').selectAll().where('id', 'in', userIds).orderBy('last_name').orderBy('first_name').orderBy('id').execute()
  let mq = db.selectFrom('installation_users').select(['user_id', 'installation_id as id', 'role']).where('user_id', 'in', userIds)
  if (scope !== 'all') mq = mq.where('installation_id', 'in', scope.length ? scope : [0])
  const memberships = await mq.orderBy('installation_id').execute()
  return users.map((u) => {
    const mine = memberships.filter((m) => m.user_id === u.id).map((m) => ({ id: m.id, role: m.role }))
    return {
      id: u.id, email: u.email, title: u.title === 'mr' || u.title === 'ms' ? u.title : null, first_name: u.first_name, last_name: u.last_name,
      full_name: `${u.first_name} ${u.last_name}`.trim(), is_active: activeAt(u, now), is_superuser: u.is_superuser,
      deactivation_datetime: u.deactivation_datetime?.toISOString() ?? null, ietf_lang_tag: u.ietf_lang_tag,
      address: u.address, zip_code: u.zip_code, city: u.city, country: u.country, telephone: u.telephone, company: u.company, comment: u.comment,
      description: u.description, last_login: u.last_login?.toISOString() ?? null,
      role: u.is_superuser ? 'superuser' : mine.some((m) => m.role === 'installation_admin') ? 'installation_admin' : 'installation_user',
      installations: mine,
    } satisfies ManagedUser
  }).map((u) => (!actor.is_superuser && u.is_superuser ? operatorView(u) : u))
}

/** A superuser as a caller who is not one sees them: the operator, without details or memberships. */
function operatorView(u: ManagedUser): ManagedUser {
  return {
    ...u, title: null, deactivation_datetime: null, address: '', zip_code: '', city: '', country: '', telephone: '', company: '', comment: '', description: '',
    last_login: null, installations: [],
  }
}

