import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { PermissionFilter, PermissionKey, PermissionSet } from '../../shared/schemas/permissions.ts'
import { actorOf, parse } from './http.ts'

/**
 * SPEC §7 permissions (issue 3 §5), all under /cockpit/installations/{installationId}/:
 * - permissions: GET (filters user_id, object_type, object_id), PUT, PATCH, DELETE (object_id, object_type, user_id);
 * - objects/{object_id}/permissions: the same for one object node (object_type "object");
 * - objects/permissions: the same for all object nodes.
 * PUT/PATCH answer the entry, or `{"deleted": true}` when the level was none (SPEC §5).
 */
export function permissionRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/cockpit/installations/:installationId'
  const p = domain.permissions
  const installationOf = (req: FastifyRequest) => parse(z.object({ installationId: Id }), req.params).installationId
  const objectOf = (req: FastifyRequest) => parse(z.object({ objectId: Id }), req.params).objectId
  const source = (req: FastifyRequest) => ({ ...(req.query as object), ...((req.body as object | undefined) ?? {}) })

  /** Register GET/PUT/PATCH/DELETE on `path`; `fixed` pins object_type/object_id for the object routes. */
  function crud(path: string, fixed: (req: FastifyRequest) => Record<string, unknown>) {
    app.get(path, async (req) => {
      const actor = await actorOf(domain, req)
      return p.list(actor, installationOf(req), parse(PermissionFilter, { ...(req.query as object), ...fixed(req) }))
    })
    const write = async (req: FastifyRequest) => {
      const actor = await actorOf(domain, req)
      const saved = await p.set(actor, installationOf(req), parse(PermissionSet, { ...((req.body as object | undefined) ?? {}), ...fixed(req) }))
      return saved ?? { deleted: true }
    }
    app.put(path, write)
    app.patch(path, write)
    app.delete(path, async (req, reply: FastifyReply) => {
      const actor = await actorOf(domain, req)
      await p.remove(actor, installationOf(req), parse(PermissionKey, { ...source(req), ...fixed(req) }))
      return reply.code(204).send()
    })
  }

  crud(`${base}/permissions`, () => ({}))
  crud(`${base}/objects/permissions`, () => ({ object_type: 'object' }))
  crud(`${base}/objects/:objectId/permissions`, (req) => ({ object_type: 'object', object_id: objectOf(req) }))
}
