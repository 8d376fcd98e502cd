import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { createMailJob } from '../../server/jobs/mail-outbox.ts'
import { sql } from 'kysely'
import { auth, login, PASSWORD, startApp, captureSmtp, decodeQp } from './helpers.ts'

const smtp = captureSmtp()
const received = smtp.received

const tokenIn = (raw: string) => /\/login\/reset\?token=([A-Za-z0-9_-]+)/.exec(decodeQp(raw))?.[1]

let app: FastifyInstance
let job: ReturnType<typeof createMailJob>
beforeAll(async () => {
  const smtpUrl = await smtp.listen()
  ;({ app } = await startApp({ roles: ['api'] }))
  job = createMailJob({ domain: app.domain!, smtpUrl, from: 'Cockpit <no-reply@cockpit.local>', log: app.log })
})
afterAll(async () => {
  job?.close()
  await app?.close()
  await smtp.close()
})

const api = () => request(app.server)
/** Send the outbox once the reset requests made so far have done their work (it runs after the answer). */
async function sendOutbox() {
  await app.domain!.passwordReset.settled()
  await job.runOnce()
}
const SPEC_TEXT = 'If you have entered the correct email address, you will soon receive an email with further instructions.'

/** Request a reset for `email`, send the outbox through SMTP and return the token from the mail. */
async function resetToken(email: string): Promise<string> {
  const before = received.length
  await api().post('/api/password-reset/').send({ email }).expect(200)
  await sendOutbox()
  const mail = received.slice(before).find((m) => m.to === email)
  expect(mail, `a reset mail to ${email}`).toBeDefined()
  return tokenIn(mail!.raw)!
}

