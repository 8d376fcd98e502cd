import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { parse as parseYaml } from 'yaml'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { FastifyInstance, RouteOptions } from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'
import { startApp } from './helpers.ts'
import { apiRoutes, UNDOCUMENTED } from '../../server/api/openapi.ts'
import { ROUTE_TEXTS } from '../../server/api/openapi-texts.ts'

let app: FastifyInstance
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
})
afterAll(async () => app?.close())

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

/**
 * Routes that answer without a body schema although their method usually takes one: they read nothing
 * from the body (an action on the path's resource) or read it raw (the signed webhook).
 */
const NO_BODY = new Set([
  'POST /api/users/:userId/send-welcome-email',
  'POST /api/cockpit/users/invitations/:invitationId/resend',
  'POST /api/payments/charge-due/',
  'POST /api/cockpit/installations/:installationId/charging_stations/:stationId/simulator/unplug',
  'POST /api/payments/webhook/',
  'POST /api/payments/stripe/webhook/',
  'DELETE /api/cockpit/installations/:installationId/charging_stations/:stationId/learned_rfid',
  'POST /api/cockpit/installations/:installationId/charging_stations/:stationId/ocpp/password',
  'POST /api/cockpit/installations/:installationId/archive',
  'POST /api/cockpit/installations/:installationId/unarchive',
])

/** A success answer: 2xx, or a redirect (the demo checkout form answers 303). */
const SUCCESS = /^(2\d\d|30[1-8])$/

