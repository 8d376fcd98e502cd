import crypto from 'node:crypto'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { MailService } from '../mail/service.ts'
import type { PasswordResetService } from '../auth/password-reset.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { hashPassword } from '../auth/passwords.ts'
import { welcomeMail } from '../mail/templates/welcome.ts'
import { assertMayChangeIdentity, reaches } from './identity.ts'
import { mailLang } from '../mail/templates/layout.ts'
import type { ManagedUser, NewUser, UserRoleFilter } from '../../../shared/schemas/accounts.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import { managedRows } from './managed-rows.ts'
import type { Clock } from '../../lib/clock.ts'
import { recordAudit, type AuditEntry } from '../audit/service.ts'
import { expireRegistration } from './registration.ts'
import { newUserLangTag } from './language.ts'
import type { InvitationService } from './invitations.ts'

/** Welcome links stay valid 7 days (a reset link only 60 minutes). */
export const WELCOME_TTL_MS = 7 * 24 * 3600_000
type MemberRole = 'installation_admin' | 'installation_user'

/**
 * User management for installation admins and superusers (SPEC §5–6). An admin reaches
 * only users who belong to an installation they administer (others: 404) and never changes a superuser
 * (403); only a superuser grants superuser rights. Activation and welcome (set-password) links follow the
 * identity rule (./identity.ts: 403 unless the admin administers every installation of the user).
 * Deactivation and removal end the user's sessions.
 */
