import crypto from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Database } from '../../db/schema.ts'
import type { Clock } from '../../lib/clock.ts'
import { AUTH } from '../../../config/defaults.ts'
import { AppError, Forbidden, Invalid, TooManyRequests } from '../../lib/errors.ts'
import { isStrongPassword } from '../../../shared/rules/password.ts'
import type { DemoSignIn, SetupRequest } from '../../../shared/schemas/setup.ts'
import type { TokenResponse } from '../../../shared/schemas/auth.ts'
import { hashPassword } from './passwords.ts'
import { createDbThrottle } from './db-throttle.ts'
import type { AuthService } from './service.ts'

/** A setup link is valid this long after the start that logged it: one hour of the process clock. */
/**
 * The language and region of a superuser made without a choice (ADMIN_* at start, `create-superuser`):
 * SPEC §9's default locale. The screens follow the account's language at sign-in (docs/decisions.md
 * "Client: the account's language is the truth once signed in"); the operator changes it in Settings.
 */
const DEFAULT_LANG_TAG = 'en-US'

export const SETUP_TTL_MS = 60 * 60_000

/**
 * Advisory lock key of superuser creation (any fixed bigint, unique within this program, beside the demo
 * seed's): processes starting at once on one Postgres, and a setup form sent twice, create one account.
 */
const FIRST_SUPERUSER_LOCK = 0x73657475 /* "setu" */

/** Names of an account created from ADMIN_EMAIL or the command line, to be changed in Settings. */
const DEFAULT_NAMES = { first_name: 'Administrator', last_name: '' }

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

type Tx = Db | Transaction<Database>

/**
 * Whether a superuser who can sign in exists: active, and a person, not the relay's internal service
 * account (server/domain/auth/service.ts ensureServiceAccount, itself a superuser).
 */
export async function hasSuperuser(db: Tx): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('is_superuser', '=', true).where('is_active', '=', true).where('is_service', '=', false).limit(1).executeTakeFirst()
  return row !== undefined
}

/** A refusal of {@link makeSuperuser}, its message worded for the person at the command line. */
export class SuperuserRefused extends Error {}

/**
 * The recovery of a locked-out operator (scripts/admin.ts create-superuser): the account of `email`
 * becomes an active superuser with `password` (SPEC §5 rule), its sessions end (as after a password
 * reset) and its failed sign-ins are forgotten; without such an account one is created
 * (names {@link DEFAULT_NAMES}, language de-CH). `now` is the clock's instant (ARCHITECTURE §1 "Time").
 * One transaction. Throws {@link SuperuserRefused} for a weak password or the relay's service account.
 */
export async function makeSuperuser(db: Db, { email, password, now }: { email: string; password: string; now: Date }): Promise<'created' | 'recovered'> {
  const address = email.trim().toLowerCase()
  if (!isStrongPassword(password)) throw new SuperuserRefused('The password must be at least 8 characters long and contain a number and a symbol.')
  const password_hash = await hashPassword(password)
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${FIRST_SUPERUSER_LOCK})`.execute(tx)
    const user = await tx.selectFrom('users').select(['id', 'is_service']).where('email', '=', address).executeTakeFirst()
    if (user?.is_service) throw new SuperuserRefused(`${address} is an internal service account and cannot be changed.`)
    if (!user) {
      await tx.insertInto('users').values({ email: address, password_hash, ...DEFAULT_NAMES, title: null, is_superuser: true, is_active: true,
        deactivation_datetime: null, ietf_lang_tag: DEFAULT_LANG_TAG, last_login: null, previous_login: null }).execute()
      return 'created'
    }
    // As a password reset (server/domain/auth/password-reset.ts confirm): every session of the account ends.
    await tx.updateTable('users')
      .set({ password_hash, is_superuser: true, is_active: true, deactivation_datetime: null, sessions_valid_after: sql`date_trunc('second', ${now}::timestamptz)` })
      .where('id', '=', user.id).execute()
    await tx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute()
    await tx.updateTable('password_reset_tokens').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute()
    // Throttled sign-ins of the account (keys of server/domain/auth/service.ts login): forgotten.
    await tx.deleteFrom('auth_failures').where((eb) => eb.or([
      eb.and([eb('scope', '=', 'account'), eb('key', '=', address)]),
      eb.and([eb('scope', '=', 'pair'), eb('key', 'like', `${address.replace(/[\\%_]/g, '\\$&')} %`)]),
    ])).execute()
    return 'recovered'
  })
}

/** What the first start did ({@link FirstStartService.atStart}). */
export type FirstStart =
  | { kind: 'ready' }
  | { kind: 'created'; email: string }
  | { kind: 'taken'; email: string }
  | { kind: 'link'; url: string }

/**
 * The first superuser of an empty database. Three ways in, all only while no superuser exists
 * ({@link hasSuperuser}):
 * - ADMIN_EMAIL and ADMIN_PASSWORD (config/env.ts) create it at start; an existing account is never changed;
 * - else each start logs a setup link `<publicUrl>/setup#<token>` (256 random bits, stored as SHA-256,
 *   one use, {@link SETUP_TTL_MS} on `clock`), opened in the browser: GET/POST /api/setup;
 * - the command line's recovery, {@link makeSuperuser}, at any time.
 * POST /api/setup is public and throttled per IP like sign-in (AUTH.setup: wrong, used or expired tokens).
 */
