import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { apiRoutes } from '../../server/api/openapi.ts'
import { PASSWORD, login, startWithTokens, type RoleTokens } from './helpers.ts'

/**
 * Bad input must answer 4xx, never 5xx. Every operation of the real route table (read
 * from the onRoute record of server/api/openapi.ts, so a new route is probed without editing this file) gets
 * ids beyond PostgreSQL integer (2^31, 10^20) in its path, query, `installation-id` header and body, NUL
 * bytes in every text, year 0000 in dates, and texts of 256 and 5001 characters, as superuser and admin.
 */

let app: FastifyInstance
let tokens: RoleTokens
/**
 * A device key: the ingestion routes (/api/ingest/) take one instead of a person's token. It belongs to
 * an installation of its own (addOtherInstallation), which no probe archives, deletes or revokes keys of.
 */
let deviceKey: string
const routes: { method: string; url: string }[] = []
const ids: Record<string, number> = {}

/** 5xx answers to the requests that find out which keys an operation reads (they are probes too). */
const discoveryFailures: string[] = []

const BIG = 2 ** 31
const HUGE = '99999999999999999999'
const NUL = 'a\u0000b'

beforeAll(async () => {
  let other: { installationId: number }
  ;({ app, tokens, other } = await startWithTokens(['api']))
  const devices = other.installationId
  const key = await app.inject({ method: 'POST', url: `/api/cockpit/installations/${devices}/device_keys/`, headers: { authorization: `Bearer ${tokens.super}` }, payload: { name: 'Probe' } })
  expect(key.statusCode, key.body).toBe(201)
  deviceKey = key.json<{ key: string }>().key
  for (const r of apiRoutes.get(app.server) ?? []) {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url })
  }
  const db = app.domain!.db
  const first = async (table: 'charging_stations' | 'rfids' | 'objects' | 'timers' | 'reports' | 'charging_sessions' | 'payment_methods', where?: [string, unknown]) => {
    let q = db.selectFrom(table).select('id').orderBy('id')
    if (where) q = q.where(where[0] as never, '=', where[1] as never)
    return Number((await q.executeTakeFirst())?.id ?? 1)
  }
  const userId = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
  ids.installation = 1
  ids.station = await first('charging_stations', ['installation_id', 1])
  ids.rfid = await first('rfids', ['installation_id', 1])
  ids.object = await first('objects', ['installation_id', 1])
  ids.timer = await first('timers', ['installation_id', 1])
  ids.report = await first('reports')
  ids.session = await first('charging_sessions')
  ids.payment = await first('payment_methods')
  ids.rate = Number((await db.selectFrom('rates').select('id').where('installation_id', '=', 1).where('kind', '=', 'power').executeTakeFirst())?.id ?? 1)
  ids.super = await userId('super@example.com')
  ids.admin = await userId('admin@example.com')
  ids.user = await userId('user@example.com')
})
afterAll(async () => app?.close())

type Role = 'super' | 'admin'

/** A valid value for each path parameter, so a probe reaches the code behind validation. DELETE gets unknown ids: nothing is removed. */
function pathValue(name: string, method: string, role: Role): string {
  const strings: Record<string, string> = { kind: 'power', meterType: 'main_power', objectType: 'object', country: 'CH', deviceId: 'CS-1' }
  if (name in strings) return strings[name]
  if (name === 'installationId') return '1'
  if (method === 'DELETE') return '999999'
  const byName: Record<string, number> = {
    stationId: ids.station, rfidId: ids.rfid, objectId: ids.object, timerId: ids.timer, reportId: ids.report, rateId: ids.rate,
    sessionId: ids.session, paymentInfoId: ids.payment, userId: ids.user, id: ids[role],
  }
  return String(byName[name] ?? 1)
}

const fill = (url: string, f: (name: string) => string) => url.replace(/:(\w+)/g, (_, n: string) => f(n))

/**
 * A body valid for most operations at once (zod drops keys a schema does not know). Nothing in it
 * changes a password, deletes or locks anyone out: old_password is wrong, e-mails are taken.
 */
