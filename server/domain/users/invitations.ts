import crypto from 'node:crypto'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import type { MailService } from '../mail/service.ts'
import { AppError } from '../../lib/errors.ts'
import { invitationMail } from '../mail/templates/invitation.ts'
import { mailLang } from '../mail/templates/layout.ts'
import { recordAudit } from '../audit/service.ts'
import { activeAt } from './active.ts'

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
export function createInvitationService({ db, clock, mail, publicUrl }: { db: Db; clock: Clock; mail: MailService; publicUrl: string }) {
  return {
    /**
     * Invite account `userId` to `installationId` with `role` on behalf of `invitedBy`: stores the invitation
     * and queues the mail (the person's language) with `<publicUrl>/login/invitation?token=…`.
     */
    async invite(userId: number, installationId: number, role: MemberRole, invitedBy: number): Promise<void> {
      const token = crypto.randomBytes(32).toString('base64url')
      const now = clock.now()
      await db.insertInto('user_invitations').values({
        installation_id: installationId, user_id: userId, role, invited_by: invitedBy, token_hash: sha256(token),
        created_at: now, expires_at: new Date(now.getTime() + INVITATION_TTL_MS), accepted_at: null,
      }).execute()
      const [user, site] = await Promise.all([
        db.selectFrom('users').select(['email', 'first_name', 'last_name', 'ietf_lang_tag']).where('id', '=', userId).executeTakeFirstOrThrow(),
        db.selectFrom('installations').select('name').where('id', '=', installationId).executeTakeFirstOrThrow(),
      ])
      const url = `${publicUrl}/login/invitation?${new URLSearchParams({ token, installation: String(installationId) })}`
      const rendered = invitationMail(mailLang(user.ietf_lang_tag), { name: `${user.first_name} ${user.last_name}`.trim(), site: site.name, url })
      await mail.enqueue({ kind: 'invitation', to: user.email, ...rendered })
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
}
export type InvitationService = ReturnType<typeof createInvitationService>
