import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, login, PASSWORD, startWithTokens, type RoleTokens } from './helpers.ts'

/**
 * Creating a user whose address has an account elsewhere (docs/decisions.md "Accounts: creating a user whose
 * address has an account elsewhere"): the admin of the other installation ("Other Site Bern") gets the
 * answer a new address gets and learns nothing of installation 1's accounts; the person gets an invitation
 * by mail and joins only by following it.
 */
let app: FastifyInstance
let tokens: RoleTokens
let bern: number
const api = () => request(app.server)
const create = (token: string, installation: number, body: Record<string, unknown>) =>
  api().post('/api/users/create/').set(auth(token)).set('installation-id', String(installation)).send(body)
const person = (email: string) => ({ email, first_name: 'Ines', last_name: 'Inv', title: 'ms', role: 'installation_user', city: 'Bern', ietf_lang_tag: 'de-CH' })
const mailsTo = (to: string) => app.domain!.db.selectFrom('mail_outbox').select(['kind', 'subject', 'body_text']).where('recipient', '=', to).orderBy('id').execute()
const membershipsOf = async (email: string) =>
  (await app.domain!.db.selectFrom('installation_users').innerJoin('users', 'users.id', 'installation_users.user_id')
    .select(['installation_id', 'role']).where('users.email', '=', email).orderBy('installation_id').execute())

beforeAll(async () => {
  let other: { installationId: number }
  ;({ app, tokens, other } = await startWithTokens(['api']))
  bern = other.installationId
})
afterAll(async () => app?.close())

describe('an admin creates a user whose address has an account in another installation', () => {
  it('answers as for a new address: the same status and fields, the admin\'s own input, a new id', async () => {
    const fresh = await create(tokens.bern, bern, person('brand.new@example.com')).expect(201)
    const existing = await create(tokens.bern, bern, person('User@Example.com')).expect(201)
    const { id: a, email: ea, ...restNew } = fresh.body
    const { id: b, email: eb, ...restExisting } = existing.body
    expect(restExisting).toEqual(restNew)
    expect([ea, eb]).toEqual(['brand.new@example.com', 'user@example.com'])
    expect(b).toBeGreaterThan(a)
    // Nothing of the resident's account shows: not her names, not her last login.
    expect(existing.body).toMatchObject({ first_name: 'Ines', last_name: 'Inv', city: 'Bern', last_login: null, installations: [{ id: bern, role: 'installation_user' }] })
    // Nor does an error in any language.
    await create(tokens.bern, bern, person('user@example.com')).set('Accept-Language', 'de').expect(201)
  })

  it('adds her nowhere and shows her nowhere until she accepts the mailed invitation', async () => {
    expect(await membershipsOf('user@example.com')).toEqual([{ installation_id: 1, role: 'installation_user' }])
    const list = await api().get(`/api/cockpit/users/installation/${bern}`).set(auth(tokens.bern)).expect(200)
    expect(list.body.map((u: { email: string }) => u.email)).not.toContain('user@example.com')
    const mails = (await mailsTo('user@example.com')).filter((m) => m.kind === 'invitation')
    // Two invitations (the test above created her twice), in her language, naming the inviting installation.
    expect(mails).toHaveLength(2)
    expect(mails[0].subject).toContain('Other Site Bern')
    const token = /token=([A-Za-z0-9_-]+)/.exec(mails[0].body_text)![1]
    const accepted = await api().post('/api/users/invitation/accept/').send({ token }).expect(200)
    expect(accepted.body).toMatchObject({ status: 'OK', installation_id: bern, installation_name: 'Other Site Bern' })
    expect(await membershipsOf('user@example.com')).toEqual([{ installation_id: 1, role: 'installation_user' }, { installation_id: bern, role: 'installation_user' }])
    // Her password and her membership in installation 1 are as they were.
    await login(app, 'user@example.com', PASSWORD)
    // Single use: the same link again is SPEC §8's expired link, in the caller's language.
    const again = await api().post('/api/users/invitation/accept/').set('Accept-Language', 'fr').send({ token }).expect(404)
    expect(again.body).toEqual({ detail: 'Le lien a expiré. Veuillez créer un nouveau lien' })
    await api().post('/api/users/invitation/accept/').send({ token: 'x'.repeat(43) }).expect(404)
    await api().post('/api/users/invitation/accept/').send({}).expect(400)
  })

  it('still refuses an address the admin reaches already (a member of their installation), with the SPEC wording', async () => {
    const r = await create(tokens.admin, 1, person('user@example.com')).expect(400)
    expect(r.body).toEqual({ email: ['This e-mail address is already used by another account.'] })
    // A superuser reaches every account: a clear 400, no invitation.
    await create(tokens.super, bern, person('admin@example.com')).expect(400)
    expect((await mailsTo('admin@example.com')).filter((m) => m.kind === 'invitation')).toEqual([])
  })

  it('a resident cannot create users in either installation', async () => {
    await create(tokens.user, 1, person('admin@example.com')).expect(403)
    await create(tokens.user, bern, person('admin@example.com')).expect(403)
    await create(tokens.admin, bern, person('bern-admin@example.com')).expect(403)
  })
})

