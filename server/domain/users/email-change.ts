import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, Invalid } from '../../lib/errors.ts'
import type { Actor } from '../auth/service.ts'
import { verifyPassword } from '../auth/passwords.ts'
import { createMailService } from '../mail/service.ts'
import { emailChangedMail } from '../mail/templates/email-changed.ts'
import { emailConfirmMail } from '../mail/templates/email-confirm.ts'
import { emailInUseMail } from '../mail/templates/email-in-use.ts'
import { mailLang } from '../mail/templates/layout.ts'
import { activeAt } from './active.ts'
import { expireRegistration } from './registration.ts'

/** How long the previous address may undo a change: 7 days. */
export const EMAIL_UNDO_TTL_MS = 7 * 24 * 3600_000
/** How long the link to confirm a new address lives: 48 hours, as a registration's verification link. */
export const EMAIL_CONFIRM_TTL_MS = 48 * 3600_000
/** Mails (confirmation links or notices) to one address per hour; more requests get the same answer and no mail. */
export const EMAIL_CHANGE_MAILS_PER_HOUR = 5
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')
const fullName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim()

/**
 * Changing a sign-in address (docs/decisions.md "Accounts: e-mail change with password and undo, access
 * tokens denied at logout, deactivation from its date" and "Accounts: an e-mail change is confirmed from the
 * new address"; OWASP Authentication Cheat Sheet, "Changing a User's Registered Email Address"). A user
 * changing their own address confirms the request with the current password, so a stolen access token alone
 * cannot take the account over. The change waits for a single-use link mailed to the new address (256
 * random bits stored as SHA-256, EMAIL_CONFIRM_TTL_MS on the clock, `<publicUrl>/login/email-confirm?token=…`);
 * an address that has an account the caller does not reach gets a short notice instead and the same answer,
 * so nobody learns from it whether an address has an account. Once confirmed, the previous address gets a
 * notice with a single-use undo link (EMAIL_UNDO_TTL_MS, `<publicUrl>/login/email-undo?token=…`), which
 * restores it and ends every session.
 */
