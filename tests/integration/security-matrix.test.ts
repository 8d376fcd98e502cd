import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTenants, type MatrixActor, type TenantObjects } from './helpers.ts'
import { apiSurface, fillPath, sample, type ApiDocument, type Operation } from './api-surface.ts'

/**
 * The authorization matrix: every operation of the served OpenAPI × {no token, resident,
 * admin of installation 1, admin of installation 2, superuser} × objects of both installations (and
 * "mixed" paths: the actor's own installation id with another installation's object ids). What each
 * actor may do follows ARCHITECTURE §4 and shared/rules/permissions.ts:
 * - without a token only the operations documented with `security: []` answer;
 * - operations whose bearer requirement names the role `superuser` or `self` (OpenAPI 3.1 role lists)
 *   answer only superusers, or only the user the path names;
 * - an installation admin reaches nothing of another installation;
 * - the resident (read on stations 1 and 2, their own RFID card) reaches no object they hold no right to,
 *   writes nothing on a station they may only read, and changes nothing installation-wide except the
 *   self-service writes listed below.
 * Every case expected to be refused is sent with a body valid for the operation's schema (so validation
 * cannot hide a missing check) and fails the test on any 2xx/3xx; cases expected to be allowed are sent
 * only for reads (writes would change the world under the other cases) and fail on 401/403.
 */

/** Installation-wide writes a resident may make for themselves (SPEC §2: order a card, add their own card by tag). */
const RESIDENT_SELF_SERVICE = new Set(['POST /api/emails/send-ordering-new-rfid/', 'POST /api/rfids/', 'POST /api/cockpit/installations/{installationId}/shortcuts/'])

/** Path parameters naming an object (and what in TenantObjects fills them); others come from their schema. */
const OBJECT_PARAMS = ['stationId', 'rfidId', 'deviceId', 'timerId', 'rateId', 'reportId', 'objectId', 'sessionId', 'userId', 'id', 'paymentInfoId', 'shortcutId', 'conversationId'] as const
/** Objects the resident holds no right to in installation 1 (rates, reports and nodes are admin matters: writes only). */
const PERSONAL_PARAMS = new Set(['stationId', 'rfidId', 'deviceId', 'timerId', 'sessionId', 'userId', 'id', 'paymentInfoId', 'shortcutId', 'conversationId'])

type Target = 'own1' | 'other2' | 'mixed' | 'readable'
type Expectation = 'deny' | 'allow' | 'skip'

function valueOf(name: string, t: TenantObjects, target: Target): string | number | undefined {
  const station = target === 'readable' && t.readableStation ? t.readableStation : t.station
  switch (name) {
    case 'installationId': return t.installationId
    case 'stationId': return station.id
    case 'deviceId': return station.device_id
    case 'rfidId': return t.rfidId
    case 'timerId': return t.timerId
    case 'rateId': return t.rateId
    case 'reportId': return t.reportId
    case 'objectId': return t.objectId
    case 'sessionId': return t.sessionId
    case 'userId': case 'id': return t.userId
    case 'paymentInfoId': return t.paymentInfoId
    case 'shortcutId': return t.shortcutId
    case 'conversationId': return t.conversationId
    case 'kind': return 'power'
    case 'meterType': return 'main_power'
    case 'country': return 'CH'
    default: return undefined
  }
}

const scoped = (op: Operation) => op.pathParams.length > 0 || op.query.some((q) => q.name === 'installation')
const hasObject = (op: Operation) => op.pathParams.some((p) => (OBJECT_PARAMS as readonly string[]).includes(p))
const isRead = (op: Operation) => op.method === 'GET'

function expectation(actor: MatrixActor, op: Operation, target: Target): Expectation {
  if (!op.secured) return 'skip'
  if (actor === 'anon') return target === 'own1' ? 'deny' : 'skip'
  // Display-key operations answer no person's token; display keys: security-display.test.ts.
  if (op.roles.includes('display')) return target === 'own1' ? 'deny' : 'skip'
  // Device-key operations (the ingestion API) answer no person's token either; device keys: ingest.test.ts.
  if (op.roles.includes('device')) return target === 'own1' ? 'deny' : 'skip'
  // Limited to superusers, or to the user the path names (the matrix's target users are never the actor).
  if (op.roles.includes('self')) return target === 'readable' ? 'skip' : 'deny'
  if (op.roles.includes('superuser')) return target === 'readable' || target === 'mixed' ? 'skip' : actor === 'super' ? (isRead(op) ? 'allow' : 'skip') : 'deny'
  if (target === 'readable' && (actor !== 'resident' || !op.pathParams.includes('stationId'))) return 'skip'
  if (actor === 'super') return target === 'mixed' ? 'skip' : isRead(op) ? 'allow' : 'skip'
  if (!scoped(op)) return 'skip'
  const home = actor === 'admin2' ? 'other2' : 'own1'
  if (target === 'mixed') return hasObject(op) && op.pathParams.includes('installationId') ? 'deny' : 'skip'
  if (actor !== 'resident') return target === home ? (isRead(op) && op.pathParams.includes('installationId') ? 'allow' : 'skip') : 'deny'
  // The resident, member of installation 1 only.
  if (target === 'other2') return 'deny'
  if (target === 'readable') return isRead(op) ? 'allow' : 'deny'
  if (op.pathParams.some((p) => PERSONAL_PARAMS.has(p))) return 'deny'
  if (!isRead(op)) return RESIDENT_SELF_SERVICE.has(`${op.method} ${op.path}`) ? 'skip' : 'deny'
  return 'skip'
}