const methodsOf = (r: RouteOptions) => (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD')

describe('no route without a schema (ARCHITECTURE §3)', () => {
  it('every /api route declares a success response, its path params and (where it takes one) its body', () => {
    const routes = apiRoutes.get(app.server)!.filter((r) => r.url.startsWith('/api') && !UNDOCUMENTED.includes(r.url))
    expect(routes.length).toBeGreaterThan(50)
    const defects: string[] = []
    for (const r of routes) {
      for (const method of methodsOf(r)) {
        const name = `${method} ${r.url}`
        const schema = (r.schema ?? {}) as { params?: unknown; body?: unknown; response?: Record<string, unknown> }
        if (!Object.keys(schema.response ?? {}).some((code) => SUCCESS.test(code))) defects.push(`${name}: no 2xx (or redirect) response schema`)
        if (r.url.includes('/:') && !schema.params) defects.push(`${name}: path params without a schema`)
        if (['POST', 'PUT', 'PATCH'].includes(method) && !schema.body && !NO_BODY.has(name)) defects.push(`${name}: no body schema`)
      }
    }
    expect(defects).toEqual([])
  })
})

describe('GET /api/swagger.json and /api/swagger.yaml (SPEC §7)', () => {
  let doc: OpenAPIV3_1.Document
  beforeAll(async () => {
    doc = (await request(app.server).get('/api/swagger.json').expect(200).expect('content-type', /json/)).body
  })

  it('is an OpenAPI 3.1 document describing every operation, with a bearer scheme and the error shapes', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).toBeTruthy()
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/)
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.components?.schemas?.ErrorDetail).toMatchObject({ type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] })
    expect(doc.components?.schemas?.FieldErrors).toMatchObject({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } })

    const operations: string[] = []
    const problems: string[] = []
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const declared = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      for (const method of METHODS) {
        const op = item?.[method]
        if (!op) continue
        const name = `${method.toUpperCase()} ${path}`
        operations.push(name)
        const responses = Object.entries(op.responses ?? {})
        if (!responses.some(([code]) => SUCCESS.test(code))) problems.push(`${name}: no 2xx (or redirect) response`)
        for (const [code, res] of responses) if (!(res as OpenAPIV3_1.ResponseObject).description) problems.push(`${name} ${code}: no description`)
        const params = (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]
        for (const p of declared) if (!params.some((x) => x.in === 'path' && x.name === p && x.required)) problems.push(`${name}: path parameter ${p} undeclared`)
        if (!op.tags?.length) problems.push(`${name}: no tag`)
      }
    }
    // Every $ref points at an existing component.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1])
    for (const ref of new Set(refs)) if (!doc.components?.schemas?.[ref]) problems.push(`dangling $ref ${ref}`)
    // Every schema is valid JSON Schema 2020-12, the dialect of OpenAPI 3.1.
    const ajv = new Ajv2020({ strict: false, validateFormats: false })
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      try {
        ajv.compile({ ...schema, components: doc.components } as object)
      } catch (e) {
        problems.push(`component ${name}: ${(e as Error).message}`)
      }
    }
    expect(problems).toEqual([])
    console.info(`OpenAPI document: ${operations.length} operations, ${Object.keys(doc.paths ?? {}).length} paths, ${Object.keys(doc.components?.schemas ?? {}).length} component schemas`)
    // Each documented route method is an operation (swagger routes hidden).
    const routeCount = apiRoutes.get(app.server)!.filter((r) => !UNDOCUMENTED.includes(r.url)).flatMap(methodsOf).length
    expect(operations.length).toBe(routeCount)
    expect(operations).toContain('POST /api/authentication/token/')
    expect(operations).not.toContain('GET /api/swagger.json')
  })

  it('every operation has a unique operationId, and the document passes the OpenAPI 3.1 schema validator', async () => {
    const ids: string[] = []
    const missing: string[] = []
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of METHODS) {
        const op = item?.[method]
        if (!op) continue
        if (op.operationId) ids.push(op.operationId)
        else missing.push(`${method.toUpperCase()} ${path}`)
      }
    }
    expect(missing).toEqual([])
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([])
    expect(ids).toContain('postAuthenticationToken')
    expect(ids).toContain('getCockpitInstallationsByInstallationIdObjects')
    // A third party's reading of the document: the official OpenAPI 3.1 JSON Schema (@seriousme/openapi-schema-validator).
    const result = await new Validator().validate(doc as never)
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('the operations with a token need the bearer scheme; sign-in does not', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths?.['/api/authentication/token/']?.post?.security).toEqual([])
    // Sign-in answers 401 for bad credentials and 429 when throttled, never 403 (it needs no rights).
    expect(Object.keys(doc.paths?.['/api/authentication/token/']?.post?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '429']))
    expect(doc.paths?.['/api/authentication/token/']?.post?.responses?.['403']).toBeUndefined()
    // Operations limited to a role name it in their requirement (OpenAPI 3.1: roles for non-OAuth schemes).
    expect(doc.paths?.['/api/cockpit/mail/outbox']?.get?.security).toEqual([{ bearerAuth: ['superuser'] }])
    expect(doc.paths?.['/api/users/{id}/payment-info/']?.get?.security).toEqual([{ bearerAuth: ['self'] }])
    const r400 = doc.paths?.['/api/cockpit/installations/{installationId}/timers/']?.post?.responses?.['400'] as OpenAPIV3_1.ResponseObject
    expect(JSON.stringify(r400.content)).toContain('#/components/schemas/FieldErrors')
  })

  it('the heavy operations (statistics, sessions export, report dispatch) list the 429 of the per-user limit; others do not', () => {
    const heavy = Object.entries(doc.paths ?? {}).filter(([p]) => /^\/api\/statistics\/|\/reports\/dispatch$|^\/api\/rfids-charge\/export$/.test(p))
    expect(heavy.length).toBeGreaterThan(3)
    for (const [path, item] of heavy) {
      const r429 = item?.get?.responses?.['429'] ?? item?.post?.responses?.['429']
      expect(r429, path).toMatchObject({ description: expect.stringContaining('Retry-After') })
    }
    expect(doc.paths?.['/api/cockpit/installations/{installationId}/timers/']?.post?.responses?.['429']).toBeUndefined()
  })

  it('the YAML is the same document', async () => {
    const yaml = await request(app.server).get('/api/swagger.yaml').expect(200).expect('content-type', /yaml/)
    expect(parseYaml(yaml.text)).toEqual(doc)
  })

  it('`lang` picks the language of the texts', async () => {
    const texts: Record<string, OpenAPIV3_1.Document> = {}
    for (const lang of ['en', 'de', 'fr', 'it']) texts[lang] = (await request(app.server).get(`/api/swagger.json?lang=${lang}`).expect(200)).body
    expect(texts.en).toEqual(doc)
    const unauthorized = (d: OpenAPIV3_1.Document) => (d.paths?.['/api/metrics/']?.get?.responses?.['401'] as OpenAPIV3_1.ResponseObject).description
    expect(unauthorized(texts.de)).toMatch(/Nicht angemeldet/)
    expect(unauthorized(texts.fr)).toMatch(/Non authentifié/)
    expect(unauthorized(texts.it)).toMatch(/Non autenticato/)
    expect(texts.de.info.description).toMatch(/Ladestationen/)
    expect(texts.fr.tags?.find((t) => t.name === 'rfids')?.description).toMatch(/Cartes RFID/)
    // Only texts change: same operations in every language.
    expect(Object.keys(texts.it.paths ?? {})).toEqual(Object.keys(doc.paths ?? {}))
    const yamlDe = await request(app.server).get('/api/swagger.yaml?lang=de').expect(200)
    expect(parseYaml(yamlDe.text)).toEqual(texts.de)
    await request(app.server).get('/api/swagger.json?lang=xx').expect(400)
  })
})