export function createFirstStartService({ db, clock, auth, publicUrl, demo = null }: { db: Db; clock: Clock; auth: AuthService; publicUrl: string; demo?: DemoSignIn | null }) {
  const perIp = createDbThrottle({ db, now: () => clock.ms(), scope: 'setup', windowMs: AUTH.setup.windowMs, policy: { kind: 'limit', max: AUTH.setup.max } })

  /** A new setup link valid {@link SETUP_TTL_MS}, or null when a superuser exists. */
  async function issueLink(): Promise<string | null> {
    if (await hasSuperuser(db)) return null
    const token = crypto.randomBytes(32).toString('base64url')
    await db.insertInto('setup_tokens').values({ token_hash: sha256(token), expires_at: new Date(clock.ms() + SETUP_TTL_MS), used_at: null }).execute()
    return `${publicUrl}/setup#${token}`
  }

  /** The unused, unexpired token row of `token`, or undefined. */
  async function usable(token: string) {
    const row = await db.selectFrom('setup_tokens').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst()
    return row && !row.used_at && row.expires_at.getTime() > clock.ms() ? row : undefined
  }

  return {
    /** GET /api/setup's `demo`: the demo's accounts and password for the login page (DEMO=on), else null. */
    demo,

    /** GET /api/setup: true while no superuser exists. */
    async needed(): Promise<boolean> {
      return !(await hasSuperuser(db))
    },

    issueLink,

    /**
     * At start (server/app.ts), once per process: with `admin` (ADMIN_EMAIL/ADMIN_PASSWORD, already
     * checked against the SPEC §5 rule by config/env.ts) create that superuser unless a superuser exists
     * ('created', or 'ready'); an existing account of that address is left as it is ('taken'). Without
     * `admin`, while no superuser exists, issue a setup link ('link'); else 'ready'.
     */
    async atStart(admin?: { email: string; password: string }): Promise<FirstStart> {
      if (await hasSuperuser(db)) return { kind: 'ready' }
      if (!admin) {
        const url = await issueLink()
        return url ? { kind: 'link', url } : { kind: 'ready' }
      }
      const email = admin.email.trim().toLowerCase()
      const password_hash = await hashPassword(admin.password)
      return db.transaction().execute(async (tx): Promise<FirstStart> => {
        await sql`select pg_advisory_xact_lock(${FIRST_SUPERUSER_LOCK})`.execute(tx)
        if (await hasSuperuser(tx)) return { kind: 'ready' }
        if (await tx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) return { kind: 'taken', email }
        await tx.insertInto('users').values({ email, password_hash, ...DEFAULT_NAMES, title: null, is_superuser: true, is_active: true,
          deactivation_datetime: null, ietf_lang_tag: DEFAULT_LANG_TAG, last_login: null, previous_login: null }).execute()
        return { kind: 'created', email }
      })
    },

    /**
     * POST /api/setup: create the first superuser with the setup link's token and sign them in (the
     * answer of POST /api/authentication/token/). 403 setupLinkInvalid for an unknown, used or expired
     * token (counted per IP: 429 with Retry-After past AUTH.setup); 409 setupDone once a superuser
     * exists; 400 `{password: [SPEC §5 rule]}` or `{email: [emailTaken]}`. The token is spent only with
     * the account, in one transaction.
     */
    async complete(body: SetupRequest, ip?: string): Promise<TokenResponse> {
      const wait = ip ? await perIp.retryAfter(ip) : 0
      if (wait) throw TooManyRequests(wait)
      const row = await usable(body.token)
      if (!row) {
        if (ip) await perIp.fail(ip)
        throw Forbidden('setupLinkInvalid')
      }
      if (!isStrongPassword(body.password)) throw new Invalid({ password: ['passwordRule'] })
      const email = body.email.trim().toLowerCase()
      const password_hash = await hashPassword(body.password)
      await db.transaction().execute(async (tx) => {
        await sql`select pg_advisory_xact_lock(${FIRST_SUPERUSER_LOCK})`.execute(tx)
        if (await hasSuperuser(tx)) throw new AppError(409, 'setupDone')
        if (await tx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) throw new Invalid({ email: ['emailTaken'] })
        const spent = await tx.updateTable('setup_tokens').set({ used_at: clock.now() }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst()
        if (Number(spent.numUpdatedRows) !== 1) throw Forbidden('setupLinkInvalid')
        await tx.insertInto('users').values({ email, password_hash, first_name: body.first_name, last_name: body.last_name, title: null,
          is_superuser: true, is_active: true, deactivation_datetime: null, ietf_lang_tag: `${body.language}-CH`, last_login: null, previous_login: null }).execute()
      })
      return auth.login(email, body.password, { ip })
    },
  }
}
export type FirstStartService = ReturnType<typeof createFirstStartService>