function baseBody(method: string, url: string): unknown {
  if (url.endsWith('/installations/:installationId/')) return { registration_enabled: true }
  if (url.endsWith('/rates/:kind/:rateId/') && method === 'PATCH') return { name: 'Probe' }
  const body = {
    email: 'admin@example.com', password: PASSWORD, refresh: 'x', token: 'x', old_password: 'wrong-Pass-1!', new_password: 'New-Pass-2026!',
    title: 'mr', first_name: 'Probe', last_name: 'Probe', address: 'Street 1', zip_code: '8000', city: 'Zurich', country: 'CH', telephone: '+41 44 000 00 00',
    company: 'Probe AG', comment: 'probe', ietf_lang_tag: 'de-CH', role: 'installation_user', active: true, date: '2030-01-01T00:00:00Z', is_superuser: false,
    installation_id: 1, terms_accepted: true, alias: 'probe', favourite: 1, success_url: '/ok', error_url: '/error', cancel_url: '/cancel',
    user_id: ids.user, object_type: 'charging_station', object_id: ids.station, level: 'read', cost: false, overview: false,
    tag: 'PROBE01', description: 'probe', all_stations: true, station_ids: [ids.station], device_ids: ['CS-1'], quantity: 1,
    name: 'Probe', charging_mode: 'instant', rfid_lernmodus: 0, start_time: '10:00', repeat_monday: true,
    start_date: '2031-01-01', end_date: '2031-12-31', prices: { general: 0.2 }, flat_enabled: false,
    report_type: 'electrical', year: 2030, recipients: ['probe@example.com'], output_directory: null, intervals: ['m'], show_deltas: false, language: 'en',
    reportId: ids.report, reportType: 'electrical', document: 'terms', version: '1', id: ids.station, minutes: 1,
  }
  if (url.endsWith('/charging_stations/') && (method === 'PUT' || method === 'PATCH')) return [{ id: ids.station, name: 'Probe', charging_mode: 'instant' }]
  return body
}

const DATE_KEYS = new Set(['date', 'start_date', 'end_date', 'start', 'end'])
const long = (n: number) => 'x'.repeat(n)

/** The bad values that fit a key whose valid value is `value`. */
function badValues(key: string, value: unknown): unknown[] {
  if (typeof value === 'number') return [BIG, Number(HUGE)]
  if (DATE_KEYS.has(key)) return [NUL, '0000-01-01', '0000-01-01T00:00:00Z', '2021-02-30']
  if (typeof value === 'string') return [NUL, long(256), long(5001)]
  if (Array.isArray(value)) return [[typeof value[0] === 'number' ? BIG : NUL]]
  if (value !== null && typeof value === 'object') return [{ general: BIG }]
  return []
}

/**
 * The bad variants of one body: each key the operation reads (`known`, from its validation answer) in
 * turn gets each bad value that fits it; when the operation names none, every key at once per bad kind.
 */
function badBodies(body: unknown, known: Set<string> | null): { what: string; body: unknown }[] {
  if (Array.isArray(body)) return badBodies(body[0], known).map((v) => ({ what: `[0].${v.what}`, body: [v.body] }))
  const entries = Object.entries(body as Record<string, unknown>)
  const out: { what: string; body: unknown }[] = []
  if (known) {
    for (const [key, value] of entries) {
      if (!known.has(key)) continue
      for (const v of badValues(key, value)) out.push({ what: `${key}=${show(v)}`, body: { ...(body as object), [key]: v } })
    }
    return out
  }
  for (let i = 0; i < 4; i++) {
    const variant = Object.fromEntries(entries.map(([k, v]) => [k, badValues(k, v)[i] ?? badValues(k, v)[0] ?? v]))
    out.push({ what: `every key, bad value #${i}`, body: variant })
  }
  return out
}

/**
 * The body keys an operation validates: every key set to a value of no schema's type ({}), so zod names
 * each key it knows in the 400 answer. Null when the answer is not such a field list.
 */
async function knownKeys(opts: InjectOptions, body: unknown): Promise<Set<string> | null> {
  const marker = (b: object) => Object.fromEntries(Object.keys(b).map((k) => [k, { probe: true }]))
  const payload = Array.isArray(body) ? [marker(body[0])] : marker(body as object)
  const res = await app.inject({ ...opts, payload })
  if (res.statusCode >= 500) discoveryFailures.push(`${res.statusCode} ${opts.method} ${opts.url} ← body with every key {probe: true}`)
  if (res.statusCode !== 400) return null
  const fields = Object.keys(res.json() as object).map((f) => f.replace(/^0\./, '').split('.')[0])
  return fields.some((f) => f !== 'detail' && f !== 'non_field_errors') ? new Set(fields) : null
}

