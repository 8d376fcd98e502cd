import http from 'node:http'
import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Access } from '../../shared/rules/permissions.ts'

/** One answer of the stub: HTTP status and JSON body. */
export interface StubAnswer {
  status: number
  body: unknown
}

/** A 200 with `body`. */
export const ok = (body: unknown): StubAnswer => ({ status: 200, body })

/** The access answer of an installation admin who sees everything (GET …/installations/{id}/access). */
export const adminAccess = (userId: number, installationId = 1): StubAnswer =>
  ok({ user_id: userId, installation_id: installationId, role: 'installation_admin', cost: true, overview: true, stations: 'all', rfids: 'all' } satisfies Access)

/** The metrics body of installation 1 with grid power `powerKw` and no charging. */
export const metricsBody = (powerKw: number, extra: Record<string, unknown> = {}) =>
  ({ installation_id: 1, ...extra, grid: { power_kw: powerKw }, charging_stations: { power_kw: 0, stations: {} } })

/**
 * The routes of a stub API the relay talks to. The relay only speaks HTTP to its upstream (ARCHITECTURE
 * relay role), so a stub with the same contract shows what it sends and how it copes with what comes
 * back. Each handler may be async (a slow API); anything unrouted answers 404.
 */
export interface StubRoutes {
  /** POST /api/authentication/token/: the relay's own sign-in (default: fixed tokens). */
  token?: () => StubAnswer
  /** GET /api/cockpit/installations/{id}/access with the caller's bearer token (without "Bearer "). */
  access: (token: string, installationId: number, req: IncomingMessage) => StubAnswer | Promise<StubAnswer>
  /** GET /api/metrics/?installation={id}: the relay's poll. */
  metrics: (req: IncomingMessage) => StubAnswer | Promise<StubAnswer>
  /** Any other path; undefined falls through to 404. */
  other?: (req: IncomingMessage) => StubAnswer | Promise<StubAnswer> | undefined
}

/**
 * Start a stub upstream API on a free port of 127.0.0.1 (shared by the relay tests instead of one copy
 * each). Returns `upstreamUrl` (…/api, for startApp's `upstreamUrl`) and `close`.
 */
export async function startStubUpstream(routes: StubRoutes): Promise<{ upstreamUrl: string; close: () => Promise<void> }> {
  const route = (req: IncomingMessage): StubAnswer | Promise<StubAnswer> => {
    const url = req.url ?? ''
    if (url === '/api/authentication/token/') return routes.token?.() ?? ok({ access: 'relay-access', refresh: 'relay-refresh', installation_id: 1 })
    const access = /^\/api\/cockpit\/installations\/(\d+)\/access$/.exec(url.split('?')[0])
    if (access) return routes.access(String(req.headers.authorization ?? '').replace(/^Bearer /, ''), Number(access[1]), req)
    if (url.startsWith('/api/metrics/')) return routes.metrics(req)
    return routes.other?.(req) ?? { status: 404, body: { detail: 'Not found.' } }
  }
  const server = http.createServer((req, res) => {
    void Promise.resolve(route(req)).then(({ status, body }) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    upstreamUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections()
      server.close(() => r())
    }),
  }
}
