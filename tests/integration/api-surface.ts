import type { FastifyInstance } from 'fastify'
import { generateSync } from 'json-schema-faker'

/**
 * The API's surface as the served OpenAPI document describes it (GET /api/swagger.json): the
 * authorization matrix and the fuzz test walk these operations instead of a hand list, so a new route is
 * covered the day it is added (and a route without a schema fails tests/integration/openapi.test.ts).
 */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** OpenAPI path, e.g. /api/cockpit/installations/{installationId}/rfids/{rfidId}/ */
  path: string
  pathParams: string[]
  query: Param[]
  body?: JsonSchema
  /** false when the operation declares `security: []` (no sign-in needed) */
  secured: boolean
  /**
   * Roles the operation is limited to, from its bearer requirement's list (OpenAPI 3.1 §4.8.30: for
   * schemes other than OAuth the list names required roles): 'superuser', or 'self' (only the user the
   * path names). Empty: whoever the permission rules let through.
   */
  roles: string[]
  /** declared response schemas by status code ('200', '201', …) and content type */
  responses: Record<string, Record<string, { schema?: JsonSchema }> | undefined>
}
export interface Param { name: string; required: boolean; schema: JsonSchema }
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonSchema = any

export interface ApiDocument { paths: Record<string, Record<string, JsonSchema>>; components?: Record<string, unknown>; security?: unknown[] }

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** The served OpenAPI document and its operations (HEAD and the documentation routes left out). */
export async function apiSurface(app: FastifyInstance): Promise<{ doc: ApiDocument; operations: Operation[] }> {
  const res = await app.inject({ method: 'GET', url: '/api/swagger.json' })
  if (res.statusCode !== 200) throw new Error(`GET /api/swagger.json answered ${res.statusCode}`)
  const doc = res.json() as ApiDocument
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path.startsWith('/api/swagger')) continue
    for (const m of METHODS) {
      const op = item[m]
      if (!op) continue
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: JsonSchema) => resolve(doc, p))
      const json = op.requestBody ? resolve(doc, op.requestBody).content?.['application/json'] : undefined
      operations.push({
        method: m.toUpperCase() as Operation['method'],
        path,
        pathParams: params.filter((p: JsonSchema) => p.in === 'path').map((p: JsonSchema) => p.name),
        query: params.filter((p: JsonSchema) => p.in === 'query').map((p: JsonSchema) => ({ name: p.name, required: Boolean(p.required), schema: p.schema ?? {} })),
        body: json?.schema,
        secured: !(Array.isArray(op.security) && op.security.length === 0) && (op.security ?? doc.security ?? []).length > 0,
        roles: Object.values((op.security ?? doc.security ?? [])[0] ?? {}).flat() as string[],
        responses: Object.fromEntries(Object.entries(op.responses ?? {}).map(([code, r]) => [code, resolve(doc, r).content ?? {}])),
      })
    }
  }
  return { doc, operations }
}

function resolve(doc: ApiDocument, node: JsonSchema): JsonSchema {
  let n = node
  for (let i = 0; i < 10 && n && typeof n.$ref === 'string'; i++) {
    n = n.$ref.slice(2).split('/').reduce((o: JsonSchema, k: string) => o?.[k], doc)
  }
  return n
}

/**
 * A value valid for `schema` (refs into the document's components resolved), reproducible by `seed`.
 * Arrays get at most 4 items: json-schema-faker otherwise picks lengths up to the schema's maxItems, and
 * one configuration import body (10,000 installations of 10,000 meters each allowed) took minutes to
 * generate, three quarters of the fuzz's time (docs/performance.md "Test suite time").
 */
export function sample(doc: ApiDocument, schema: JsonSchema, seed: number): unknown {
  return generateSync({ ...capped(schema), components: capped(doc.components) } as never, { seed, maxDepth: 4, alwaysFakeOptionals: false, maxItems: 4 } as never)
}

/** Longest string `sample` generates: as long as the fuzz's hostile text (tests/integration/api-fuzz.ts). */
const MAX_SAMPLE_LENGTH = 6000
const cappedCache = new WeakMap<object, unknown>()
/**
 * `schema` with every `maxLength` lowered to MAX_SAMPLE_LENGTH (cached per schema object).
 * json-schema-faker builds a string of the schema's full maxLength before any option shortens it: the
 * configuration import's YAML body (32 MiB allowed) took 18 s per sample, two thirds of the fuzz's time
 * (docs/performance.md "Test suite time").
 */
function capped<T>(schema: T): T {
  if (!schema || typeof schema !== 'object') return schema
  const hit = cappedCache.get(schema)
  if (hit) return hit as T
  const out = Array.isArray(schema)
    ? schema.map(capped)
    : Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'maxLength' && typeof v === 'number' ? Math.min(v, MAX_SAMPLE_LENGTH) : capped(v)]))
  cappedCache.set(schema, out)
  return out as T
}

/** `path` with each `{name}` replaced by `values[name]` (URL-encoded). */
export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (values[name] === undefined) throw new Error(`no value for path parameter ${name} in ${path}`)
    return encodeURIComponent(String(values[name]))
  })
}