function show(v: unknown): string {
  const s = JSON.stringify(v)
  return s.length > 30 ? `${s.slice(0, 12)}…(${String(v).length})` : s
}

/** Bad values per query parameter; each is sent where the operation reads that parameter (see knownQuery). */
const QUERY_PROBES: Record<string, string[]> = {
  limit: [String(BIG)], offset: [String(BIG), HUGE], user_id: [String(BIG)], object_id: [String(BIG), HUGE], user_ids: [String(BIG)],
  reportId: [String(BIG)], start: ['0000-01-01', '0000-01-01T00:00:00Z', '2021-02-30'], end: ['0000-01-01', '0000-01-01T00:00:00Z'],
  start__gte: ['0000-01-01', '0000-01-01T00:00:00Z'], end__lte: ['0000-01-01T00:00:00Z'], active_since: ['0000-01-01T00:00:00Z'],
  lang: ['a%00b'], session: ['a%00b'], role: ['a%00b'], object_type: ['a%00b'], entry_type: ['a%00b'], granularity: ['a%00b'],
}
/** Valid values for the query parameters a probe does not change (statistics need start and end). */
const QUERY_VALID: Record<string, string> = { start: '2026-01-01', end: '2026-01-02' }

/**
 * The query parameters an operation validates: every parameter set to "x", which no id, date or enum
 * accepts, so zod names each one it knows in the 400 answer.
 */
async function knownQuery(opts: InjectOptions, url: string): Promise<Set<string>> {
  const res = await app.inject({ ...opts, url: `${url}?${Object.keys(QUERY_PROBES).map((k) => `${k}=x`).join('&')}` })
  if (res.statusCode >= 500) discoveryFailures.push(`${res.statusCode} ${opts.method} ${url} ← every query parameter x`)
  return res.statusCode === 400 ? new Set(Object.keys(res.json() as object)) : new Set()
}

/** Every probe of one operation: path ids, query, installation header, bodies. */
async function probes(route: { method: string; url: string }, role: Role): Promise<{ what: string; opts: InjectOptions }[]> {
  const { method, url } = route
  const valid = fill(url, (n) => pathValue(n, method, role))
  const hasBody = method !== 'GET' && method !== 'DELETE'
  const body = hasBody ? baseBody(method, url) : undefined
  const headers = { authorization: `Bearer ${url.startsWith('/api/ingest/') ? deviceKey : tokens[role]}`, 'installation-id': '1' }
  const out: { what: string; opts: InjectOptions }[] = []
  const add = (what: string, o: Partial<InjectOptions>) =>
    out.push({ what, opts: { method: method as InjectOptions['method'], url: valid, headers, ...(body !== undefined ? { payload: body as object } : {}), ...o } })
  for (const [, name] of url.matchAll(/:(\w+)/g)) {
    const numeric = /^\d+$/.test(pathValue(name, method, role))
    for (const v of numeric ? [String(BIG), HUGE] : ['a%00b', long(300)]) add(`path ${name}=${v}`, { url: fill(url, (n) => (n === name ? v : pathValue(n, method, role))) })
  }
  add(`query installation=${BIG}`, { url: `${valid}?installation=${BIG}` })
  add('query x=a%00b', { url: `${valid}?x=a%00b` })
  const known = await knownQuery({ method: method as InjectOptions['method'], url: valid, headers, ...(body !== undefined ? { payload: body as object } : {}) }, valid)
  for (const key of known) {
    for (const v of QUERY_PROBES[key] ?? []) {
      const others = Object.entries(QUERY_VALID).filter(([k]) => k !== key && known.has(k)).map(([k, x]) => `&${k}=${x}`).join('')
      add(`query ${key}=${v}`, { url: `${valid}?${key}=${v}${others}` })
    }
  }
  add(`header installation-id=${BIG}`, { headers: { ...headers, 'installation-id': String(BIG) } })
  add(`header installation-id=${HUGE}`, { headers: { ...headers, 'installation-id': HUGE } })
  add('header x-probe=a\\0b', { headers: { ...headers, 'x-probe': NUL } })
  if (hasBody) {
    const keys = await knownKeys({ method: method as InjectOptions['method'], url: valid, headers }, body)
    for (const b of badBodies(body, keys)) add(`body ${b.what}`, { payload: b.body as object })
  }
  return out
}

