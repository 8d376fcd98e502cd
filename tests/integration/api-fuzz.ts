import fc from 'fast-check'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { startTenants } from './helpers.ts'
import { apiSurface, fillPath, sample, type ApiDocument, type JsonSchema, type Operation } from './api-surface.ts'

/**
 * Fuzzing from the served OpenAPI, shared by the fuzz test files: for every operation, RUNS
 * generated requests — half valid for the operation's documented schemas (json-schema-faker, seeded by
 * fast-check), half broken (ids past 2^31−1, NUL bytes, 6,000-character strings, year 0000, wrong types,
 * missing fields, bodies that are not objects) — sent as one actor. A run fails on any answer ≥ 500 and on
 * any answer its operation does not document, or whose body breaks the documented schema; fast-check
 * prints the seed and the shrunk request to replay it.
 */
/**
 * Requests per operation. The normal run (npm test, CI) sends a seeded sample of FUZZ_SAMPLE; the full
 * fuzz, `npm run test:fuzz`, sends FUZZ_RUNS=100 (tens of thousands of requests for both actors). With
 * one seed, fast-check generates the same sequence every time, so the sample is the first FUZZ_SAMPLE
 * requests of the full run's, and a finding of the sample replays in either.
 */
export const FUZZ_SAMPLE = 10
export const RUNS = Number(process.env.FUZZ_RUNS ?? FUZZ_SAMPLE)
export const SEED = 20261123
/**
 * A fuzz test's time limit (ms). The sample took 62 s under heavy load with 178 operations and 158 s in
 * a fresh-clone CI run with about 210 (most of it generating configuration import bodies, now capped by
 * `sample`); in CI it runs beside the browser tests (scripts/test-all.ts), so the limit leaves room for
 * a machine shared by two lanes (docs/performance.md "Test suite time").
 */
export const TIMEOUT = 420_000 + RUNS * 6_000

/** Hostile values for any field: past the id range, NUL, control characters, huge text, bad dates, wrong types. */
const hostile = fc.constantFrom<unknown>(
  2147483648, 99999999999999999999, -1, 0, 1.5, 1e308, Number.MAX_SAFE_INTEGER, 'a\u0000b', '\u0000', 'x'.repeat(6000), '', ' ',
  '0000-01-01', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2026-02-30', 'not-a-date', '💥', '<script>', "' OR 1=1 --", null, true, [], {}, '[]',
)
const hostilePathValue = fc.constantFrom('0', '-1', '2147483648', '99999999999999999999', 'abc', '1.5', '%00', 'null', '1e3', '%F0%9F%92%A5')

interface Request { url: string; method: Operation['method']; headers: Record<string, string>; payload?: string }

