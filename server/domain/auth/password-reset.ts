import { sql } from 'kysely'
import crypto from 'node:crypto'
import type { Db } from '../../db/connection.ts'
import type { MailService } from '../mail/service.ts'
import { AppError, Invalid } from '../../lib/errors.ts'
import { hashPassword } from './passwords.ts'
import { createThrottle } from './throttle.ts'
import { resetMail } from '../mail/templates/reset.ts'
import { mailLang } from '../mail/templates/layout.ts'
import { isStrongPassword } from '../../../shared/rules/password.ts'
import { activeAt } from '../users/active.ts'
import type { Clock } from '../../lib/clock.ts'

/** Reset link lifetime: 60 minutes. */
export const RESET_TTL_MS = 60 * 60_000
/**
 * Reset requests whose work (look-up, token, mail into the outbox) waits in the background at most; more
 * get the same answer and no mail, so a flood of requests cannot pile up work (docs/decisions.md
 * "Accounts: a reset request answers before its work").
 */
export const RESET_QUEUE_MAX = 1000
/** Reset mails per address and hour; more requests get the same answer but no mail (no mail bombing). */
export const RESET_MAILS_PER_HOUR = 5

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

/**
 * Password reset (SPEC §7 /password-reset/…). Tokens are 256 random bits sent by mail,
 * stored as SHA-256, single use, valid RESET_TTL_MS. The link opens the client's create-new-password
 * screen: `<publicUrl>/login/reset?token=…` (plus `&installation=N` when asked from an installation).
 * Expiries and the mails-per-hour window follow `clock` (ARCHITECTURE §1 "Time").
 */
export function createPasswordResetService({ db, clock, mail, publicUrl, log = () => {} }: { db: Db; clock: Clock; mail: MailService; publicUrl: string; log?: (err: unknown) => void }) {
  const perAddress = createThrottle({ max: RESET_MAILS_PER_HOUR, windowMs: 3600_000, now: () => clock.ms() })
  // The requests' work, one after the other (a flood costs the database one query at a time), and how many wait.
  let queue: Promise<void> = Promise.resolve()
  let waiting = 0

  /** Store a new token for `userId` valid `ttlMs` and answer the create-new-password link carrying it. */
  async function issueLink(userId: number, { ttlMs, installation }: { ttlMs: number; installation?: number }): Promise<string> {
    const token = crypto.randomBytes(32).toString('base64url')
    await db.insertInto('password_reset_tokens')
      .values({ user_id: userId, token_hash: sha256(token), expires_at: new Date(clock.ms() + ttlMs), used_at: null })
      .execute()
    const query = new URLSearchParams({ token })
    if (installation) query.set('installation', String(installation))
    return `${publicUrl}/login/reset?${query}`
  }

  async function send(email: string, installation?: number): Promise<void> {
    const user = await db.selectFrom('users').select(['id', 'first_name', 'last_name', 'ietf_lang_tag', 'is_active', 'deactivation_datetime', 'is_service'])
      .where('email', '=', email).executeTakeFirst()
    if (!user || !activeAt(user, clock.now()) || user.is_service) return
    if (perAddress.retryAfter(email)) return
    perAddress.fail(email)
    const url = await issueLink(user.id, { ttlMs: RESET_TTL_MS, installation })
    const rendered = resetMail(mailLang(user.ietf_lang_tag), { name: `${user.first_name} ${user.last_name}`.trim(), url })
    await mail.enqueue({ kind: 'reset', to: email, ...rendered })
  }

  /** The unused, unexpired token row for `token`, or undefined. */
  async function usable(token: string) {
    if (!token) return undefined
    const row = await db.selectFrom('password_reset_tokens').selectAll().where('token_hash', '=', sha256(token)).where('purpose', '=', 'reset').executeTakeFirst()
    if (!row || row.used_at || row.expires_at.getTime() <= clock.ms()) return undefined
    const user = await db.selectFrom('users').select(['is_active', 'deactivation_datetime']).where('id', '=', row.user_id).executeTakeFirst()
    return user && activeAt(user, clock.now()) ? row : undefined
  }

  return {
    /**
     * A single-use set-password link for `userId` (welcome mails use a longer `ttlMs` than a reset);
     * `<publicUrl>/login/reset?token=…[&installation=N]`.
     */
    issueLink,

    /**
     * POST /api/password-reset/ and /api/users/password-reset/ (installation): mail a reset link when
     * `email` belongs to an active account. Returns at once, before looking the address up: the look-up,
     * the token and the mail (into the outbox, sent by server/jobs/mail-outbox.ts) run in the background,
     * one request after the other, so the answer's time says nothing of the address, however long the work
     * takes (docs/decisions.md "Accounts: a reset request answers before its work"). Beyond RESET_QUEUE_MAX
     * waiting requests one is dropped (logged). The route answers 200 with the SPEC §8 text either way.
     */
    request(email: string, installation?: number): void {
      if (waiting >= RESET_QUEUE_MAX) return log(new Error('password reset request dropped: too many waiting'))
      waiting++
      queue = queue.then(() => send(email.trim().toLowerCase(), installation)).catch(log).finally(() => {
        waiting--
      })
    },

    /** Resolves once every reset request made so far has done its work (its mail is in the outbox); for shutdown and tests. */
    settled(): Promise<void> {
      return queue
    },

    /** POST /api/password-reset/validate_token/: true only for an unused, unexpired token of an active user. */
    async validate(token: string): Promise<boolean> {
      return Boolean(await usable(token))
    },

    /**
     * POST /api/password-reset/confirm/: set the new password (SPEC §5 rule, else 400 `{password: [...]}`),
     * spend the token and the user's other reset tokens, and revoke every refresh token of the user, so
     * other sessions end at their next refresh (live streams at their next ticket). 404 "The link has
     * expired. Please create a new link" for an unknown, used or expired token.
     */
    async confirm(token: string, password: string): Promise<void> {
      const row = await usable(token)
      if (!row) throw new AppError(404, 'resetLinkExpired')
      if (!isStrongPassword(password)) throw new Invalid({ password: ['passwordRule'] })
      const password_hash = await hashPassword(password)
      const now = clock.now()
      await db.transaction().execute(async (trx) => {
        const spent = await trx.updateTable('password_reset_tokens').set({ used_at: now })
          .where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst()
        if (Number(spent.numUpdatedRows) !== 1) throw new AppError(404, 'resetLinkExpired')
        await trx.updateTable('password_reset_tokens').set({ used_at: now }).where('user_id', '=', row.user_id).where('purpose', '=', 'reset').where('used_at', 'is', null).execute()
        // A reset ends every session: refresh tokens, access tokens issued before now, live streams.
        await trx.updateTable('users').set({ password_hash, sessions_valid_after: sql`date_trunc('second', ${now}::timestamptz)` }).where('id', '=', row.user_id).execute()
        await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', row.user_id).where('revoked_at', 'is', null).execute()
      })
    },
  }
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>