export function createUserManagementService({ db, clock, installations, mail, passwordReset, invitations, endSessions }: {
  db: Db
  /** Invitations of accounts the creating admin cannot reach (./invitations.ts). */
  invitations: InvitationService
  /** The process clock (ARCHITECTURE §1 "Time"): a deactivation without a date takes its now. */
  clock: Clock
  installations: InstallationService
  mail: MailService
  passwordReset: PasswordResetService
  endSessions: (userId: number) => Promise<void>
}) {
  async function administered(actor: Actor): Promise<number[] | 'all'> {
    if (actor.is_superuser) return 'all'
    const rows = await db.selectFrom('installation_users').select('installation_id').where('user_id', '=', actor.id).where('role', '=', 'installation_admin').execute()
    return rows.map((r) => r.installation_id)
  }

  /** An audit event of a membership (entity "installation_user", id "user:installation"), docs/decisions.md "Provisioning: the audit trail". */
  const membershipAudit = (actor: Actor, userId: number, installationId: number, action: string, before: MemberRole | undefined, after: MemberRole | undefined): AuditEntry => ({
    at: clock.now(), actor, installation_id: installationId, action, entity_type: 'installation_user', entity_id: `${userId}:${installationId}`,
    before: before && { user_id: userId, role: before }, after: after && { user_id: userId, role: after },
  })

  /** 404 unknown installation, 403 unless the caller is its admin or a superuser. */
  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    const role = await installations.requireRole(actor, installationId)
    if (role === 'installation_user') throw Forbidden()
  }

  /** The target user for a managing call: 404 unless reachable; 403 for changing a superuser as an admin. */
  async function target(actor: Actor, userId: number) {
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).where('is_service', '=', false).executeTakeFirst()
    if (!user) throw NotFound()
    if (actor.is_superuser) return user
    const mine = await administered(actor)
    const shared = await db.selectFrom('installation_users').select('installation_id').where('user_id', '=', userId)
      .where('installation_id', 'in', mine === 'all' ? [0] : mine.length ? mine : [0]).executeTakeFirst()
    if (!shared) throw NotFound()
    if (user.is_superuser) throw Forbidden()
    return user
  }

  const rows = (actor: Actor, userIds: number[], scope: number[] | 'all') => managedRows(db, clock.now(), actor, userIds, scope)

  async function one(actor: Actor, userId: number): Promise<ManagedUser> {
    const [u] = await rows(actor, [userId], await administered(actor))
    return u
  }

  const service = {
    /**
     * GET /api/cockpit/users/?role=&installation=&limit=&offset=: the users the caller manages (all for a
     * superuser), optionally of one installation (which the caller must administer), filtered by role
     * (`all` or missing: everyone). Memberships are limited to the caller's installations. Superusers count
     * as users of every installation (they have no membership row), so `superuser` and `all` list them.
     */
    async list(actor: Actor, q: { role?: UserRoleFilter; installation?: number; limit: number; offset: number }): Promise<PageOf<ManagedUser>> {
      let scope = await administered(actor)
      if (q.installation) {
        await requireAdmin(actor, q.installation)
        scope = [q.installation]
      }
      if (scope !== 'all' && !scope.length) throw Forbidden()
      let base = db.selectFrom('users').select('users.id').where('users.is_service', '=', false)
      if (scope !== 'all') {
        const ids = scope
        // Superusers hold every installation without a membership row (the Superuser filter was empty).
        base = base.where((eb) => eb.or([eb('users.id', 'in', db.selectFrom('installation_users').select('user_id').where('installation_id', 'in', ids)), eb('users.is_superuser', '=', true)]))
      }
      if (q.role === 'superuser') base = base.where('users.is_superuser', '=', true)
      else if (q.role === 'installation_admin' || q.role === 'installation_user') {
        const role = q.role
        const ids = scope === 'all' ? null : scope
        base = base.where('users.is_superuser', '=', false).where('users.id', 'in', (() => {
          let m = db.selectFrom('installation_users').select('user_id').where('role', '=', role)
          if (ids) m = m.where('installation_id', 'in', ids)
          return m
        })())
        if (role === 'installation_user') {
          // A user who is admin in one of these installations counts as an admin.
          let admins = db.selectFrom('installation_users').select('user_id').where('role', '=', 'installation_admin')
          if (ids) admins = admins.where('installation_id', 'in', ids)
          base = base.where('users.id', 'not in', admins)
        }
      }
      const all = await base.orderBy('users.id').execute()
      const page = all.slice(q.offset, q.offset + q.limit).map((r) => r.id)
      const results = await rows(actor, page, scope)
      return { count: all.length, next: null, previous: null, results }
    },

    /** GET /api/cockpit/users/installation/{installation_id}: every user of that installation (its admins and superusers only). */
    async ofInstallation(actor: Actor, installationId: number): Promise<ManagedUser[]> {
      await requireAdmin(actor, installationId)
      const ids = await db.selectFrom('installation_users').innerJoin('users', 'users.id', 'installation_users.user_id')
        .select('users.id').where('installation_id', '=', installationId).where('users.is_service', '=', false).execute()
      return rows(actor, ids.map((r) => r.id), [installationId])
    },

    /** GET /api/cockpit/users/{user_id}/ (one managed user, memberships limited to the caller's installations). */
    async get(actor: Actor, userId: number): Promise<ManagedUser> {
      await target(actor, userId)
      return one(actor, userId)
    },

    /**
     * POST /api/users/create/ (installation): a new user with a role in that installation and no usable
     * password until they follow the welcome link (sent when `send_welcome` is true), in the language
     * the form names, else the creating admin's (./language.ts; the welcome mail follows it). 400
     * `{email: [emailTaken]}` when the address belongs to a user the caller reaches already (a member of an
     * installation they administer; every account for a superuser). An address with an account the caller
     * cannot reach gets the answer a new address gets, with the caller's input and a new id, and the
     * person an invitation by mail (./invitations.ts): the caller learns nothing of other installations'
     * accounts (docs/decisions.md "Accounts: creating a user whose address has an account elsewhere").
     */
    async create(actor: Actor, installationId: number, body: NewUser): Promise<ManagedUser> {
      await requireAdmin(actor, installationId)
      const email = body.email.trim().toLowerCase()
      await expireRegistration(db, email, clock.now())
      const existing = await db.selectFrom('users').select(['id', 'is_service']).where('email', '=', email).executeTakeFirst()
      if (existing && (await reaches(db, actor, existing.id))) throw new Invalid({ email: ['emailTaken'] })
      // Hashed on both paths, so the answer's time does not tell a new address from one with an account.
      const password_hash = await hashPassword(crypto.randomBytes(32).toString('base64url'))
      const ietf_lang_tag = await newUserLangTag(db, actor, body.ietf_lang_tag)
      if (existing) return invitations.answerAsNew(existing, { installationId, invitedBy: actor.id, email, ietf_lang_tag, body })
      // The account and its membership in one transaction: no user without an installation.
      const u = await db.transaction().execute(async (tx) => {
        const row = await tx.insertInto('users').values({
          email, password_hash, first_name: body.first_name, last_name: body.last_name, title: body.title ?? null, is_superuser: false, is_active: true,
          deactivation_datetime: null, ietf_lang_tag, last_login: null, previous_login: null,
          address: body.address ?? '', zip_code: body.zip_code ?? '', city: body.city ?? '', country: body.country ?? '', telephone: body.telephone ?? '',
          company: body.company ?? '', comment: body.comment ?? '', description: body.description ?? '',
        }).returning('id').executeTakeFirstOrThrow()
        await tx.insertInto('installation_users').values({ user_id: row.id, installation_id: installationId, role: body.role }).execute()
        await recordAudit(tx, membershipAudit(actor, row.id, installationId, 'create', undefined, body.role))
        return row
      })
      if (body.send_welcome) await service.sendWelcome(actor, u.id, installationId)
      return one(actor, u.id)
    },

    /**
     * POST /api/users/{user_id}/active {active, date?} (SPEC §4): deactivate → is_active false and
     * deactivation_datetime = date or now; the user is locked out from that instant on the clock (a date
     * ahead keeps them in until then, ./active.ts), and a date not ahead ends every session now.
     * Re-activate → is_active true, date cleared. Not on yourself (400 notOnYourself).
     */
    async setActive(actor: Actor, userId: number, active: boolean, date?: string): Promise<ManagedUser> {
      await target(actor, userId)
      await assertMayChangeIdentity(db, actor, userId)
      if (userId === actor.id) throw new AppError(400, 'notOnYourself')
      if (active) {
        await db.updateTable('users').set({ is_active: true, deactivation_datetime: null }).where('id', '=', userId).execute()
      } else {
        const from = date ? new Date(date) : clock.now()
        await db.updateTable('users').set({ is_active: false, deactivation_datetime: from }).where('id', '=', userId).execute()
        // A date ahead: sign-in, refresh and every request refuse the user from then on (activeAt).
        if (from.getTime() <= clock.ms()) await endSessions(userId)
      }
      return one(actor, userId)
    },

    /**
     * POST /api/users/{user_id}/send-welcome-email (installation optional): the welcome mail with a
     * 7-day set-password link, in the user's language, through the outbox.
     */
    async sendWelcome(actor: Actor, userId: number, installationId?: number): Promise<void> {
      const user = await target(actor, userId)
      await assertMayChangeIdentity(db, actor, userId)
      const membership = await db.selectFrom('installation_users').innerJoin('installations', 'installations.id', 'installation_users.installation_id')
        .select(['installations.id', 'installations.name']).where('user_id', '=', userId)
        .$if(Boolean(installationId), (q) => q.where('installations.id', '=', installationId!)).orderBy('installations.id').executeTakeFirst()
      if (installationId && !membership) throw NotFound()
      const url = await passwordReset.issueLink(userId, { ttlMs: WELCOME_TTL_MS, installation: membership?.id })
      const rendered = welcomeMail(mailLang(user.ietf_lang_tag), { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email, site: membership?.name ?? 'Cockpit', url })
      await mail.enqueue({ kind: 'welcome', to: user.email, ...rendered })
    },

    /** Superuser rights (SPEC §5, confirmation in the client): only a superuser, never on yourself. */
    async setSuperuser(actor: Actor, userId: number, value: boolean): Promise<ManagedUser> {
      if (!actor.is_superuser) throw Forbidden()
      await target(actor, userId)
      if (userId === actor.id) throw new AppError(400, 'notOnYourself')
      await db.transaction().execute(async (tx) => {
        const before = await tx.selectFrom('users').select('is_superuser').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow()
        await tx.updateTable('users').set({ is_superuser: value }).where('id', '=', userId).execute()
        if (before.is_superuser !== value) {
          await recordAudit(tx, { at: clock.now(), actor, installation_id: null, action: 'update', entity_type: 'user', entity_id: userId, before: { is_superuser: before.is_superuser }, after: { is_superuser: value } })
        }
      })
      return one(actor, userId)
    },

    /** GET /api/cockpit/users/{user_id}/installations/: the user's memberships the caller may see. */
    async memberships(actor: Actor, userId: number): Promise<{ id: number; name: string; role: MemberRole }[]> {
      await target(actor, userId)
      const scope = await administered(actor)
      let q = db.selectFrom('installation_users').innerJoin('installations', 'installations.id', 'installation_users.installation_id')
        .select(['installations.id', 'installations.name', 'installation_users.role']).where('user_id', '=', userId)
      if (scope !== 'all') q = q.where('installations.id', 'in', scope.length ? scope : [0])
      return q.orderBy('installations.id').execute()
    },

    /**
     * POST (add), PUT/PATCH (change role) /api/cockpit/users/{user_id}/installations/{installation_id}:
     * the caller must administer that installation. Adding a user the caller cannot reach yet is only
     * for superusers (an admin cannot pull in users of other installations).
     */
    async setMembership(actor: Actor, userId: number, installationId: number, role: MemberRole): Promise<{ id: number; role: MemberRole }> {
      await requireAdmin(actor, installationId)
      await target(actor, userId)
      if (userId === actor.id) throw new AppError(400, 'notOnYourself')
      await db.transaction().execute(async (tx) => {
        const before = await tx.selectFrom('installation_users').select('role').where('user_id', '=', userId).where('installation_id', '=', installationId).forUpdate().executeTakeFirst()
        await tx.insertInto('installation_users').values({ user_id: userId, installation_id: installationId, role })
          .onConflict((oc) => oc.columns(['user_id', 'installation_id']).doUpdateSet({ role }))
          .execute()
        if (before?.role !== role) await recordAudit(tx, membershipAudit(actor, userId, installationId, before ? 'update' : 'create', before?.role, role))
      })
      return { id: installationId, role }
    },

    /**
     * PUT/PATCH /api/cockpit/users/{user_id}/installations/{installation_id} {role} (SPEC §5
     * confirmation in the client): the user's role in that installation. The caller must administer it
     * (403; superusers every one); the role elsewhere is not theirs to change. 404 when the
     * user is not a member there (adding is POST); 400 notOnYourself for one's own role.
     */
    async changeMembership(actor: Actor, userId: number, installationId: number, role: MemberRole): Promise<{ id: number; role: MemberRole }> {
      await requireAdmin(actor, installationId)
      await target(actor, userId)
      if (userId === actor.id) throw new AppError(400, 'notOnYourself')
      await db.transaction().execute(async (tx) => {
        const before = await tx.selectFrom('installation_users').select('role').where('user_id', '=', userId).where('installation_id', '=', installationId).forUpdate().executeTakeFirst()
        if (!before) throw NotFound()
        await tx.updateTable('installation_users').set({ role }).where('user_id', '=', userId).where('installation_id', '=', installationId).execute()
        if (before.role !== role) await recordAudit(tx, membershipAudit(actor, userId, installationId, 'update', before.role, role))
      })
      return { id: installationId, role }
    },

    /** DELETE /api/cockpit/users/{user_id}/installations/{installation_id}: removes the membership and the user's permissions there. */
    async removeMembership(actor: Actor, userId: number, installationId: number): Promise<void> {
      await requireAdmin(actor, installationId)
      await target(actor, userId)
      if (userId === actor.id) throw new AppError(400, 'notOnYourself')
      await db.transaction().execute(async (tx) => {
        const gone = await tx.deleteFrom('installation_users').where('user_id', '=', userId).where('installation_id', '=', installationId).returning('role').executeTakeFirst()
        if (!gone) throw NotFound()
        // The user's entries there go with the membership, recorded in its 'before'.
        const permissions = await tx.deleteFrom('permissions').where('user_id', '=', userId).where('installation_id', '=', installationId)
          .returning(['object_type', 'object_id', 'level', 'cost', 'overview']).execute()
        await recordAudit(tx, { ...membershipAudit(actor, userId, installationId, 'delete', gone.role, undefined), before: { user_id: userId, role: gone.role, permissions } })
      })
    },
  }
  return service
}
export type UserManagementService = ReturnType<typeof createUserManagementService>
