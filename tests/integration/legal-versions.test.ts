import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, login, startWithTokens, type RoleTokens } from './helpers.ts'

/**
 * Legal texts: terms and privacy policy readable before "Accept" (public, in the four
 * languages), versioned, published by superusers; a new version asks everyone to accept again.
 */
let app: FastifyInstance
let tokens: RoleTokens
const api = () => request(app.server)
const texts = { en: 'Terms v2 in English', de: 'Bedingungen v2 auf Deutsch', fr: 'Conditions v2 en français', it: 'Condizioni v2 in italiano' }

beforeAll(async () => {
  ;({ app, tokens } = await startWithTokens(['api']))
})
afterAll(async () => app?.close())

describe('legal texts and versions', () => {
  it('records that the demo accounts accepted the texts current when the demo was seeded (no reminder on a fresh demo)', async () => {
    // The client's reminder banner lists the documents whose accepted_at is null (client/app/legal-reminder.tsx).
    for (const token of [tokens.admin, tokens.user, tokens.super, await login(app, 'admin2@example.com')]) {
      const r = await api().get('/api/cockpit/legal').set(auth(token)).expect(200)
      expect(r.body.map((d: { document: string; version: string }) => `${d.document} ${d.version}`)).toEqual(['terms 2025-04-01', 'privacy 2025-04-01'])
      expect(r.body.filter((d: { accepted_at: string | null }) => d.accepted_at === null)).toEqual([])
    }
    // An account made later (not a demo account) has accepted nothing.
    expect((await api().get('/api/cockpit/legal').set(auth(tokens.bern)).expect(200)).body.every((d: { accepted_at: string | null }) => d.accepted_at === null)).toBe(true)
  })

  it('lets anyone read the current texts in their language before signing in', async () => {
    for (const [lang, start] of [['en', 'Terms of use of the Cockpit portal'], ['de', 'Nutzungsbedingungen des Cockpit-Portals'], ['fr', "Conditions d'utilisation du portail Cockpit"], ['it', "Condizioni d'uso del portale Cockpit"]]) {
      const r = await api().get('/api/cockpit/legal/texts').set('Accept-Language', lang).expect(200)
      expect(r.body.map((d: { document: string }) => d.document)).toEqual(['terms', 'privacy'])
      expect(r.body[0]).toMatchObject({ version: '2025-04-01', published_at: '2025-04-01T00:00:00.000Z' })
      expect(r.body[0].text.startsWith(start)).toBe(true)
      expect(r.body[1].text.length).toBeGreaterThan(200)
    }
  })

  it('lets only superusers see versions and publish one', async () => {
    const body = { document: 'terms', version: '2026-12-01', texts }
    await api().post('/api/cockpit/legal/versions').send(body).expect(401)
    await api().post('/api/cockpit/legal/versions').set(auth(tokens.admin)).send(body).expect(403)
    await api().post('/api/cockpit/legal/versions').set(auth(tokens.user)).send(body).expect(403)
    await api().post('/api/cockpit/legal/versions').set(auth(tokens.bern)).send(body).expect(403)
    await api().get('/api/cockpit/legal/versions').set(auth(tokens.admin)).expect(403)
    // Every language is required.
    const missing = await api().post('/api/cockpit/legal/versions').set(auth(tokens.super)).send({ ...body, texts: { ...texts, it: '' } }).expect(400)
    expect(missing.body['texts.it']).toEqual(['The field is required.'])
    await api().post('/api/cockpit/legal/versions').set(auth(tokens.super)).send({ ...body, document: 'cookies' }).expect(400)
    // Nothing was published by the refused calls.
    expect((await api().get('/api/cockpit/legal/texts').expect(200)).body[0].version).toBe('2025-04-01')
  })

  it('asks everyone to accept again after a superuser publishes a new version', async () => {
    // The resident accepts the current terms.
    const accepted = await api().post('/api/cockpit/legal').set(auth(tokens.user)).send({ document: 'terms', version: '2025-04-01' }).expect(200)
    expect(accepted.body[0].accepted_at).not.toBeNull()

    const published = await api().post('/api/cockpit/legal/versions').set(auth(tokens.super)).send({ document: 'terms', version: '2026-12-01', texts }).expect(201)
    expect(published.body).toMatchObject({ document: 'terms', version: '2026-12-01', texts, published_by: 'super@example.com' })
    await api().post('/api/cockpit/legal/versions').set(auth(tokens.super)).send({ document: 'terms', version: '2026-12-01', texts }).expect(400)

    // On their next sign-in the resident's terms are not accepted: the new version, its text in their language.
    const again = await login(app, 'user@example.com')
    const status = await api().get('/api/cockpit/legal').set(auth(again)).set('Accept-Language', 'fr').expect(200)
    expect(status.body[0]).toMatchObject({ document: 'terms', version: '2026-12-01', text: 'Conditions v2 en français', accepted_at: null })
    // The old version can no longer be accepted; the new one can.
    await api().post('/api/cockpit/legal').set(auth(again)).send({ document: 'terms', version: '2025-04-01' }).expect(404)
    const ok = await api().post('/api/cockpit/legal').set(auth(again)).send({ document: 'terms', version: '2026-12-01' }).expect(200)
    expect(ok.body[0].accepted_at).not.toBeNull()
    // The privacy policy was not touched.
    expect(ok.body[1].version).toBe('2025-04-01')

    const versions = await api().get('/api/cockpit/legal/versions').set(auth(tokens.super)).expect(200)
    expect(versions.body.map((v: { document: string; version: string }) => `${v.document} ${v.version}`)).toEqual(['terms 2026-12-01', 'terms 2025-04-01', 'privacy 2025-04-01'])
    expect((await api().get('/api/cockpit/legal/texts').set('Accept-Language', 'it').expect(200)).body[0].text).toBe('Condizioni v2 in italiano')
  })

  it('asks the demo admin again once a new version is published, like everyone', async () => {
    const before = await api().get('/api/cockpit/legal').set(auth(tokens.admin)).expect(200)
    expect(before.body[1]).toMatchObject({ document: 'privacy', version: '2025-04-01' })
    expect(before.body[1].accepted_at).not.toBeNull()
    await api().post('/api/cockpit/legal/versions').set(auth(tokens.super)).send({ document: 'privacy', version: '2026-12-02', texts }).expect(201)
    const after = await api().get('/api/cockpit/legal').set(auth(tokens.admin)).expect(200)
    expect(after.body[1]).toMatchObject({ document: 'privacy', version: '2026-12-02', accepted_at: null })
    // The terms published in the test before are not accepted by the admin either: both are listed.
    expect(after.body.filter((d: { accepted_at: string | null }) => d.accepted_at === null).map((d: { document: string }) => d.document)).toEqual(['terms', 'privacy'])
  })
})