/** Every `summary` and `description` text of `doc` with its JSON path (operations, parameters, schemas, answers). */
function textsOf(doc: unknown): Map<string, string> {
  const texts = new Map<string, string>()
  const walk = (v: unknown, at: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}[${i}]`))
    if (!v || typeof v !== 'object') return
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'summary' || k === 'description') && typeof x === 'string') texts.set(`${at}.${k}`, x)
      else walk(x, `${at}.${k}`)
    }
  }
  walk(doc, '')
  return texts
}

describe('the OpenAPI document in German, French and Italian (SPEC §7)', () => {
  it('translates every operation summary, parameter description and other text, and each language still validates', async () => {
    const en = (await request(app.server).get('/api/swagger.json?lang=en').expect(200)).body as OpenAPIV3_1.Document
    const english = textsOf(en)
    const summaries = [...english.keys()].filter((k) => /^\.paths\.[^.]+\.\w+\.summary$/.test(k))
    const parameters = [...english.keys()].filter((k) => /\.parameters\[\d+\]\.description$/.test(k))
    expect(summaries.length).toBeGreaterThan(200)
    expect(parameters.length).toBeGreaterThan(5)
    // No stale entry: each English key of the tables is a text of the document (a reworded summary needs its translations reworded).
    const used = new Set(english.values())
    expect(Object.keys(ROUTE_TEXTS).filter((t) => !used.has(t))).toEqual([])
    for (const lang of ['de', 'fr', 'it']) {
      const doc = (await request(app.server).get(`/api/swagger.json?lang=${lang}`).expect(200)).body as OpenAPIV3_1.Document
      const texts = textsOf(doc)
      expect([...texts.keys()], lang).toEqual([...english.keys()])
      const leftInEnglish = [...english].filter(([at, text]) => texts.get(at) === text).map(([at, text]) => `${at}: ${text}`)
      expect(leftInEnglish, `${lang}: texts left in English`).toEqual([])
      const result = await new Validator().validate(doc as never)
      expect(result.errors ?? [], `${lang}: ${JSON.stringify(result.errors ?? []).slice(0, 2000)}`).toEqual([])
    }
    const de = (await request(app.server).get('/api/swagger.yaml?lang=de').expect(200)).text
    const doc = parseYaml(de) as OpenAPIV3_1.Document
    expect(doc.paths?.['/api/cockpit/installations/{installationId}/rfids/']?.post?.summary).toBe('Eine RFID-Karte erstellen (Administratoren)')
    const fr = (await request(app.server).get('/api/swagger.json').set('Accept-Language', 'fr-CH').expect(200)).body as OpenAPIV3_1.Document
    expect(fr.paths?.['/api/rfids-charge/{sessionId}/']?.get?.summary).toBe('Une session de recharge')
    const it = (await request(app.server).get('/api/swagger.json?lang=it').expect(200)).body as OpenAPIV3_1.Document
    const scope = (it.paths?.['/api/rfids-charge/']?.get?.parameters as OpenAPIV3_1.ParameterObject[]).find((p) => p.name === 'installation')
    expect(scope?.description).toBe("L'id dell'impianto (o inviare l'intestazione installation-id).")
  })
})

describe('validation through the route schemas keeps the SPEC §5 wording', () => {
  it('answers 400 {field: [message]} in the caller language', async () => {
    const r = await request(app.server).post('/api/authentication/token/').set('Accept-Language', 'de').send({ email: 'nope' }).expect(400)
    expect(r.body).toEqual({ email: ['Das Feld ist keine gültige E-Mail-Adresse'], password: ['Das Feld ist erforderlich.'] })
    const empty = await request(app.server).post('/api/authentication/token/').expect(400)
    expect(empty.body).toEqual({ email: ['The field is required.'], password: ['The field is required.'] })
  })
})
