import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { auth, startWithTokens } from './helpers.ts'

/** Shortcuts (SPEC §2, §7, §8): personal pins of app paths per installation. */
let env: Awaited<ReturnType<typeof startWithTokens>>
beforeAll(async () => {
  env = await startWithTokens(['api'])
})
afterAll(async () => env?.app.close())

const api = () => request(env.app.server)
const base = (installationId: number | string) => `/api/cockpit/installations/${installationId}/shortcuts/`

describe('shortcuts', () => {
  it('a resident pins a chart with its period, lists, opens and removes it, with SPEC §8 messages', async () => {
    const url = '/facility/1/charts?kind=power&period=week&date=2026-11-16'
    const created = await api().post(base(1)).set(auth(env.tokens.user)).send({ name: 'Power, this week', url }).expect(201)
    expect(created.body).toMatchObject({ name: 'Power, this week', url, installation_id: 1, detail: 'The shortcut has been added.' })
    const list = await api().get(base(1)).set(auth(env.tokens.user)).expect(200)
    expect(list.body.results.map((s: { url: string }) => s.url)).toEqual([url])
    await api().get(`${base(1)}${created.body.id}/`).set(auth(env.tokens.user)).expect(200)
    // The same path again: the existing shortcut, renamed, no duplicate.
    const again = await api().post(base(1)).set(auth(env.tokens.user)).send({ name: 'Weekly power', url }).expect(200)
    expect(again.body).toMatchObject({ id: created.body.id, name: 'Weekly power' })
    expect((await api().get(base(1)).set(auth(env.tokens.user)).expect(200)).body.count).toBe(1)
    const removed = await api().delete(`${base(1)}${created.body.id}/`).set(auth(env.tokens.user)).set('accept-language', 'fr').expect(200)
    expect(removed.body.detail).toBe('Le raccourci a été supprimé.')
    await api().get(`${base(1)}${created.body.id}/`).set(auth(env.tokens.user)).expect(404)
  })

  it('accepts only paths of this app: "/" first, no scheme, no "//", no backslash', async () => {
    for (const url of ['https://evil.example/x', '//evil.example/x', 'facility/1', '/\\evil.example', 'javascript:alert(1)', '/javascript:alert(1)', '/a b', '']) {
      const r = await api().post(base(1)).set(auth(env.tokens.user)).send({ name: 'x', url }).expect(400)
      expect(Object.keys(r.body)).toEqual(['url'])
    }
    const r = await api().post(base(1)).set(auth(env.tokens.user)).send({ url: '/facility/1/power' }).expect(400)
    expect(r.body).toEqual({ name: ['The field is required.'] })
  })

  it('is personal: nobody else lists, opens or deletes it, superusers included; no other installation', async () => {
    const mine = (await api().post(base(1)).set(auth(env.tokens.user)).send({ name: 'Station 2', url: '/facility/1/power/stations/2' }).expect(201)).body
    for (const who of ['admin', 'super'] as const) {
      expect((await api().get(base(1)).set(auth(env.tokens[who])).expect(200)).body.results.map((s: { id: number }) => s.id)).not.toContain(mine.id)
      await api().get(`${base(1)}${mine.id}/`).set(auth(env.tokens[who])).expect(404)
      await api().delete(`${base(1)}${mine.id}/`).set(auth(env.tokens[who])).expect(404)
    }
    // The other installation's admin: no role in installation 1, and the id under their own installation is not theirs.
    await api().get(base(1)).set(auth(env.tokens.bern)).expect(403)
    await api().post(base(1)).set(auth(env.tokens.bern)).send({ name: 'x', url: '/facility/1/power' }).expect(403)
    await api().get(`${base(env.other.installationId)}${mine.id}/`).set(auth(env.tokens.bern)).expect(404)
    await api().delete(`${base(env.other.installationId)}${mine.id}/`).set(auth(env.tokens.bern)).expect(404)
    // The resident has no role in the other installation.
    await api().post(base(env.other.installationId)).set(auth(env.tokens.user)).send({ name: 'x', url: '/facility/1/power' }).expect(403)
    await api().get(`${base(env.other.installationId)}${mine.id}/`).set(auth(env.tokens.user)).expect(403)
    await api().get(base(1)).expect(401)
    // Still there for its owner.
    await api().get(`${base(1)}${mine.id}/`).set(auth(env.tokens.user)).expect(200)
  })
})