describe('bad input on every API operation', () => {
  it('reads the real route table', () => {
    expect(routes.length).toBeGreaterThan(100)
  })

  for (const role of ['super', 'admin'] as const) {
    it(`answers no probe with 5xx (${role})`, async () => {
      // Access tokens live 5 minutes: a fresh one per role.
      tokens[role] = await login(app, `${role}@example.com`)
      const offenders: string[] = []
      let sent = 0
      const unauthenticated: string[] = []
      discoveryFailures.length = 0
      for (const route of routes) {
        for (const { what, opts } of await probes(route, role)) {
          sent++
          let status: number
          try {
            status = (await app.inject(opts)).statusCode
          } catch {
            continue // refused by the HTTP layer before the app (e.g. an invalid header): not a server answer
          }
          if (status >= 500) offenders.push(`${status} ${route.method} ${route.url} ← ${what}`)
          if (status === 401 && !route.url.startsWith('/api/authentication/')) unauthenticated.push(`${route.method} ${route.url} ← ${what}`)
        }
      }
      offenders.push(...discoveryFailures)
      // A probe refused for its token proves nothing: the run must stay signed in throughout.
      expect(unauthenticated.slice(0, 5)).toEqual([])
      const operations = new Set(offenders.map((o) => o.split(' ← ')[0]))
      expect(offenders, `${offenders.length} of ${sent} probes, ${operations.size} of ${routes.length} operations answered 5xx:\n${offenders.join('\n')}`).toEqual([])
    }, 600_000)
  }
})

describe('messages of the bounds', () => {
  const as = (lang: string) => ({ authorization: `Bearer ${tokens.admin}`, 'accept-language': lang })
  const rfids = '/api/cockpit/installations/1/rfids/'

  it('names the field and the bound of a too long text, in en and de', async () => {
    tokens.admin = await login(app, 'admin@example.com')
    const en = await app.inject({ method: 'POST', url: rfids, headers: as('en'), payload: { tag: 'LONG01', description: 'x'.repeat(201) } })
    expect(en.statusCode).toBe(400)
    expect(en.json()).toEqual({ description: ['Ensure the field description has no more than 200 characters.'] })
    const de = await app.inject({ method: 'POST', url: '/api/cockpit/installations/1/rates/power/', headers: as('de-CH'), payload: { name: 'x'.repeat(256), prices: {} } })
    expect(de.statusCode).toBe(400)
    expect(de.json().name).toEqual(['Das Feld name darf höchstens 255 Zeichen enthalten.'])
  })

  it('refuses NUL anywhere and control characters in a text with "The value is not valid."', async () => {
    const body = await app.inject({ method: 'POST', url: rfids, headers: as('en'), payload: { tag: 'NUL01', description: 'a\u0000b' } })
    expect([body.statusCode, body.json()]).toEqual([400, { description: ['The value is not valid.'] }])
    const nested = await app.inject({ method: 'POST', url: '/api/rfids/1/charging_stations', headers: as('fr'), payload: { device_ids: ['CS-1', 'a\u0000'] } })
    expect([nested.statusCode, nested.json()]).toEqual([400, { 'device_ids.1': ["La valeur n'est pas valide."] }])
    const query = await app.inject({ method: 'GET', url: `${rfids}?limit=5&q=%00`, headers: as('en') })
    expect([query.statusCode, query.json()]).toEqual([400, { non_field_errors: ['The value is not valid.'] }])
    const bell = await app.inject({ method: 'POST', url: rfids, headers: as('en'), payload: { tag: 'BELL01', description: 'ring\u0007' } })
    expect([bell.statusCode, bell.json()]).toEqual([400, { description: ['The value is not valid.'] }])
  })

  it('answers ids beyond 2^31−1 and year 0000 with 400 in the SPEC §5 wording', async () => {
    const path = await app.inject({ method: 'GET', url: `${rfids}${BIG}/`, headers: as('en') })
    expect([path.statusCode, path.json()]).toEqual([400, { rfidId: ['The value is not valid.'] }])
    const header = await app.inject({ method: 'GET', url: '/api/metrics/', headers: { ...as('en'), 'installation-id': String(BIG) } })
    expect([header.statusCode, header.json()]).toEqual([400, { detail: 'No installationId' }])
    const date = await app.inject({ method: 'GET', url: `/api/rfids-charge/?installation=1&start__gte=0000-01-01`, headers: as('en') })
    expect([date.statusCode, date.json()]).toEqual([400, { start__gte: ['The value is not valid.'] }])
  })
})
