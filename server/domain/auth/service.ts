import crypto from 'node:crypto'
import { SignJWT, jwtVerify } from 'jose'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { AUTH } from '../../../config/defaults.ts'
import { AppError, Invalid, TooManyRequests, Unauthorized } from '../../lib/errors.ts'
import { isStrongPassword } from '../../../shared/rules/password.ts'
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts'
import { createDbThrottle, withdrawFailures } from './db-throttle.ts'
import { createDeviceCookies, ipKey } from './device-cookie.ts'
import type { TokenResponse } from '../../../shared/schemas/auth.ts'
import type { RightsCache } from './rights-cache.ts'
import type { Clock } from '../../lib/clock.ts'
import { activeAt } from '../users/active.ts'

/** The caller behind a verified access token. */
export interface Actor {
  id: number
  is_superuser: boolean
  /**
   * Set when the caller is a display link, not a person: `id` is then the link's id
   * negated, and only the few reads of the display view are open to it (server/api/http.ts).
   */
  display?: { id: number; installation_id: number }
}

/** The `token_type` claim of access JWTs (the name djangorestframework-simplejwt uses). */
const ACCESS_TYPE = 'access'
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')
const newToken = () => crypto.randomBytes(32).toString('base64url')

/**
 * Sign-in and tokens (ARCHITECTURE §3): access JWTs (HS256, 5 min) and rotating refresh tokens (24 h,
 * stored hashed; reusing a rotated token revokes its whole family). Issue times, expiries and throttling
 * windows follow `clock` (ARCHITECTURE §1 "Time"), so a server started at any CLOCK_START accepts the
 * tokens it issues.
 */
