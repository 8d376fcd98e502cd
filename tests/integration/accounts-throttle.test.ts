import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { createAuthService } from '../../server/domain/auth/service.ts'
import { PASSWORD, startApp } from './helpers.ts'
import { AT } from './hours.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'

/**
 * Failed sign-in throttling (docs/decisions.md "Auth: sign-in throttling delays, never locks out"): per
 * (account, IP) and per IP limits keep a guesser out; per account only a growing, capped delay, so
 * someone hammering an account cannot lock its owner out. The app trusts 127.0.0.1 as a proxy, so
 * X-Forwarded-For plays the client address.
 */
let app: FastifyInstance
/** The app's clock: moves only when a test advances it, so waits are exact and cost no real time. */
let clock: TestClock
const ATTACKER = '203.0.113.66'
const OWNER = '198.51.100.7'
const ACCOUNT = 'admin@example.com'
beforeAll(async () => {
  clock = createTestClock(new Date(AT.morning))
  ;({ app } = await startApp({ roles: ['api'], trustProxy: ['127.0.0.1'], clock }))
})
beforeEach(async () => {
  await app.domain!.db.deleteFrom('auth_failures').execute()
})
afterAll(async () => {
  await app?.close()
})

const signIn = (ip: string, password: string, email = ACCOUNT, lang = 'en') =>
  request(app.server).post('/api/authentication/token/').set('X-Forwarded-For', ip).set('Accept-Language', lang).send({ email, password })
/** `n` failures recorded `agoMs` ago: of the account alone, or of the account from `ip` (pair and IP too). */
async function failures(n: number, agoMs: number, ip?: string) {
  const at = new Date(app.clock.ms() - agoMs)
  const rows = [{ scope: 'account', key: ACCOUNT }, ...(ip ? [{ scope: 'pair', key: `${ACCOUNT} ${ip}` }, { scope: 'ip', key: ip }] : [])]
  await app.domain!.db.insertInto('auth_failures').values(rows.flatMap((r) => Array.from({ length: n }, () => ({ ...r, at })))).execute()
}

