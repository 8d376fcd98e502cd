import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { AppError } from '../lib/errors.ts'
import { Id } from '../../shared/schemas/common.ts'
import { actorOf } from './http.ts'

/** Methods that change something. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Writes that stay open on an archived installation (docs/decisions.md "Provisioning: archived
 * installations"): taking it out of the archive or deleting it, withdrawing access (memberships,
 * permission entries, display links), the caller's own shortcuts, and sending a report of its history.
 * Keyed `METHOD url` as Fastify names the route (with /api).
 */
const OPEN_WHEN_ARCHIVED: ReadonlySet<string> = new Set([
  'POST /api/cockpit/installations/:installationId/archive',
  'POST /api/cockpit/installations/:installationId/unarchive',
  'DELETE /api/cockpit/installations/:installationId/',
  'DELETE /api/cockpit/users/:userId/installations/:installationId',
  'DELETE /api/cockpit/installations/:installationId/permissions',
  'DELETE /api/cockpit/installations/:installationId/objects/permissions',
  'DELETE /api/cockpit/installations/:installationId/objects/:objectId/permissions',
  'DELETE /api/cockpit/installations/:installationId/displays/:displayId/',
  'POST /api/cockpit/installations/:installationId/shortcuts/',
  'DELETE /api/cockpit/installations/:installationId/shortcuts/:shortcutId/',
  'POST /api/cockpit/installations/:installationId/reports/dispatch',
])

/** Does the route take its installation from the `installation-id` header or `installation` query (InstallationScope)? */
function scopedByHeader(req: FastifyRequest): boolean {
  const qs = (req.routeOptions.schema as { querystring?: { shape?: Record<string, unknown> } } | undefined)?.querystring
  return !!qs?.shape && 'installation' in qs.shape
}

/** The installation a write goes to, or undefined when the route is not installation-scoped. */
async function installationOfWrite(domain: Domain, req: FastifyRequest): Promise<number | undefined> {
  const params = (req.params ?? {}) as Record<string, unknown>
  const body = (req.body ?? {}) as Record<string, unknown>
  if (typeof params.installationId === 'number') return params.installationId
  if (typeof params.rfidId === 'number') return domain.rfids.installationOf(params.rfidId)
  if (typeof params.stationId === 'number') return domain.stations.installationOf(params.stationId)
  // Adding a user to an installation names it in the body.
  if (req.routeOptions.url === '/api/cockpit/users/:userId/installations/' && typeof body.installation_id === 'number') return body.installation_id
  if (scopedByHeader(req)) {
    const raw = req.headers['installation-id'] ?? (req.query as Record<string, unknown> | undefined)?.installation
    const id = Id.safeParse(Array.isArray(raw) ? raw[0] : raw)
    return id.success ? id.data : undefined
  }
  return undefined
}

/**
 * An archived installation is read-only (docs/decisions.md "Provisioning: archived installations"):
 * every write to it, through any route (stations, RFIDs, rates, tariffs, timers, users' roles and
 * permissions, objects, meters, settings, reports, display links…), answers 409 installationArchived
 * in the caller's language, except the ones in {@link OPEN_WHEN_ARCHIVED}. Runs before the handler,
 * after sign-in and validation; the caller's role is checked first (404 unknown, 403 without a role),
 * so the refusal tells nothing about installations the caller has no part in. The archive state is
 * read uncached (archiving does not move the rights revision).
 */
export function refuseWritesWhenArchived(app: FastifyInstance, domain: Domain): void {
  app.addHook('preHandler', async (req) => {
    if (!WRITES.has(req.method) || !req.routeOptions.url) return
    const security = (req.routeOptions.schema as { security?: unknown[] } | undefined)?.security
    if (Array.isArray(security) && security.length === 0) return
    if (OPEN_WHEN_ARCHIVED.has(`${req.method} ${req.routeOptions.url}`)) return
    const id = await installationOfWrite(domain, req)
    if (id === undefined) return
    await domain.installations.requireRole(await actorOf(domain, req), id)
    if (await domain.installations.isArchived(id)) throw new AppError(409, 'installationArchived')
  })
}
