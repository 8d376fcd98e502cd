import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, Invalid } from '../../lib/errors.ts'
import { verifyPassword } from '../auth/passwords.ts'
import { createMailService } from '../mail/service.ts'
import { emailChangedMail } from '../mail/templates/email-changed.ts'
import { mailLang } from '../mail/templates/layout.ts'

/** How long the previous address may undo a change: 7 days. */
export const EMAIL_UNDO_TTL_MS = 7 * 24 * 3600_000
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

/**
 * Changing a sign-in address (docs/decisions.md "Accounts: e-mail change with password and undo, access
 * tokens denied at logout, deactivation from its date"; OWASP Authentication Cheat Sheet, "Changing a
 * User's Registered Email Address"). A user changing their own address confirms it with the current
 * password, so a stolen access token alone cannot take the account over; every change mails the previous
 * address a notice with a single-use link (256 random bits, stored as SHA-256, EMAIL_UNDO_TTL_MS on the
 * clock) to `<publicUrl>/login/email-undo?token=…`, which restores it and ends every session.
 */
export function createEmailChangeService({ db, clock, publicUrl, endSessions }: { db: Db; clock: Clock; publicUrl: string; endSessions?: (userId: number) => Promise<void> }) {
  return {
    /**
     * Set user `id`'s address to `email` (already lower-cased); 400 `{email: [emailTaken]}` when another
     * account uses it. When `self` (the caller changes
     * their own address) `password` must be their current one: 400 `{password: ["The field is
     * required."]}` without it, 400 `{password: ["The entered password does not match your current
     * password"]}` (SPEC §5) when wrong. The address, the undo link and the notice are written in one
     * transaction.
     */
    async change(id: number, email: string, { self, password }: { self: boolean; password?: string }): Promise<void> {
      const user = await db.selectFrom('users').select(['id', 'email', 'password_hash', 'first_name', 'last_name', 'ietf_lang_tag']).where('id', '=', id).executeTakeFirstOrThrow()
      if (self) {
        if (!password) throw new Invalid({ password: ['required'] })
        if (!(await verifyPassword(user.password_hash, password))) throw new Invalid({ password: ['wrongOldPassword'] })
      }
      if (user.email === email) return
      const other = await db.selectFrom('users').select('id').where('email', '=', email).where('id', '!=', id).executeTakeFirst()
      if (other) throw new Invalid({ email: ['emailTaken'] })
      const token = crypto.randomBytes(32).toString('base64url')
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ email }).where('id', '=', id).execute()
        await trx.insertInto('email_change_undo')
          .values({ user_id: id, old_email: user.email, new_email: email, token_hash: sha256(token), expires_at: new Date(clock.ms() + EMAIL_UNDO_TTL_MS), used_at: null })
          .execute()
        const url = `${publicUrl}/login/email-undo?${new URLSearchParams({ token })}`
        const rendered = emailChangedMail(mailLang(user.ietf_lang_tag), { name: `${user.first_name} ${user.last_name}`.trim(), newEmail: email, url, days: EMAIL_UNDO_TTL_MS / (24 * 3600_000) })
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