describe('failed sign-in throttling', () => {
  it('an attacker hammering an account does not lock its owner out', async () => {
    const answers = []
    for (let i = 0; i < 20; i++) answers.push((await signIn(ATTACKER, 'guess' + i)).status)
    // 5 guesses reach the password check at once; then the waits double (1 s, 2 s, 4 s …) and the clock
    // stands still, so every further guess is told to wait.
    expect(answers.filter((s) => s === 401)).toHaveLength(5)
    expect(answers.filter((s) => s === 429)).toHaveLength(15)
    // The owner, from elsewhere, is told to wait the account's delay: seconds at most, then signs in.
    const told = await signIn(OWNER, PASSWORD)
    expect(told.status).toBe(429)
    const wait = Number(told.headers['retry-after'])
    expect(wait).toBeLessThanOrEqual(30)
    await clock.advance(wait * 1000 - 1000)
    expect((await signIn(OWNER, PASSWORD)).status, 'a second before the wait is over').toBe(429)
    await clock.advance(1000)
    const owner = await signIn(OWNER, PASSWORD)
    expect(owner.status).toBe(200)
  })

  it('100 failures of the last hour from one IP leave the owner free after at most 30 s', async () => {
    await failures(100, 31_000, ATTACKER)
    await signIn(OWNER, PASSWORD).expect(200)
  })

  it('delays grow with the account\'s failures, capped at 30 s, answered as 429 with Retry-After and the SPEC message', async () => {
    const waits: number[] = []
    for (const n of [4, 5, 6, 8, 10, 40]) {
      await app.domain!.db.deleteFrom('auth_failures').execute()
      await failures(n, 0)
      const r = await signIn(OWNER, 'wrong')
      waits.push(r.status === 429 ? Number(r.headers['retry-after']) : 0)
      if (n === 40) expect(r.body.detail).toMatch(/Too many failed sign-in attempts/)
    }
    expect(waits).toEqual([0, 1, 2, 8, 30, 30])
    const de = await signIn(OWNER, PASSWORD, ACCOUNT, 'de').expect(429)
    expect(de.body.detail).toMatch(/Zu viele fehlgeschlagene Anmeldeversuche/)
  })

  it('blocks an account from one IP after 10 failures in 15 minutes, while the owner gets in', async () => {
    await failures(10, 5 * 60_000, ATTACKER)
    const blocked = await signIn(ATTACKER, PASSWORD).expect(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(590)
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(600)
    await signIn(OWNER, PASSWORD).expect(200)
    // The owner's success does not free the attacker.
    await signIn(ATTACKER, PASSWORD).expect(429)
    // Kept in the database: a fresh service (a restart, another process) still refuses.
    const restarted = createAuthService({ db: app.domain!.db, clock: app.domain!.clock, secret: new TextEncoder().encode('x'.repeat(32)) })
    await expect(restarted.login(ACCOUNT, PASSWORD, { ip: ATTACKER })).rejects.toMatchObject({ status: 429 })
    // Past the window the pair may try again.
    await app.domain!.db.updateTable('auth_failures').set({ at: new Date(app.clock.ms() - 16 * 60_000) }).execute()
    await signIn(ATTACKER, PASSWORD).expect(200)
  })

  it('blocks an IP after 100 failures in an hour across accounts, other IPs unaffected', async () => {
    const db = app.domain!.db
    await db.insertInto('auth_failures').values(Array.from({ length: 100 }, (_, i) => ({ scope: 'ip', key: ATTACKER, at: new Date(app.clock.ms() - 60_000 - i) }))).execute()
    await signIn(ATTACKER, PASSWORD, 'user@example.com').expect(429)
    await signIn(OWNER, PASSWORD, 'user@example.com').expect(200)
  })

  it('a successful sign-in clears the account\'s delay and that IP\'s failures for the account', async () => {
    await signIn(OWNER, 'wrong').expect(401)
    await signIn(OWNER, PASSWORD).expect(200)
    const left = await app.domain!.db.selectFrom('auth_failures').select('scope').where('scope', 'in', ['account', 'pair']).execute()
    expect(left).toHaveLength(0)
  })

  it('a browser that signed in before (device cookie) is exempt from the account-wide delay four attackers cause', async () => {
    const first = await signIn(OWNER, PASSWORD).expect(200)
    const cookie = String(first.headers['set-cookie']).split(';')[0]
    expect(cookie).toMatch(/^cockpit_device=/)
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly/)
    for (let i = 0; i < 20; i++) await signIn(`203.0.113.${10 + (i % 4)}`, 'guess' + i)
    // A browser without the cookie waits the account's delay; the owner's browser signs in at once.
    await signIn('192.0.2.99', PASSWORD).expect(429)
    for (let i = 0; i < 5; i++) await signIn(OWNER, PASSWORD).set('Cookie', cookie).expect(200)
    // A cookie of another account is no cookie.
    const other = String((await signIn(OWNER, PASSWORD, 'user@example.com').expect(200)).headers['set-cookie']).split(';')[0]
    await signIn(OWNER, PASSWORD).set('Cookie', other).expect(429)
  })

  it('a known device is limited on its own: 10 wrong passwords in 15 minutes, then 429', async () => {
    const cookie = String((await signIn(OWNER, PASSWORD).expect(200)).headers['set-cookie']).split(';')[0]
    for (let i = 0; i < 10; i++) await signIn(OWNER, 'wrong' + i).set('Cookie', cookie).expect(401)
    await signIn(OWNER, PASSWORD).set('Cookie', cookie).expect(429)
  })

  it('a NAT\'d office blocked per IP still admits the correct password from a known device', async () => {
    const cookie = String((await signIn(ATTACKER, PASSWORD, 'user@example.com').expect(200)).headers['set-cookie']).split(';')[0]
    await app.domain!.db.insertInto('auth_failures').values(Array.from({ length: 100 }, (_, i) => ({ scope: 'ip', key: ATTACKER, at: new Date(app.clock.ms() - 60_000 - i) }))).execute()
    await signIn(ATTACKER, PASSWORD, 'user@example.com').expect(429)
    await signIn(ATTACKER, PASSWORD, 'user@example.com').set('Cookie', cookie).expect(200)
  })

  it('counts IPv6 addresses per /64: a guesser rotating addresses in its network is still one IP', async () => {
    for (let i = 1; i <= 10; i++) {
      await signIn(`2001:db8:0:1::${i.toString(16)}`, 'guess' + i).expect(401)
      // Past the account's delay (at most 30 s), so only the per-IP-and-account limit speaks.
      await clock.advance(31_000)
    }
    await signIn('2001:db8:0:1:ffff:ffff:ffff:fffe', PASSWORD).expect(429)
    await signIn('2001:db8:0:2::1', PASSWORD).expect(200)
  })
})
