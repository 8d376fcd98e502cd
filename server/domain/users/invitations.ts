import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import type { MailService } from '../mail/service.ts'
import { AppError, Forbidden, NotFound } from '../../lib/errors.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { invitationMail } from '../mail/templates/invitation.ts'
import { mailLang } from '../mail/templates/layout.ts'
import { recordAudit } from '../audit/service.ts'
import { activeAt } from './active.ts'
import type { ManagedUser, NewUser, PendingInvitation } from '../../../shared/schemas/accounts.ts'

/** Invitations stay valid 7 days, as a welcome link. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000
type MemberRole = 'installation_admin' | 'installation_user'
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

/**
 * Invitations of an existing account to an installation (migration 0184; docs/decisions.md "Accounts:
 * creating a user whose address has an account elsewhere"). An admin who creates a user with an address
 * that has an account they cannot reach gets the answer a new address gets (management.ts `create`); the
 * person gets this mail and joins only by following it, so the admin learns nothing about other
 * installations' accounts and reaches nobody without their consent. Tokens: 256 random bits stored as
 * SHA-256, single use, 7 days of `clock` (ARCHITECTURE §1 "Time").
 */
export function createInvitationService({ db, clock, mail, publicUrl, installations }: { db: Db; clock: Clock; mail: MailService; publicUrl: string; installations: InstallationService }) {
  /** A new id from the users' sequence (what a new account's would be), used for nothing else. */
  async function reserveUserId(): Promise<number> {
    const r = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('users', 'id'))::int as id`.execute(db)
    return Number(r.rows[0].id)
  }

  /** The answer create gives for a new account, built from the caller's input (management.ts `one` of a user just made). */
  function asNew(id: number, email: string, ietf_lang_tag: string, installationId: number, body: NewUser): ManagedUser {
    return {
      id, email, title: body.title ?? null, first_name: body.first_name, last_name: body.last_name, full_name: `${body.first_name} ${body.last_name}`.trim(),
      is_active: true, is_superuser: false, deactivation_datetime: null, ietf_lang_tag,
      address: body.address ?? '', zip_code: body.zip_code ?? '', city: body.city ?? '', country: body.country ?? '', telephone: body.telephone ?? '',
      company: body.company ?? '', comment: body.comment ?? '', description: body.description ?? '', last_login: null,
      role: body.role, installations: [{ id: installationId, role: body.role }],
    }
  }

  /** 404 unknown installation, 403 unless the caller is its admin or a superuser. */
  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if ((await installations.requireRole(actor, installationId)) === 'installation_user') throw Forbidden()
  }

  /** Queue the invitation mail with `token` to account `userId`'s address, in their language. */
  async function mailInvitation(userId: number, installationId: number, token: string): Promise<void> {
    const [user, site] = await Promise.all([
      db.selectFrom('users').select(['email', 'first_name', 'last_name', 'ietf_lang_tag']).where('id', '=', userId).executeTakeFirstOrThrow(),
      db.selectFrom('installations').select('name').where('id', '=', installationId).executeTakeFirstOrThrow(),
    ])
    const url = `${publicUrl}/login/invitation?${new URLSearchParams({ token, installation: String(installationId) })}`
    const rendered = invitationMail(mailLang(user.ietf_lang_tag), { name: `${user.first_name} ${user.last_name}`.trim(), site: site.name, url })
    await mail.enqueue({ kind: 'invitation', to: user.email, ...rendered })
  }

  const service = {
    /**
     * POST /api/users/create/ for an address whose account the caller cannot reach (management.ts `create`):
     * invites that account (a service account gets nothing) and answers what a new account would get, built
     * from the caller's input (`email` lower-cased, the chosen `ietf_lang_tag`) with a new id from the users'
     * sequence, so the caller learns nothing of the existing account.
     */
    async answerAsNew(existing: { id: number; is_service: boolean }, { installationId, invitedBy, email, ietf_lang_tag, body }: {
      installationId: number; invitedBy: number; email: string; ietf_lang_tag: string; body: NewUser
    }): Promise<ManagedUser> {
      if (!existing.is_service) await service.invite(existing.id, installationId, body.role, invitedBy, email)
      return asNew(await reserveUserId(), email, ietf_lang_tag, installationId, body)
    },

    /**
     * Invite account `userId` to `installationId` with `role` on behalf of `invitedBy`, who typed `email`:
     * stores the invitation and queues the mail (the person's language, to the account's address) with
     * `<publicUrl>/login/invitation?token=…`.
     */
    async invite(userId: number, installationId: number, role: MemberRole, invitedBy: number, email: string): Promise<void> {
      const token = crypto.randomBytes(32).toString('base64url')
      const now = clock.now()
      await db.insertInto('user_invitations').values({
        installation_id: installationId, user_id: userId, role, invited_by: invitedBy, token_hash: sha256(token), email,
        created_at: now, expires_at: new Date(now.getTime() + INVITATION_TTL_MS), accepted_at: null,
      }).execute()
      await mailInvitation(userId, installationId, token)
    },

    /**
     * GET /api/cockpit/users/invitations/ (installation): the installation's invitations not accepted yet,
     * newest first: the address the admin typed, the role, when sent and until when valid (`expired` once
     * past, on the clock). 404 unknown installation, 403 unless its admin or a superuser.
     */
    async pending(actor: Actor, installationId: number): Promise<PendingInvitation[]> {
      await requireAdmin(actor, installationId)
      const rows = await db.selectFrom('user_invitations').select(['id', 'email', 'role', 'created_at', 'expires_at'])
        .where('installation_id', '=', installationId).where('accepted_at', 'is', null).orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
      const now = clock.ms()
      return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, sent_at: r.created_at.toISOString(), expires_at: r.expires_at.toISOString(), expired: r.expires_at.getTime() <= now }))
    },

    /**
     * POST /api/cockpit/users/invitations/{invitation_id}/resend (installation): a new token and a new mail,
     * valid INVITATION_TTL_MS from now; the link mailed before no longer works. 404 unless the invitation is a
     * pending one of that installation; 403 unless the caller administers it.
     */
    async resend(actor: Actor, installationId: number, invitationId: number): Promise<PendingInvitation> {
      await requireAdmin(actor, installationId)
      const token = crypto.randomBytes(32).toString('base64url')
      const now = clock.now()
      const row = await db.updateTable('user_invitations')
        .set({ token_hash: sha256(token), created_at: now, expires_at: new Date(now.getTime() + INVITATION_TTL_MS) })
        .where('id', '=', invitationId).where('installation_id', '=', installationId).where('accepted_at', 'is', null)
        .returning(['id', 'user_id', 'email', 'role', 'created_at', 'expires_at']).executeTakeFirst()
      if (!row) throw NotFound()
      await mailInvitation(row.user_id, installationId, token)
      return { id: row.id, email: row.email, role: row.role, sent_at: row.created_at.toISOString(), expires_at: row.expires_at.toISOString(), expired: false }
    },

    /**
     * DELETE /api/cockpit/users/invitations/{invitation_id} (installation): withdraw a pending invitation; its
     * link then answers SPEC §8's expired link. 404 unless a pending invitation of that installation; 403
     * unless the caller administers it.
     */
    async revoke(actor: Actor, installationId: number, invitationId: number): Promise<void> {
      await requireAdmin(actor, installationId)
      const gone = await db.deleteFrom('user_invitations').where('id', '=', invitationId).where('installation_id', '=', installationId)
        .where('accepted_at', 'is', null).returning('id').executeTakeFirst()
      if (!gone) throw NotFound()
    },

    /**
     * POST /api/users/invitation/accept/ {token}: the invited account joins the installation with the
     * invited role (a membership it already has keeps its role). Answers the installation's id and name
     * (the mail named it already; the accepting screen says which installation was joined). 404
     * `resetLinkExpired` (SPEC §8 "The link has expired. Please create a new link") for an unknown, used
     * or expired token, or an account that is no longer active.
     */
    async accept(token: string): Promise<{ installation_id: number; installation_name: string }> {
      const now = clock.now()
      return db.transaction().execute(async (tx) => {
        const row = await tx.selectFrom('user_invitations').selectAll().where('token_hash', '=', sha256(token)).forUpdate().executeTakeFirst()
        if (!row || row.accepted_at || row.expires_at.getTime() <= now.getTime()) throw new AppError(404, 'resetLinkExpired')
        const user = await tx.selectFrom('users').select(['is_active', 'deactivation_datetime']).where('id', '=', row.user_id).executeTakeFirst()
        if (!user || !activeAt(user, now)) throw new AppError(404, 'resetLinkExpired')
        await tx.updateTable('user_invitations').set({ accepted_at: now }).where('id', '=', row.id).execute()
        const added = await tx.insertInto('installation_users').values({ user_id: row.user_id, installation_id: row.installation_id, role: row.role })
          .onConflict((oc) => oc.columns(['user_id', 'installation_id']).doNothing()).returning('user_id').executeTakeFirst()
        if (added) {
          await recordAudit(tx, {
            at: now, actor: { id: row.user_id }, installation_id: row.installation_id, action: 'create', entity_type: 'installation_user',
            entity_id: `${row.user_id}:${row.installation_id}`, after: { user_id: row.user_id, role: row.role, invitation: row.id },
          })
        }
        const site = await tx.selectFrom('installations').select('name').where('id', '=', row.installation_id).executeTakeFirstOrThrow()
        return { installation_id: row.installation_id, installation_name: site.name }
      })
    },
  }
  return service
}
export type InvitationService = ReturnType<typeof createInvitationService>
