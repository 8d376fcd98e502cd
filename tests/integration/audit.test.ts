import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'
import { recordAudit } from '../../server/domain/audit/service.ts'

let app: FastifyInstance
let tokens: RoleTokens
let demoId: number
let bernId: number

beforeAll(async () => {
  const started = await startWithTokens()
  ;({ app, tokens } = started)
  bernId = started.other.installationId
  const db = app.domain!.db
  demoId = started.demoInstallationId
  const superId = (await db.selectFrom('users').select('id').where('email', '=', 'super@example.com').executeTakeFirstOrThrow()).id
  const at = app.domain!.clock.now()
  await db.transaction().execute(async (tx) => {
    await recordAudit(tx, { at, actor: { id: superId }, installation_id: demoId, action: 'update', entity_type: 'installation', entity_id: demoId, before: { name: 'Old' }, after: { name: 'New', password_hash: 'x', ocpp: { password: 'p', url: 'ws://x' } } })
    await recordAudit(tx, { at, actor: null, installation_id: bernId, action: 'create', entity_type: 'object', entity_id: 99, after: { description: 'Haus B' } })
  })
})
afterAll(async () => app?.close())

const get = (token: string, url: string) => request(app.server).get(url).set(auth(token))

describe('the audit trail (docs/decisions.md "Provisioning: the audit trail")', () => {
  it('superusers read all of it, newest first, with who, before and after, and never a secret', async () => {
    const r = await get(tokens.super, '/api/cockpit/audit/').expect(200)
    expect(r.body.count).toBeGreaterThanOrEqual(2)
    const mine = r.body.results.find((e: { installation_id: number }) => e.installation_id === demoId)
    expect(mine).toMatchObject({ action: 'update', entity_type: 'installation', entity_id: String(demoId), actor_email: 'super@example.com', before: { name: 'Old' }, after: { name: 'New', ocpp: { url: 'ws://x' } } })
    expect(JSON.stringify(r.body)).not.toMatch(/password/)
    const filtered = await get(tokens.super, `/api/cockpit/audit/?installation_id=${bernId}&entity_type=object`).expect(200)
    expect(filtered.body.results.map((e: { entity_id: string }) => e.entity_id)).toEqual(['99'])
    expect(filtered.body.results[0].actor_user_id).toBeNull()
  })

  it("an admin reads their installation's events only, by naming it; residents never", async () => {
    const own = await get(tokens.admin, `/api/cockpit/installations/${demoId}/audit/`).expect(200)
    expect(own.body.results.every((e: { installation_id: number }) => e.installation_id === demoId)).toBe(true)
    expect(own.body.results.length).toBeGreaterThan(0)
    await get(tokens.admin, `/api/cockpit/audit/?installation_id=${demoId}`).expect(200)
    // Another installation's trail, all of it, or as a resident: refused.
    expect((await get(tokens.admin, `/api/cockpit/audit/?installation_id=${bernId}`).expect(403)).body.detail).toMatch(/permission/)
    await get(tokens.admin, `/api/cockpit/installations/${bernId}/audit/`).expect(403)
    await get(tokens.bern, `/api/cockpit/installations/${demoId}/audit/`).expect(403)
    await get(tokens.admin, '/api/cockpit/audit/').expect(403)
    await get(tokens.user, `/api/cockpit/installations/${demoId}/audit/`).expect(403)
    await request(app.server).get('/api/cockpit/audit/').expect(401)
  })

  it('answers 4xx, never 500, to huge ids and bad filters', async () => {
    await get(tokens.super, '/api/cockpit/audit/?installation_id=99999999999999').expect(400)
    await get(tokens.super, '/api/cockpit/installations/99999999999999/audit/').expect(400)
    await get(tokens.super, '/api/cockpit/audit/?entity_type=%00').expect(400)
    await get(tokens.admin, '/api/cockpit/installations/2147483647/audit/').expect(404)
  })
})