export function createAuthService({ db, clock, secret, limits = {}, rights }: { db: Db; clock: Clock; secret: Uint8Array; limits?: { perPair?: number; perIp?: number }; rights?: RightsCache }) {
  // Failed sign-ins, kept in the database: a guesser is stopped per (account, IP) and
  // per IP; the account as such only gets a growing, capped delay, so nobody can lock its owner out.
  const { account: A, pair: P, ip: I, device: D } = AUTH.signIn
  const now = () => clock.ms()
  const perAccount = createDbThrottle({ db, now, scope: 'account', windowMs: A.windowMs, policy: { kind: 'backoff', free: A.free, baseMs: A.baseMs, capMs: A.capMs } })
  const perPair = createDbThrottle({ db, now, scope: 'pair', windowMs: P.windowMs, policy: { kind: 'limit', max: limits.perPair ?? P.max } })
  const perIp = createDbThrottle({ db, now, scope: 'ip', windowMs: I.windowMs, policy: { kind: 'limit', max: limits.perIp ?? I.max } })
  const perDevice = createDbThrottle({ db, now, scope: 'device', windowMs: D.windowMs, policy: { kind: 'limit', max: D.max } })
  const devices = createDeviceCookies(secret)

  async function issue(userId: number, familyId: string): Promise<{ access: string; refresh: string }> {
    const at = clock.ms()
    // iat and exp are whole seconds of the clock (RFC 7519 §4.1.4, §4.1.6).
    const iat = Math.floor(at / 1000)
    const exp = iat + AUTH.accessTtlSeconds
    // jti (RFC 7519 §4.1.7): the id logout puts on the denylist.
    const jti = crypto.randomUUID()
    const access = await new SignJWT({ user_id: userId, token_type: ACCESS_TYPE })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(jti)
      .sign(secret)
    const refresh = newToken()
    await db
      .insertInto('refresh_tokens')
      .values({
        id: crypto.randomUUID(),
        user_id: userId,
        family_id: familyId,
        token_hash: sha256(refresh),
        expires_at: new Date(at + AUTH.refreshTtlSeconds * 1000),
        access_jti: jti,
        access_expires_at: new Date(exp * 1000),
      })
      .execute()
    return { access, refresh }
  }

  /** Installations the user may open, in id order (all of them for a superuser). */
  async function installationIds(userId: number, isSuperuser: boolean): Promise<number[]> {
    const rows = isSuperuser
      ? await db.selectFrom('installations').select('id').orderBy('id').execute()
      : await db.selectFrom('installation_users').select('installation_id as id').where('user_id', '=', userId).orderBy('installation_id').execute()
    return rows.map((r) => r.id)
  }

  /**
   * The claims of an access JWT signed with our key, judged at the clock's now; undefined for anything
   * else. A token signed with our key is still refused without an expiry, issue time, subject, id and the
   * access type: only issue() makes such tokens, anything else is a forgery or another purpose.
   */
  async function accessClaims(access: string): Promise<{ userId: number; issuedAt: number; jti: string } | undefined> {
    try {
      const { payload } = await jwtVerify(access, secret, { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub', 'jti'], currentDate: clock.now() })
      if (payload.token_type !== ACCESS_TYPE || !/^[1-9]\d{0,15}$/.test(payload.sub!)) return undefined
      return { userId: Number(payload.sub), issuedAt: payload.iat!, jti: payload.jti! }
    } catch {
      return undefined
    }
  }

  /** Deny access tokens by id until their expiry (table revoked_access_tokens, shared by all processes). */
  async function denyAccess(tokens: { jti: string; expires_at: Date }[]): Promise<void> {
    const live = tokens.filter((t) => t.expires_at.getTime() > clock.ms())
    await db.deleteFrom('revoked_access_tokens').where('expires_at', '<=', clock.now()).execute()
    if (live.length) await db.insertInto('revoked_access_tokens').values(live).onConflict((oc) => oc.column('jti').doNothing()).execute()
  }

  async function endSessions(userId: number): Promise<void> {
    // Whole seconds: a token issued in this second (the caller's fresh pair) stays valid (JWT iat is in seconds).
    const now = clock.now()
    await db.updateTable('users').set({ sessions_valid_after: sql`date_trunc('second', ${now}::timestamptz)` }).where('id', '=', userId).execute()
    await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute()
  }

  return {
    /**
     * POST /api/authentication/token/. Wrong e-mail, wrong password and an inactive account all answer
     * the same 401 in about the same time (no enumeration); 429 with Retry-After once throttled.
     * `installation_id` is the requested installation when the user may open it, else their first.
     * `device`: the browser's device cookie ({@link deviceCookie}); one of this account makes the attempt
     * count against that device only, not the account-wide delay or the IP's limit (IPv6 per /64).
     */
    async login(email: string, password: string, opts: { installation?: number; ip?: string; device?: string } = {}): Promise<TokenResponse> {
      const account = email.trim().toLowerCase()
      const known = devices.verify(account, opts.device)
      const ip = opts.ip ? ipKey(opts.ip) : undefined
      const pair = ip ? `${account} ${ip}` : null
      const waits = known ? [await perDevice.retryAfter(known)] : [await perAccount.retryAfter(account)]
      if (!known && ip && pair) waits.push(await perPair.retryAfter(pair), await perIp.retryAfter(ip))
      const wait = Math.max(...waits)
      if (wait) throw TooManyRequests(wait)
      // Counted as failures before the (slow) password check, so parallel guesses see each other;
      // withdrawn when the password is right.
      const pending = known ? [await perDevice.fail(known)] : [await perAccount.fail(account)]
      if (!known && ip && pair) pending.push(await perPair.fail(pair), await perIp.fail(ip))
      const user = await db.selectFrom('users').selectAll().where('email', '=', account).executeTakeFirst()
      const ok = user ? await verifyPassword(user.password_hash, password) : (await verifyPassword(await dummyHash(), password), false)
      if (!user || !ok || !activeAt(user, clock.now())) throw new AppError(401, 'badCredentials')
      await withdrawFailures(db, pending)
      if (known) await perDevice.reset(known)
      else {
        await perAccount.reset(account)
        if (pair) await perPair.reset(pair)
      }
      await db
        .updateTable('users')
        .set({ previous_login: sql`last_login`, last_login: clock.now() })
        .where('id', '=', user.id)
        .execute()
      const ids = await installationIds(user.id, user.is_superuser)
      const installation_id = opts.installation && ids.includes(opts.installation) ? opts.installation : (ids[0] ?? null)
      return { ...(await issue(user.id, crypto.randomUUID())), installation_id }
    },

    /**
     * A new device cookie value for `email`'s account, set after a successful sign-in
     * (./device-cookie.ts; OWASP device cookies).
     */
    deviceCookie(email: string): string {
      return devices.issue(email.trim().toLowerCase())
    },

    /**
     * POST /api/authentication/token/refresh/: a valid unused refresh token is spent and replaced (same
     * family). A spent or revoked one revokes the family and answers 401.
     */
    async refresh(token: string): Promise<{ access: string; refresh: string }> {
      const row = await db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst()
      if (!row || row.expires_at.getTime() < clock.ms()) throw Unauthorized('tokenInvalid')
      if (row.used_at || row.revoked_at) {
        await db.updateTable('refresh_tokens').set({ revoked_at: clock.now() }).where('family_id', '=', row.family_id).where('revoked_at', 'is', null).execute()
        throw Unauthorized('tokenInvalid')
      }
      const spent = await db
        .updateTable('refresh_tokens')
        .set({ used_at: clock.now() })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst()
      if (Number(spent.numUpdatedRows) !== 1) throw Unauthorized('tokenInvalid')
      const user = await db.selectFrom('users').select(['is_active', 'deactivation_datetime']).where('id', '=', row.user_id).executeTakeFirst()
      if (!user || !activeAt(user, clock.now())) throw Unauthorized('tokenInvalid')
      return issue(row.user_id, row.family_id)
    },

    /**
     * POST /api/authentication/logout/ (ARCHITECTURE §3): revoke the family of `token`, so no token of
     * that sign-in refreshes again (other sign-ins of the user stay), and deny the access tokens issued
     * with it until their expiry, so they fail `verify` at the next request in every process. Unknown, expired or already revoked tokens are a no-op: logging
     * out twice is not an error, and the answer tells nothing about the token.
     */
    async logout(token: string): Promise<void> {
      const row = await db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', sha256(token)).executeTakeFirst()
      if (!row) return
      await db.updateTable('refresh_tokens').set({ revoked_at: clock.now() }).where('family_id', '=', row.family_id).where('revoked_at', 'is', null).execute()
      const issued = await db.selectFrom('refresh_tokens').select(['access_jti', 'access_expires_at']).where('family_id', '=', row.family_id)
        .where('access_jti', 'is not', null).where('access_expires_at', '>', clock.now()).execute()
      await denyAccess(issued.map((t) => ({ jti: t.access_jti!, expires_at: t.access_expires_at! })))
    },

    /**
     * Verify an access JWT; it must not be denied (logout), and the user must still exist and be active
     * at the clock's now (a deactivation date counts from that date on). Throws 401 tokenInvalid.
     */
    async verify(access: string): Promise<Actor> {
      const claims = await accessClaims(access)
      if (!claims) throw Unauthorized('tokenInvalid')
      const { userId, issuedAt, jti } = claims
      const readDenied = async () => Boolean(await db.selectFrom('revoked_access_tokens').select('jti').where('jti', '=', jti).executeTakeFirst())
      // Kept while the rights revision stands: every denial bumps it (migration 0180).
      if (rights ? await rights.get(`denied:${jti}`, readDenied) : await readDenied()) throw Unauthorized('tokenInvalid')
      const read = () => db.selectFrom('users').select(['id', 'is_superuser', 'is_active', 'deactivation_datetime', 'sessions_valid_after']).where('id', '=', userId).executeTakeFirst()
      // Kept while the rights revision stands: deactivation (and its date), deletion, ended sessions and the superuser flag bump it.
      const user = rights ? await rights.get(`user:${userId}`, read) : await read()
      if (!user || !activeAt(user, clock.now())) throw Unauthorized('tokenInvalid')
      // Sessions ended after this token was issued (password change or reset): refuse it at once.
      if (user.sessions_valid_after && issuedAt * 1000 < user.sessions_valid_after.getTime()) throw Unauthorized('tokenInvalid')
      return { id: user.id, is_superuser: user.is_superuser }
    },

    /**
     * PUT /api/users/password/ (SPEC §5): `oldPassword` must be the current one (else 400
     * `{old_password: ["The entered password does not match your current password"]}`), `newPassword`
     * must satisfy the rule (else 400 `{new_password: [...]}`). Ends every session of the user (all
     * refresh tokens revoked) and answers a fresh token pair for the caller's own session.
     */
    async changePassword(actor: Actor, oldPassword: string, newPassword: string): Promise<{ access: string; refresh: string }> {
      const user = await db.selectFrom('users').select(['id', 'password_hash']).where('id', '=', actor.id).executeTakeFirstOrThrow()
      if (!(await verifyPassword(user.password_hash, oldPassword))) throw new Invalid({ old_password: ['wrongOldPassword'] })
      if (!isStrongPassword(newPassword)) throw new Invalid({ new_password: ['passwordRule'] })
      const password_hash = await hashPassword(newPassword)
      await db.updateTable('users').set({ password_hash }).where('id', '=', user.id).execute()
      await endSessions(user.id)
      return issue(user.id, crypto.randomUUID())
    },

    /**
     * End every session of `userId`: revoke all refresh tokens, so no new access token is issued
     * (access tokens already fail `verify` for inactive or deleted users; live streams end with them).
     */
    endSessions,

    /**
     * Create or update the relay's internal superuser-level account (used when all roles run in one
     * process, with a password generated at each start).
     */
    async ensureServiceAccount(email: string, password: string): Promise<void> {
      const password_hash = await hashPassword(password)
      await db
        .insertInto('users')
        .values({ email: email.toLowerCase(), password_hash, first_name: 'Relay', last_name: 'Service', title: null,
          is_superuser: true, is_active: true, is_service: true, deactivation_datetime: null, ietf_lang_tag: 'en', last_login: null, previous_login: null })
        .onConflict((oc) => oc.column('email').doUpdateSet({ password_hash, is_active: true, is_service: true, is_superuser: true }))
        .execute()
    },
  }
}
export type AuthService = ReturnType<typeof createAuthService>

/** The HS256 key: JWT_SECRET when configured, else one generated once and kept in the database. */
export async function loadJwtSecret(db: Db, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured)
  const fresh = crypto.randomBytes(48).toString('base64url')
  await db.insertInto('app_settings').values({ key: 'jwt_secret', value: fresh }).onConflict((oc) => oc.column('key').doNothing()).execute()
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow()
  return new TextEncoder().encode(row.value)
}