describe('pending invitations: the inviting installation\'s admins list, resend and withdraw them', () => {
  const pending = (token: string, installation: number) => api().get('/api/cockpit/users/invitations/').set(auth(token)).set('installation-id', String(installation))
  const linkIn = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)![1]
  const lastInvitationTo = async (to: string) => (await mailsTo(to)).filter((m) => m.kind === 'invitation').at(-1)!

  it('lists the address the admin typed, the role, when sent and until when; only to that installation\'s admins and superusers', async () => {
    await create(tokens.bern, bern, { ...person('Admin@Example.com'), role: 'installation_admin' }).expect(201)
    const list = await pending(tokens.bern, bern).expect(200)
    const mine = list.body.find((i: { email: string }) => i.email === 'admin@example.com')
    expect(mine).toMatchObject({ role: 'installation_admin', expired: false })
    expect(Date.parse(mine.expires_at) - Date.parse(mine.sent_at)).toBe(7 * 24 * 3600_000)
    // Accepted invitations are not pending (user@example.com accepted one above; the second is still pending).
    expect(list.body.filter((i: { email: string }) => i.email === 'user@example.com')).toHaveLength(1)
    await pending(tokens.super, bern).expect(200)
    await pending(tokens.admin, bern).expect(403)
    await pending(tokens.user, bern).expect(403)
    await pending(tokens.bern, 1).expect(403)
    expect((await pending(tokens.admin, 1).expect(200)).body.map((i: { email: string }) => i.email)).not.toContain('admin@example.com')
    await pending(tokens.bern, 99999).expect(404)
    await api().get('/api/cockpit/users/invitations/').set(auth(tokens.bern)).expect(400)
    await api().get('/api/cockpit/users/invitations/').set('installation-id', String(bern)).expect(401)
  })

  it('resend: a new link and a new mail, the previous link void; withdraw: the link void and the invitation gone', async () => {
    const id = (await pending(tokens.bern, bern).expect(200)).body.find((i: { email: string }) => i.email === 'admin@example.com').id as number
    const first = linkIn((await lastInvitationTo('admin@example.com')).body_text)
    // Another installation's admin, a resident, or the right admin naming another installation: nothing happens.
    await api().post(`/api/cockpit/users/invitations/${id}/resend`).set(auth(tokens.admin)).set('installation-id', '1').expect(404)
    await api().post(`/api/cockpit/users/invitations/${id}/resend`).set(auth(tokens.admin)).set('installation-id', String(bern)).expect(403)
    await api().post(`/api/cockpit/users/invitations/${id}/resend`).set(auth(tokens.user)).set('installation-id', '1').expect(403)
    await api().delete(`/api/cockpit/users/invitations/${id}`).set(auth(tokens.admin)).set('installation-id', '1').expect(404)
    await api().delete(`/api/cockpit/users/invitations/${id}`).set(auth(tokens.bern)).set('installation-id', '1').expect(403)
    expect(linkIn((await lastInvitationTo('admin@example.com')).body_text)).toBe(first)

    const resent = await api().post(`/api/cockpit/users/invitations/${id}/resend`).set(auth(tokens.bern)).set('installation-id', String(bern)).expect(200)
    expect(resent.body).toMatchObject({ id, email: 'admin@example.com', role: 'installation_admin', expired: false })
    const second = linkIn((await lastInvitationTo('admin@example.com')).body_text)
    expect(second).not.toBe(first)
    await api().post('/api/users/invitation/accept/').send({ token: first }).expect(404)

    await api().delete(`/api/cockpit/users/invitations/${id}`).set(auth(tokens.bern)).set('installation-id', String(bern)).expect(204)
    await api().post('/api/users/invitation/accept/').send({ token: second }).expect(404)
    await api().delete(`/api/cockpit/users/invitations/${id}`).set(auth(tokens.bern)).set('installation-id', String(bern)).expect(404)
    await api().post(`/api/cockpit/users/invitations/${id}/resend`).set(auth(tokens.bern)).set('installation-id', String(bern)).expect(404)
    expect((await pending(tokens.bern, bern).expect(200)).body.map((i: { id: number }) => i.id)).not.toContain(id)
    expect(await membershipsOf('admin@example.com')).toEqual([{ installation_id: 1, role: 'installation_admin' }])
  })
})
