import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

let app: FastifyInstance
let tokens: RoleTokens
let demoId: number
let bernId: number

beforeAll(async () => {
  const started = await startWithTokens()
  ;({ app, tokens } = started)
  bernId = started.other.installationId
  demoId = started.demoInstallationId
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const objects = (id: number) => `/api/cockpit/installations/${id}/objects/`
const create = (token: string, installationId: number, body: object) => api().post(objects(installationId)).set(auth(token)).send(body)

describe('the object tree (SPEC §3): create, move, delete when empty', () => {
  let building: number
  let stairs: number
  let flat: number

  it('an admin builds a building with a staircase and a flat; the tree shows them', async () => {
    const b = await create(tokens.admin, demoId, { description: 'Haus Nord', parent_object_id: null, object_type: 'building' }).expect(201)
    expect(b.body).toMatchObject({ description: 'Haus Nord', parent_object_id: null, object_type: 'building', children: [], electrical_meters: [] })
    building = b.body.id
    stairs = (await create(tokens.admin, demoId, { description: 'Treppenhaus A', parent_object_id: building, object_type: 'staircase' }).expect(201)).body.id
    flat = (await create(tokens.admin, demoId, { description: 'Wohnung 1.1', parent_object_id: stairs, object_type: 'apartment' }).expect(201)).body.id
    const one = await api().get(`${objects(demoId)}${building}/`).set(auth(tokens.admin)).expect(200)
    expect(one.body.children[0]).toMatchObject({ id: stairs, children: [{ id: flat, description: 'Wohnung 1.1' }] })
    const events = (await api().get(`/api/cockpit/installations/${demoId}/audit/?entity_type=object`).set(auth(tokens.admin)).expect(200)).body.results
    expect(events[0]).toMatchObject({ action: 'create', entity_id: String(flat), actor_email: 'admin@example.com', after: { description: 'Wohnung 1.1', parent_object_id: stairs } })
  })

  it('moves a subtree; a move below itself is 422 naming parent_object_id and changes nothing', async () => {
    const moved = await api().patch(`${objects(demoId)}${flat}/`).set(auth(tokens.admin)).send({ parent_object_id: building, description: 'Wohnung 1' }).expect(200)
    expect(moved.body).toMatchObject({ parent_object_id: building, description: 'Wohnung 1' })
    const cycle = await api().patch(`${objects(demoId)}${building}/`).set(auth(tokens.admin)).send({ parent_object_id: flat }).expect(422)
    expect(cycle.body).toEqual({ parent_object_id: ['An object cannot be placed below itself or one of its own sub-objects.'] })
    await api().patch(`${objects(demoId)}${building}/`).set(auth(tokens.admin)).send({ parent_object_id: building }).expect(422)
    expect((await api().get(`${objects(demoId)}${building}/`).set(auth(tokens.admin)).expect(200)).body.parent_object_id).toBeNull()
    const [event] = (await api().get(`/api/cockpit/installations/${demoId}/audit/?entity_type=object`).set(auth(tokens.super)).expect(200)).body.results
    expect(event).toMatchObject({ action: 'update', entity_id: String(flat), before: { parent_object_id: stairs, description: 'Wohnung 1.1' }, after: { parent_object_id: building, description: 'Wohnung 1' } })
  })

  it("refuses a parent of another installation (404 naming parent_object_id) and another installation's objects (404/403)", async () => {
    const foreign = (await create(tokens.bern, bernId, { description: 'Bern Haus', parent_object_id: null, object_type: 'building' }).expect(201)).body.id
    const r = await create(tokens.admin, demoId, { description: 'X', parent_object_id: foreign, object_type: 'apartment' }).expect(404)
    expect(r.body).toEqual({ parent_object_id: ['Not found.'] })
    await api().patch(`${objects(demoId)}${flat}/`).set(auth(tokens.admin)).send({ parent_object_id: foreign }).expect(404)
    // Installation A's admin, B's object through A's path: not found; through B's path: no role there.
    await api().patch(`${objects(demoId)}${foreign}/`).set(auth(tokens.admin)).send({ description: 'taken' }).expect(404)
    await api().delete(`${objects(demoId)}${foreign}/`).set(auth(tokens.admin)).expect(404)
    await api().patch(`${objects(bernId)}${foreign}/`).set(auth(tokens.admin)).send({ description: 'taken' }).expect(403)
    await create(tokens.admin, bernId, { description: 'X', parent_object_id: null, object_type: 'building' }).expect(403)
    await api().delete(`${objects(demoId)}${flat}/`).set(auth(tokens.bern)).expect(403)
    // The other admin does not see these events.
    await api().get(`/api/cockpit/installations/${bernId}/audit/`).set(auth(tokens.bern)).expect(200).expect((res) => {
      expect(res.body.results.every((e: { installation_id: number }) => e.installation_id === bernId)).toBe(true)
    })
  })

  it('a resident changes nothing (403)', async () => {
    await create(tokens.user, demoId, { description: 'X', parent_object_id: null, object_type: 'building' }).expect(403)
    await api().patch(`${objects(demoId)}${flat}/`).set(auth(tokens.user)).send({ description: 'mine' }).expect(403)
    await api().delete(`${objects(demoId)}${flat}/`).set(auth(tokens.user)).expect(403)
  })

  it('bad input is a 400 naming the field: NUL bytes, unknown type, huge ids', async () => {
    expect(Object.keys((await create(tokens.admin, demoId, { description: 'Haus\u0000', parent_object_id: null, object_type: 'building' }).expect(400)).body)).toEqual(['description'])
    expect(Object.keys((await create(tokens.admin, demoId, { description: 'Haus', parent_object_id: null, object_type: 'castle' }).expect(400)).body)).toEqual(['object_type'])
    expect(Object.keys((await create(tokens.admin, demoId, { description: 'Haus', parent_object_id: 99999999999, object_type: 'building' }).expect(400)).body)).toEqual(['parent_object_id'])
    await create(tokens.admin, demoId, { description: '', parent_object_id: null, object_type: 'building' }).expect(400)
    await api().patch(`${objects(demoId)}99999999999/`).set(auth(tokens.admin)).send({ description: 'x' }).expect(400)
    await api().delete(`${objects(demoId)}2147483647/`).set(auth(tokens.admin)).expect(404)
  })

  it('deletes only an empty object (409 saying what it holds), and the audit records the deletion', async () => {
    const full = await api().delete(`${objects(demoId)}${building}/`).set(auth(tokens.admin)).expect(409)
    expect(full.body.detail).toBe('The object is not empty (2 sub-objects, 0 meters, 0 charging stations). Remove or move them first.')
    // The demo garage holds charging stations.
    const garage = (await app.domain!.db.selectFrom('objects').select('id').where('installation_id', '=', demoId).where('object_type', '=', 'garage').executeTakeFirstOrThrow()).id
    expect((await api().delete(`${objects(demoId)}${garage}/`).set(auth(tokens.admin)).expect(409)).body.detail).toMatch(/charging stations/)
    await api().delete(`${objects(demoId)}${flat}/`).set(auth(tokens.admin)).expect(204)
    await api().delete(`${objects(demoId)}${stairs}/`).set(auth(tokens.admin)).expect(204)
    await api().delete(`${objects(demoId)}${building}/`).set(auth(tokens.admin)).expect(204)
    await api().get(`${objects(demoId)}${building}/`).set(auth(tokens.admin)).expect(404)
    const [event] = (await api().get(`/api/cockpit/installations/${demoId}/audit/?entity_type=object`).set(auth(tokens.admin)).expect(200)).body.results
    expect(event).toMatchObject({ action: 'delete', entity_id: String(building), before: { description: 'Haus Nord', permissions: [] }, after: null })
  })
})

describe('permission and role changes are audited', () => {
  it('records a permission entry set, changed and removed, and a role change, with before and after', async () => {
    const db = app.domain!.db
    const resident = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
    const node = (await create(tokens.admin, demoId, { description: 'Waschküche', parent_object_id: null, object_type: 'common_area' }).expect(201)).body.id
    const url = `/api/cockpit/installations/${demoId}/permissions`
    await api().put(url).set(auth(tokens.admin)).send({ user_id: resident, object_type: 'object', object_id: node, level: 'read' }).expect(200)
    await api().patch(url).set(auth(tokens.admin)).send({ user_id: resident, object_type: 'object', object_id: node, level: 'read_and_write', cost: true }).expect(200)
    await api().delete(url).set(auth(tokens.admin)).query({ user_id: resident, object_type: 'object', object_id: node }).expect(204)
    const events = (await api().get(`/api/cockpit/installations/${demoId}/audit/?entity_type=permission`).set(auth(tokens.admin)).expect(200)).body.results
    const key = `${resident}:object:${node}`
    expect(events.slice(0, 3).map((e: { action: string; entity_id: string }) => [e.action, e.entity_id])).toEqual([['delete', key], ['update', key], ['create', key]])
    expect(events[1]).toMatchObject({ before: { level: 'read', cost: false }, after: { level: 'read_and_write', cost: true } })

    await api().put(`/api/cockpit/users/${resident}/installations/${demoId}`).set(auth(tokens.admin)).send({ role: 'installation_admin' }).expect(200)
    await api().put(`/api/cockpit/users/${resident}/installations/${demoId}`).set(auth(tokens.admin)).send({ role: 'installation_user' }).expect(200)
    const roles = (await api().get(`/api/cockpit/audit/?installation_id=${demoId}&entity_type=installation_user`).set(auth(tokens.admin)).expect(200)).body.results
    expect(roles[0]).toMatchObject({ action: 'update', entity_id: `${resident}:${demoId}`, before: { role: 'installation_admin' }, after: { role: 'installation_user' } })
    // Nothing the other installation's admin may read.
    await api().get(`/api/cockpit/audit/?installation_id=${demoId}&entity_type=permission`).set(auth(tokens.bern)).expect(403)
  })
})