/** The fuzz cases of one operation: an arbitrary of requests, valid and broken, with real ids mixed in. */
function requestsFor(doc: ApiDocument, op: Operation, realIds: Record<string, Array<string | number>>, installationId: number): fc.Arbitrary<Request> {
  const seedArb = fc.integer({ min: 1, max: 2 ** 30 })
  const pathValue = (name: string) => fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(realIds[name] ?? [1])) .map(String) },
    { weight: 1, arbitrary: seedArb.map((s) => String(sample(doc, paramSchema(doc, op, name), s))) },
    { weight: 1, arbitrary: hostilePathValue },
  )
  const paths = fc.record(Object.fromEntries(op.pathParams.map((p) => [p, pathValue(p)])) as Record<string, fc.Arbitrary<string>>)
  const queries = fc.record(Object.fromEntries(op.query.map((q) => [q.name, fc.oneof(
    { weight: 2, arbitrary: seedArb.map((s) => sample(doc, q.schema, s)) },
    { weight: q.required ? 0 : 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: hostile },
  )])) as Record<string, fc.Arbitrary<unknown>>)
  const body = op.body ? fc.oneof(
    { weight: 3, arbitrary: seedArb.map((s) => JSON.stringify(sample(doc, op.body, s) ?? {})) },
    { weight: 3, arbitrary: fc.tuple(seedArb, fc.nat(), hostile).map(([s, k, bad]) => JSON.stringify(breakOneField(sample(doc, op.body, s), k, bad))) },
    { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"text"', '{', '{"a":', '{}', JSON.stringify({ a: 'b\u0000' })) },
  ) : fc.constant(undefined)
  const header = fc.oneof(
    { weight: 4, arbitrary: fc.constant(String(installationId)) },
    { weight: 1, arbitrary: fc.constantFrom('2147483648', '-1', 'abc', '99999999999999999999') },
  )
  return fc.record({ paths, queries, body, header }).map(({ paths, queries, body, header }) => {
    const qs = new URLSearchParams()
    for (const [k, v] of Object.entries(queries)) if (v !== undefined) qs.set(k, typeof v === 'string' ? v : JSON.stringify(v))
    return {
      method: op.method,
      url: fillPath(op.path, paths) + (qs.size ? `?${qs}` : ''),
      headers: { 'installation-id': header, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      payload: body,
    }
  })
}

/** `value` with the k-th of its fields (or the value itself) replaced by `bad`. */
function breakOneField(value: unknown, k: number, bad: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad
  const keys = Object.keys(value)
  if (!keys.length) return { unexpected: bad }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  const key = keys[k % keys.length]
  if (k % 5 === 4) delete copy[key]
  else copy[key] = bad
  return copy
}

function paramSchema(doc: ApiDocument, op: Operation, name: string): JsonSchema {
  const item = doc.paths[op.path]
  const params = [...(item.parameters ?? []), ...(item[op.method.toLowerCase()]?.parameters ?? [])]
  return params.find((p: { in: string; name: string }) => p.in === 'path' && p.name === name)?.schema ?? { type: 'string' }
}

/** Start the two-installation world and fuzz every operation as `actor`; resolves to the figures and the findings (none expected). */
export async function fuzzAs(actor: 'admin1' | 'resident') {
  const env = await startTenants()
  try {
    const { doc, operations } = await apiSurface(env.app)
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
    addFormats.default(ajv)
    for (const [name, schema] of Object.entries((doc.components as { schemas?: Record<string, JsonSchema> })?.schemas ?? {})) ajv.addSchema(schema, `#/components/schemas/${name}`)
    const t1 = env.tenants[1]
    const realIds: Record<string, Array<string | number>> = {
      installationId: [t1.installationId, env.tenants[2].installationId], stationId: [t1.station.id, t1.readableStation!.id], deviceId: [t1.station.device_id],
      rfidId: [t1.rfidId, t1.ownRfidId!], timerId: [t1.timerId], rateId: [t1.rateId], reportId: [t1.reportId], objectId: [t1.objectId],
      sessionId: [t1.sessionId], shortcutId: [t1.shortcutId!], conversationId: [t1.conversationId!], userId: [t1.userId, env.residentId], id: [t1.userId, env.residentId], paymentInfoId: [t1.paymentInfoId],
      kind: ['power', 'water', 'heat'], country: ['CH', 'DE'],
    }
    // Deletes last, so the other operations meet a world that still has its objects.
    const ordered = [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    // One compiled validator per documented schema (Ajv compiles a new one for every new object).
    const validators = new Map<JsonSchema, ReturnType<typeof ajv.compile>>()
    const validatorFor = (schema: JsonSchema) => {
      let v = validators.get(schema)
      if (!v) validators.set(schema, (v = ajv.compile({ ...schema, $id: undefined })))
      return v
    }
    let token = await env.freshToken(actor)
    let requests = 0
    const statuses = new Map<number, number>()
    const findings: string[] = []
    for (const op of ordered) {
      // Every operation runs; the findings (each fast-check's shrunk counterexample) are reported together.
      await fc.assert(
        fc.asyncProperty(requestsFor(doc, op, op.method === 'DELETE' ? { ...realIds, userId: [t1.userId], id: [t1.userId] } : realIds, t1.installationId), async (req) => {
          const res = await env.app.inject({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } })
          requests++
          // A password change or sign-out ends the actor's token: sign in again for the next request.
          if (res.statusCode === 401) token = await env.freshToken(actor)
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
          if (res.statusCode >= 500) throw new Error(`${op.method} ${op.path}: ${res.statusCode} ${res.body.slice(0, 300)}`)
          const documented = op.responses[String(res.statusCode)] ?? op.responses[`${String(res.statusCode)[0]}XX`] ?? op.responses.default
          if (!documented) throw new Error(`${op.method} ${op.path}: answered ${res.statusCode}, which it does not document (${Object.keys(op.responses).join(', ')})`)
          const json = documented['application/json']?.schema
          if (json && res.statusCode !== 204 && String(res.headers['content-type']).startsWith('application/json')) {
            const validate = validatorFor(json)
            if (!validate(res.json())) throw new Error(`${op.method} ${op.path}: ${res.statusCode} body breaks its schema: ${ajv.errorsText(validate.errors)} — ${res.body.slice(0, 300)}`)
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      ).catch((err: Error) => findings.push(`${err.message.split('\n').find((l) => l.startsWith('Counterexample')) ?? ''}\n  ${(err.cause as Error | undefined)?.message ?? err.message.split('\n')[0]}`))
    }
    return { operations: operations.length, requests, statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)), findings }
  } finally {
    await env.app.close()
  }
}