interface Outcome { actor: MatrixActor; target: Target; op: string; url: string; status: number; expected: Expectation; body: string }

describe('authorization matrix', () => {
  let env: Awaited<ReturnType<typeof startTenants>>
  let doc: ApiDocument
  let operations: Operation[]
  const outcomes: Outcome[] = []

  beforeAll(async () => {
    env = await startTenants()
    ;({ doc, operations } = await apiSurface(env.app))
  })
  afterAll(async () => env?.app.close())

  it('sends every operation as every actor against both installations', async () => {
    expect(operations.length).toBeGreaterThan(100)
    const actors: MatrixActor[] = ['anon', 'resident', 'admin1', 'admin2', 'super']
    const targets: Target[] = ['own1', 'other2', 'mixed', 'readable']
    // Deletes last, so a wrongly allowed delete cannot remove another case's target first.
    const ordered = [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    let seed = 1
    for (const op of ordered) {
      for (const actor of actors) {
        for (const target of targets) {
          const expected = expectation(actor, op, target)
          if (expected === 'skip') continue
          const home = actor === 'admin2' ? env.tenants[2] : env.tenants[1]
          const objects = target === 'other2' ? env.tenants[2] : target === 'mixed' ? (actor === 'admin2' ? env.tenants[1] : env.tenants[2]) : env.tenants[1]
          const values: Record<string, string | number> = {}
          for (const p of op.pathParams) {
            const v = p === 'installationId' && target === 'mixed' ? home.installationId : valueOf(p, objects, target)
            values[p] = v ?? String(sample(doc, schemaOfPathParam(doc, op, p), seed++))
          }
          const query = new URLSearchParams()
          for (const q of op.query) {
            if (q.name === 'installation') query.set('installation', String(target === 'mixed' ? home.installationId : objects.installationId))
            else if (q.required) query.set(q.name, String(sample(doc, q.schema, seed++)))
          }
          const url = fillPath(op.path, values) + (query.size ? `?${query}` : '')
          const token = env.tokens[actor]
          const res = await env.app.inject({
            method: op.method,
            url,
            headers: {
              ...(token ? { authorization: `Bearer ${token}` } : {}),
              'installation-id': String(target === 'mixed' ? home.installationId : objects.installationId),
              ...(op.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(op.body ? { payload: JSON.stringify(sample(doc, op.body, seed++) ?? {}) } : {}),
          })
          outcomes.push({ actor, target, op: `${op.method} ${op.path}`, url, status: res.statusCode, expected, body: res.body.slice(0, 160) })
        }
      }
    }
    const denied = outcomes.filter((o) => o.expected === 'deny')
    const allowed = outcomes.filter((o) => o.expected === 'allow')
    const unexpectedSuccess = denied.filter((o) => o.status < 400)
    const unexpectedDenial = allowed.filter((o) => o.status === 401 || o.status === 403)
    const serverErrors = outcomes.filter((o) => o.status >= 500)
    const inconclusive = denied.filter((o) => o.status === 400)
    console.info(`authorization matrix: ${operations.length} operations, ${outcomes.length} requests (${denied.length} expected refused, ${allowed.length} expected allowed); unexpected successes ${unexpectedSuccess.length}, unexpected denials ${unexpectedDenial.length}, 5xx ${serverErrors.length}, refused by validation (400) ${inconclusive.length}`)
    const show = (list: Outcome[]) => list.map((o) => `${o.actor} ${o.target} ${o.url} → ${o.status} ${o.body}`).join('\n')
    const report = [['unexpected successes', unexpectedSuccess], ['unexpected denials', unexpectedDenial], ['5xx', serverErrors]] as const
    expect(report.filter(([, list]) => list.length).map(([what, list]) => `${what}:\n${show(list)}`).join('\n')).toBe('')
  }, 240_000)

  it('refuses anonymous callers with 401 before anything else', () => {
    const anon = outcomes.filter((o) => o.actor === 'anon')
    expect(anon.length).toBeGreaterThan(90)
    expect(anon.filter((o) => o.status !== 401).map((o) => `${o.url} → ${o.status}`)).toEqual([])
  })
})

function schemaOfPathParam(doc: ApiDocument, op: Operation, name: string) {
  const item = doc.paths[op.path]
  const params = [...(item.parameters ?? []), ...(item[op.method.toLowerCase()]?.parameters ?? [])]
  return params.find((p: { in: string; name: string }) => p.in === 'path' && p.name === name)?.schema ?? { type: 'string' }
}
