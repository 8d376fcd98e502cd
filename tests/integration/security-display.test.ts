import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTenants } from './helpers.ts'
import { apiSurface, fillPath, sample, type ApiDocument, type Operation } from './api-surface.ts'
import { DISPLAY_OPERATIONS } from '../../server/api/http.ts'

/**
 * The display key's row of the authorization matrix: a display link of installation 1 is a
 * read-only credential for that installation's Power view. Every operation of the served OpenAPI is sent
 * with it as the bearer, with the ids of installation 1 and of installation 2: only the display
 * operations answer, and only for installation 1; everything else is refused with 403 before its input
 * is even validated (so no sample value can hide a missing check).
 */
describe('display keys in the authorization matrix', () => {
  let env: Awaited<ReturnType<typeof startTenants>>
  let doc: ApiDocument
  let operations: Operation[]
  let key: string

  beforeAll(async () => {
    env = await startTenants()
    ;({ doc, operations } = await apiSurface(env.app))
    const admin = await env.app.domain!.auth.verify(env.tokens.admin1!)
    const link = await env.app.domain!.displays.create(admin, env.tenants[1].installationId, { name: 'Matrix lobby' })
    key = link.url.slice(link.url.indexOf('#') + 1)
  })
  afterAll(async () => env?.app.close())

  const routeOf = (op: Operation) => `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`
  const isDisplayOp = (op: Operation) => DISPLAY_OPERATIONS.has(routeOf(op)) || DISPLAY_OPERATIONS.has(`${routeOf(op)}/`)

  it('opens only the display operations, and only in its own installation', async () => {
    expect(operations.length).toBeGreaterThan(100)
    const wrong: string[] = []
    let opened = 0
    let seed = 1
    for (const op of operations.filter((o) => o.secured)) {
      for (const tenant of [env.tenants[1], env.tenants[2]]) {
        const values: Record<string, string | number> = {}
        for (const p of op.pathParams) values[p] = p === 'installationId' ? tenant.installationId : p === 'kind' ? 'power' : p === 'meterType' ? 'main_power' : p === 'country' ? 'CH' : tenant.station.id
        const query = new URLSearchParams()
        for (const q of op.query) {
          if (q.name === 'installation') query.set('installation', String(tenant.installationId))
          else if (q.name === 'start') query.set('start', new Date(env.app.clock.ms() - 3600_000).toISOString())
          else if (q.name === 'end') query.set('end', env.app.clock.now().toISOString())
          else if (q.required) query.set(q.name, String(sample(doc, q.schema, seed++)))
        }
        const url = fillPath(op.path, values) + (query.size ? `?${query}` : '')
        const res = await env.app.inject({
          method: op.method, url,
          headers: { authorization: `Bearer ${key}`, 'installation-id': String(tenant.installationId), ...(op.body ? { 'content-type': 'application/json' } : {}) },
          ...(op.body ? { payload: JSON.stringify(sample(doc, op.body, seed++) ?? {}) } : {}),
        })
        const own = tenant === env.tenants[1] || !op.pathParams.includes('installationId')
        if (isDisplayOp(op) && own) {
          opened++
          if (res.statusCode !== 200) wrong.push(`${op.method} ${url} → ${res.statusCode} (expected 200) ${res.body.slice(0, 120)}`)
        } else if (op.roles.includes('device')) {
          // The ingestion API takes device keys only: a display key is no key of its (401).
          if (res.statusCode !== 401) wrong.push(`${op.method} ${url} → ${res.statusCode} (expected 401) ${res.body.slice(0, 120)}`)
        } else if (res.statusCode !== 403) {
          wrong.push(`${op.method} ${url} → ${res.statusCode} (expected 403) ${res.body.slice(0, 120)}`)
        }
      }
    }
    expect(wrong).toEqual([])
    // GET /api/display/ is sent once per tenant (no installation in its path): 3 operations, 4 requests.
    expect(opened).toBe(4)
  }, 120_000)
})