describe('password reset request', () => {
  it('answers the same status, body and about the same time whether or not the address exists', async () => {
    // Timed as an attacker would: several requests of each, interleaved, compared by their medians
    // (one pair of requests on a busy machine differs by more than the answer's own delay).
    const timed = async (email: string) => {
      const t0 = performance.now()
      const res = await api().post('/api/password-reset/').send({ email })
      return { res, ms: performance.now() - t0 }
    }
    const known: number[] = []
    const unknown: number[] = []
    // Five accounts of their own, so no address reaches its mails-per-hour limit here.
    for (let i = 0; i < 5; i++) await app.domain!.db.insertInto('users').values({ email: `timing${i}@example.com`, password_hash: 'x', first_name: 'T', last_name: `${i}`, title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'en', last_login: null, previous_login: null }).execute()
    for (let i = 0; i < 5; i++) {
      const a = await timed(`timing${i}@example.com`)
      const b = await timed(`nobody${i}@example.com`)
      expect(a.res.status).toBe(200)
      expect(b.res.status).toBe(200)
      expect(a.res.body).toEqual(b.res.body)
      expect(a.res.body.detail).toBe(SPEC_TEXT)
      known.push(a.ms)
      unknown.push(b.ms)
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(150)
    const de = await api().post('/api/password-reset/').set('Accept-Language', 'de-CH').send({ email: 'nobody@example.com' }).expect(200)
    expect(de.body.detail).toBe('Wenn Sie die richtige E-Mail-Adresse eingegeben haben, erhalten Sie in Kürze eine E-Mail mit weiteren Anweisungen.')
  })

  it('answers a known and an unknown address alike while the work cannot run at all: the answer does not wait for it', async () => {
    await sendOutbox()
    const before = received.length
    // Hold the token and outbox tables locked: a request that waited for its look-up, token and mail could
    // not answer until they are released, which happens only after both answers came.
    let release!: () => void
    const released = new Promise<void>((r) => (release = r))
    let locked!: () => void
    const isLocked = new Promise<void>((r) => (locked = r))
    const holder = app.domain!.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE password_reset_tokens, mail_outbox IN ACCESS EXCLUSIVE MODE`.execute(trx)
      locked()
      await released
    })
    try {
      await isLocked
      const known = await api().post('/api/password-reset/').send({ email: 'user@example.com' })
      const unknown = await api().post('/api/password-reset/').send({ email: 'nobody-locked@example.com' })
      expect([known.status, unknown.status]).toEqual([200, 200])
      expect(known.body).toEqual(unknown.body)
      expect(known.body.detail).toBe(SPEC_TEXT)
      expect(Object.keys(known.headers).filter((h) => h !== 'date' && h !== 'x-request-id').map((h) => [h, known.headers[h]]))
        .toEqual(Object.keys(unknown.headers).filter((h) => h !== 'date' && h !== 'x-request-id').map((h) => [h, unknown.headers[h]]))
    } finally {
      release()
      await holder
    }
    // Released, the work is done after all: the known address gets its mail, the unknown one none.
    await sendOutbox()
    expect(received.slice(before).map((m) => m.to)).toEqual(['user@example.com'])
  })

  it('mails a link only to an existing account, in its language, as text and HTML', async () => {
    await sendOutbox()
    const before = received.length
    await api().post('/api/password-reset/').send({ email: 'NOBODY-else@example.com' }).expect(200)
    await api().post('/api/password-reset/').send({ email: ' User@Example.com ' }).expect(200)
    await sendOutbox()
    const mails = received.slice(before)
    expect(mails.map((m) => m.to)).toEqual(['user@example.com'])
    const raw = decodeQp(mails[0].raw)
    expect(raw).toContain('text/plain')
    expect(raw).toContain('text/html')
    expect(tokenIn(mails[0].raw)).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('writes the mail in the user\'s language (de)', async () => {
    await app.domain!.db.updateTable('users').set({ ietf_lang_tag: 'de-CH' }).where('email', '=', 'admin@example.com').execute()
    const before = received.length
    await api().post('/api/password-reset/').send({ email: 'admin@example.com' }).expect(200)
    await sendOutbox()
    const raw = decodeQp(received.slice(before)[0].raw)
    expect(raw).toMatch(/Neues Passwort erstellen/)
  })

  it('answers 400 in the SPEC wording for a missing or invalid address, in the caller\'s language', async () => {
    const r = await api().post('/api/password-reset/').send({}).expect(400)
    expect(r.body).toEqual({ email: ['The field is required.'] })
    const de = await api().post('/api/password-reset/').set('Accept-Language', 'de').send({ email: 'no-at-sign' }).expect(400)
    expect(de.body).toEqual({ email: ['Das Feld ist keine gültige E-Mail-Adresse'] })
  })

  it('POST /users/password-reset/ needs an installation and puts it in the link', async () => {
    const r = await api().post('/api/users/password-reset/').send({ email: 'user@example.com' }).expect(400)
    expect(r.body).toEqual({ detail: 'No installationId' })
    const before = received.length
    const ok = await api().post('/api/users/password-reset/?installation=1').send({ email: 'user@example.com' }).expect(200)
    expect(ok.body.detail).toBe(SPEC_TEXT)
    await sendOutbox()
    expect(decodeQp(received.slice(before)[0].raw)).toMatch(/\/login\/reset\?token=[A-Za-z0-9_-]+&installation=1/)
  })
})

describe('password reset token', () => {
  it('is stored only as a hash', async () => {
    const token = await resetToken('super@example.com')
    const rows = await app.domain!.db.selectFrom('password_reset_tokens').select('token_hash').execute()
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((r) => r.token_hash === token)).toBe(false)
  })

  it('validate_token is true only for a usable token; confirm sets the password once and ends other sessions', async () => {
    const oldSession = await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: PASSWORD }).expect(200)
    const token = await resetToken('user@example.com')
    expect((await api().post('/api/password-reset/validate_token/').send({ token }).expect(200)).body).toEqual({ status: 'OK' })
    const bad = await api().post('/api/password-reset/validate_token/').send({ token: token.slice(0, -2) + 'xx' }).expect(404)
    expect(bad.body.detail).toBe('The link has expired. Please create a new link')

    // SPEC §5 rule and matching repeat, in en and de; the token stays usable after a refused password.
    const weak = await api().post('/api/password-reset/confirm/').send({ token, password: 'short1!' }).expect(400)
    expect(weak.body).toEqual({ password: ['The password must be at least 8 characters long and contain a number and a symbol.'] })
    const weakDe = await api().post('/api/password-reset/confirm/').set('Accept-Language', 'de').send({ token, password: 'nosymbol123' }).expect(400)
    expect(weakDe.body.password[0]).toMatch(/mindestens 8 Zeichen/)
    const mismatch = await api().post('/api/password-reset/confirm/').send({ token, password: 'Neues-Pass-1', password_confirm: 'Neues-Pass-2' }).expect(400)
    expect(mismatch.body).toEqual({ password_confirm: ['The entered passwords do not match'] })
    const mismatchDe = await api().post('/api/password-reset/confirm/').set('Accept-Language', 'de').send({ token, password: 'Neues-Pass-1', password_confirm: 'x' }).expect(400)
    expect(mismatchDe.body).toEqual({ password_confirm: ['Die eingegebenen Passwörter stimmen nicht überein'] })

    await api().post('/api/password-reset/confirm/').send({ token, password: 'Neues-Pass-1', password_confirm: 'Neues-Pass-1' }).expect(200)
    // Single use.
    await api().post('/api/password-reset/validate_token/').send({ token }).expect(404)
    await api().post('/api/password-reset/confirm/').send({ token, password: 'Other-Pass-2' }).expect(404)
    // The old password is gone, the new one works, and the session from before the reset has ended.
    await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: PASSWORD }).expect(401)
    const fresh = await login(app, 'user@example.com', 'Neues-Pass-1')
    await api().get('/api/users/' + (await app.domain!.auth.verify(fresh)).id + '/').set(auth(fresh)).expect(200)
    await api().post('/api/authentication/token/refresh/').send({ refresh: oldSession.body.refresh }).expect(401)
  })

  it('expires after 60 minutes', async () => {
    const token = await resetToken('admin@example.com')
    await app.domain!.db.updateTable('password_reset_tokens').set({ expires_at: new Date(app.clock.ms() - 1000) }).where('used_at', 'is', null).execute()
    await api().post('/api/password-reset/validate_token/').send({ token }).expect(404)
    const r = await api().post('/api/password-reset/confirm/').set('Accept-Language', 'de').send({ token, password: 'Neues-Pass-1' }).expect(404)
    expect(r.body.detail).toBe('Der Link ist abgelaufen. Bitte fordern Sie einen neuen Link an')
  })

  it('is not usable for a deactivated account, and a deactivated account gets no mail', async () => {
    const token = await resetToken('super@example.com')
    await app.domain!.db.updateTable('users').set({ is_active: false }).where('email', '=', 'super@example.com').execute()
    await api().post('/api/password-reset/validate_token/').send({ token }).expect(404)
    const before = received.length
    await api().post('/api/password-reset/').send({ email: 'super@example.com' }).expect(200)
    await sendOutbox()
    expect(received.length).toBe(before)
    await app.domain!.db.updateTable('users').set({ is_active: true }).where('email', '=', 'super@example.com').execute()
  })

  it('sends at most 5 reset mails per address and hour, with the same answer', async () => {
    const email = 'bulk@example.com'
    await app.domain!.db.insertInto('users').values({ email, password_hash: 'x', first_name: 'B', last_name: 'K', title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'en', last_login: null, previous_login: null }).execute()
    const before = received.length
    for (let i = 0; i < 7; i++) expect((await api().post('/api/password-reset/').send({ email })).body.detail).toBe(SPEC_TEXT)
    await sendOutbox()
    expect(received.slice(before).filter((m) => m.to === email)).toHaveLength(5)
  })
})
