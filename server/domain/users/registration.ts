import crypto from 'node:crypto'
import type { Db } from '../../db/connection.ts'
import type { MailService } from '../mail/service.ts'
import type { LegalService } from '../legal/service.ts'
import { AppError, Invalid } from '../../lib/errors.ts'
import { hashPassword } from '../auth/passwords.ts'
import { verificationMail } from '../mail/templates/verification.ts'
import { mailLang } from '../mail/templates/layout.ts'
import { isStrongPassword } from '../../../shared/rules/password.ts'
import type { Registration } from '../../../shared/schemas/accounts.ts'
import type { Clock } from '../../lib/clock.ts'
import { recordAudit } from '../audit/service.ts'

/** Verification links stay valid 48 hours. */
export const VERIFY_TTL_MS = 48 * 3600_000
/** Registration answers after at least this long, whether or not the address was new (no enumeration). */
export const REGISTER_ANSWER_MS = 300

/**
 * Delete the account of `email` when it is a self-registration never confirmed whose every verification
 * link has expired by `now` (never signed in, never deactivated by an admin, inactive): its address is free
 * again for a new registration or an admin's new user (docs/decisions.md "Accounts: unconfirmed
 * registrations expire"). Its membership, audit trail (actor nulled), terms acceptance and links go with it
 * (ON DELETE). → whether one was deleted.
 */
export async function expireRegistration(db: Db, email: string, now: Date): Promise<boolean> {
  const deleted = await db.deleteFrom('users').where('email', '=', email).where('is_active', '=', false).where('last_login', 'is', null)
    .where('deactivation_datetime', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('password_reset_tokens as t').select('t.id').whereRef('t.user_id', '=', 'users.id').where('t.purpose', '=', 'verify')))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('password_reset_tokens as t').select('t.id').whereRef('t.user_id', '=', 'users.id').where('t.purpose', '=', 'verify')
      .where((w) => w.or([w('t.expires_at', '>', now), w('t.used_at', 'is not', null)])))))
    .executeTakeFirst()
  return Number(deleted.numDeletedRows) > 0
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')
// Real time, not the clock's: the answer's delay hides from a caller whether an account was made,
// whatever CLOCK_SPEED is (ARCHITECTURE §1 "Time": durations are measured, not read from the clock).
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Self-registration (SPEC §7 /users/can-register, /users/register/, /users/user-verification/).
 * Open per installation (installations.registration_enabled). A new account is inactive until its
 * address is confirmed through the mailed link; it joins the installation as installation_user with the
 * current terms accepted. An address already in use gets the same answer and no account (no enumeration).
 * An account never confirmed is deleted once its link expired, when its address registers again or an
 * admin creates a user with it ({@link expireRegistration}).
 * Link expiry follows `clock` (ARCHITECTURE §1 "Time").
 */
export function createRegistrationService({ db, clock, mail, legal, publicUrl }: { db: Db; clock: Clock; mail: MailService; legal: LegalService; publicUrl: string }) {
  return {
    /** GET /api/users/can-register?installation=N: whether that installation accepts registrations (false when unknown). */
    async canRegister(installationId: number): Promise<boolean> {
      const row = await db.selectFrom('installations').select('registration_enabled').where('id', '=', installationId).executeTakeFirst()
      return Boolean(row?.registration_enabled)
    },

    /**
     * POST /api/users/register/?installation=N: 403 registrationClosed when closed; 400 for the password
     * rule or missing terms acceptance; otherwise the same result after REGISTER_ANSWER_MS whether the
     * address was new (account created, verification mail queued) or already used (nothing happens).
     */
    async register(installationId: number, body: Registration): Promise<void> {
      if (!(await this.canRegister(installationId))) throw new AppError(403, 'registrationClosed')
      if (body.terms_accepted !== true) throw new Invalid({ terms_accepted: ['termsRequired'] })
      if (!isStrongPassword(body.password)) throw new Invalid({ password: ['passwordRule'] })
      const started = performance.now()
      const password_hash = await hashPassword(body.password)
      const email = body.email.trim().toLowerCase()
      // A registration never confirmed within its link's lifetime no longer holds its address.
      await expireRegistration(db, email, clock.now())
      const exists = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
      if (!exists) {
        const u = await db.insertInto('users').values({
          email, password_hash, first_name: body.first_name, last_name: body.last_name, title: body.title ?? null, is_superuser: false,
          is_active: false, deactivation_datetime: null, ietf_lang_tag: body.ietf_lang_tag ?? 'de-CH', last_login: null, previous_login: null,
        }).onConflict((oc) => oc.column('email').doNothing()).returning('id').executeTakeFirst()
        if (u) {
          // A self-registered resident's membership is audited as theirs (docs/decisions.md "Provisioning: the audit trail").
          await db.transaction().execute(async (tx) => {
            await tx.insertInto('installation_users').values({ user_id: u.id, installation_id: installationId, role: 'installation_user' }).execute()
            await recordAudit(tx, { at: clock.now(), actor: u, installation_id: installationId, action: 'create', entity_type: 'installation_user', entity_id: `${u.id}:${installationId}`, after: { user_id: u.id, role: 'installation_user' } })
          })
          await legal.acceptAll(u.id)
          const token = crypto.randomBytes(32).toString('base64url')
          await db.insertInto('password_reset_tokens').values({ user_id: u.id, token_hash: sha256(token), expires_at: new Date(clock.ms() + VERIFY_TTL_MS), used_at: null, purpose: 'verify' }).execute()
          const url = `${publicUrl}/login/verify?${new URLSearchParams({ token, installation: String(installationId) })}`
          await mail.enqueue({ kind: 'verification', to: email, ...verificationMail(mailLang(body.ietf_lang_tag), { name: `${body.first_name} ${body.last_name}`.trim(), url }) })
        }
      }
      await sleep(Math.max(0, REGISTER_ANSWER_MS - (performance.now() - started)))
    },

    /**
     * POST /api/users/user-verification/ {token}: activates the registered account; the token is single
     * use. 404 "The link has expired. Please create a new link" for an unknown, used or expired token.
     */
    async verify(token: string): Promise<void> {
      const row = await db.selectFrom('password_reset_tokens').selectAll().where('token_hash', '=', sha256(token)).where('purpose', '=', 'verify').executeTakeFirst()
      if (!row || row.used_at || row.expires_at.getTime() <= clock.ms()) throw new AppError(404, 'resetLinkExpired')
      await db.transaction().execute(async (trx) => {
        const spent = await trx.updateTable('password_reset_tokens').set({ used_at: clock.now() }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst()
        if (Number(spent.numUpdatedRows) !== 1) throw new AppError(404, 'resetLinkExpired')
        // Only an account that was never activated: a verification link cannot undo a deactivation.
        await trx.updateTable('users').set({ is_active: true }).where('id', '=', row.user_id).where('last_login', 'is', null).where('deactivation_datetime', 'is', null).execute()
      })
    },
  }
}
export type RegistrationService = ReturnType<typeof createRegistrationService>