export function createEmailChangeService({ db, clock, publicUrl, endSessions }: { db: Db; clock: Clock; publicUrl: string; endSessions?: (userId: number) => Promise<void> }) {
  return {
    /**
     * PUT /api/users/{id}/email: ask to make `email` (already lower-cased) user `id`'s sign-in address on
     * behalf of `actor` (who may edit that user: checked by the caller). When the actor is the user, `password`
     * must be their current one: 400 `{password: ["The field is required."]}` without it, 400 `{password: ["The
     * entered password does not match your current password"]}` (SPEC §5) when wrong, checked before the
     * address is looked up. 400 `{email: [emailTaken]}` only when the address belongs to another user the actor
     * reaches already (./identity.ts `reaches`: for a resident, nobody). Otherwise the same work and answer for a
     * free address and one with an account: a request row (replacing the user's earlier ones) and one mail, the
     * confirmation link to a free address or the notice to a taken one, at most EMAIL_CHANGE_MAILS_PER_HOUR per
     * address. Nothing changes until the link is followed ({@link confirm}). The user's own address: nothing to do.
     */
    async request(actor: Actor, id: number, email: string, { password }: { password?: string } = {}): Promise<void> {
      const user = await db.selectFrom('users').select(['id', 'email', 'password_hash', 'first_name', 'last_name', 'ietf_lang_tag']).where('id', '=', id).executeTakeFirstOrThrow()
      if (actor.id === id) {
        if (!password) throw new Invalid({ password: ['required'] })
        if (!(await verifyPassword(user.password_hash, password))) throw new Invalid({ password: ['wrongOldPassword'] })
      }
      if (user.email === email) return
      const now = clock.now()
      await expireRegistration(db, email, now)
      // One query on both paths (a free address costs what a taken one does): the other account, and whether
      // the actor reaches it already (./identity.ts `reaches`, here in SQL).
      const administered = db.selectFrom('installation_users').select('installation_id').where('user_id', '=', actor.id).where('role', '=', 'installation_admin')
      const other = await db.selectFrom('users').select(['id', 'first_name', 'last_name', 'ietf_lang_tag'])
        .select((eb) => eb.and([
          eb.exists(administered),
          eb.or([eb('users.is_superuser', '=', true), eb.exists(eb.selectFrom('installation_users as m').select('m.user_id').whereRef('m.user_id', '=', 'users.id').where('m.installation_id', 'in', administered))]),
        ]).as('reached'))
        .where('email', '=', email).where('id', '!=', id).executeTakeFirst()
      if (other && (actor.is_superuser || other.reached)) throw new Invalid({ email: ['emailTaken'] })
      const token = crypto.randomBytes(32).toString('base64url')
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('email_change_requests').set({ used_at: now }).where('user_id', '=', id).where('used_at', 'is', null).execute()
        const recent = await trx.selectFrom('email_change_requests').select((eb) => eb.fn.countAll<number>().as('n'))
          .where('new_email', '=', email).where('created_at', '>', new Date(now.getTime() - 3600_000)).executeTakeFirstOrThrow()
        await trx.insertInto('email_change_requests').values({
          user_id: id, requested_by: actor.id, old_email: user.email, new_email: email, address_taken: Boolean(other), token_hash: sha256(token),
          created_at: now, expires_at: new Date(now.getTime() + EMAIL_CONFIRM_TTL_MS), used_at: null,
        }).execute()
        if (Number(recent.n) >= EMAIL_CHANGE_MAILS_PER_HOUR) return
        const url = `${publicUrl}/login/email-confirm?${new URLSearchParams({ token })}`
        const rendered = other
          ? emailInUseMail(mailLang(other.ietf_lang_tag), { name: fullName(other) })
          : emailConfirmMail(mailLang(user.ietf_lang_tag), { name: fullName(user), url, hours: EMAIL_CONFIRM_TTL_MS / 3600_000 })
        await createMailService({ db: trx, clock }).enqueue({ kind: other ? 'email_in_use' : 'email_confirm', to: email, ...rendered })
      })
    },

    /**
     * POST /api/users/email/confirm/ {token} (no sign-in: the link proves the new mailbox): the requested
     * address becomes the user's sign-in address, the link and the user's other requests are spent, and the
     * previous address gets the notice with the undo link. 404 "The link has expired. Please create a new
     * link" (SPEC §8) for an unknown, used, replaced or expired link, an inactive user, or a user whose address
     * changed since the request; 400 `{email: [emailTaken]}` when another account took the address meanwhile.
     */
    async confirm(token: string): Promise<void> {
      const now = clock.now()
      await db.transaction().execute(async (trx) => {
        const row = token ? await trx.selectFrom('email_change_requests').selectAll().where('token_hash', '=', sha256(token)).forUpdate().executeTakeFirst() : undefined
        if (!row || row.used_at || row.address_taken || row.expires_at.getTime() <= now.getTime()) throw new AppError(404, 'resetLinkExpired')
        const user = await trx.selectFrom('users').select(['id', 'email', 'first_name', 'last_name', 'ietf_lang_tag', 'is_active', 'deactivation_datetime'])
          .where('id', '=', row.user_id).forUpdate().executeTakeFirst()
        if (!user || user.email !== row.old_email || !activeAt(user, now)) throw new AppError(404, 'resetLinkExpired')
        await expireRegistration(trx, row.new_email, now)
        const other = await trx.selectFrom('users').select('id').where('email', '=', row.new_email).where('id', '!=', user.id).executeTakeFirst()
        if (other) throw new Invalid({ email: ['emailTaken'] })
        await trx.updateTable('email_change_requests').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute()
        await trx.updateTable('users').set({ email: row.new_email }).where('id', '=', user.id).execute()
        const undo = crypto.randomBytes(32).toString('base64url')
        await trx.insertInto('email_change_undo')
          .values({ user_id: user.id, old_email: user.email, new_email: row.new_email, token_hash: sha256(undo), expires_at: new Date(now.getTime() + EMAIL_UNDO_TTL_MS), used_at: null })
          .execute()
        const url = `${publicUrl}/login/email-undo?${new URLSearchParams({ token: undo })}`
        const rendered = emailChangedMail(mailLang(user.ietf_lang_tag), { name: fullName(user), newEmail: row.new_email, url, days: EMAIL_UNDO_TTL_MS / (24 * 3600_000) })
        await createMailService({ db: trx, clock }).enqueue({ kind: 'email_changed', to: user.email, ...rendered })
      })
    },

    /**
     * POST /api/users/email/undo/: restore the address the link was mailed to, spend the link and the
     * user's other undo links, and end every session of the user. 404 "The link has expired. Please create
     * a new link" for an unknown, used or expired token; 400 `{email: [emailTaken]}` when another account
     * took the old address meanwhile.
     */
    async undo(token: string): Promise<void> {
      const row = token
        ? await db.selectFrom('email_change_undo').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst()
        : undefined
      if (!row || row.used_at || row.expires_at.getTime() <= clock.ms()) throw new AppError(404, 'resetLinkExpired')
      const now = clock.now()
      await db.transaction().execute(async (trx) => {
        const spent = await trx.updateTable('email_change_undo').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst()
        if (Number(spent.numUpdatedRows) !== 1) throw new AppError(404, 'resetLinkExpired')
        const other = await trx.selectFrom('users').select('id').where('email', '=', row.old_email).where('id', '!=', row.user_id).executeTakeFirst()
        if (other) throw new Invalid({ email: ['emailTaken'] })
        await trx.updateTable('email_change_undo').set({ used_at: now }).where('user_id', '=', row.user_id).where('used_at', 'is', null).execute()
        // Whoever changed the address may still hold a session: sessions issued before now are refused.
        await trx.updateTable('users').set({ email: row.old_email, sessions_valid_after: sql`date_trunc('second', ${now}::timestamptz)` }).where('id', '=', row.user_id).execute()
      })
      await endSessions?.(row.user_id)
    },
  }
}
export type EmailChangeService = ReturnType<typeof createEmailChangeService>
