import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { Permission, PermissionFilter, PermissionKey, PermissionSet } from '../../shared/schemas/permissions.ts'
import { actorOf, parse } from './http.ts'
import { NoContent } from './openapi.ts'

type Pinned = { object_type?: 'object'; object_id?: number }

/**
 * SPEC §7 permissions, all under /cockpit/installations/{installationId}/:
 * - permissions: GET (filters user_id, object_type, object_id), PUT, PATCH, DELETE (object_id, object_type, user_id);
 * - objects/{object_id}/permissions: the same for one object node (object_type "object");
 * - objects/permissions: the same for all object nodes.
 * PUT/PATCH answer the entry, or `{"deleted": true}` when the level was none (SPEC §5).
 */
export function permissionRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId'
  const p = domain.permissions
  const Saved = z.union([Permission, z.object({ deleted: z.literal(true) }).describe('The level was none: the entry is gone.')])

  /**
   * Register GET/PUT/PATCH/DELETE on `path`; `pin` fixes object_type/object_id for the object routes
   * (those fields are then optional in the body and overridden).
   */
  function crud<P extends z.ZodObject<{ installationId: typeof Id }>>(path: string, params: P, pinned: (keyof Pinned)[], pin: (params: z.infer<P>) => Pinned) {
    const loose = Object.fromEntries(pinned.map((k) => [k, true])) as { object_type?: true; object_id?: true }
    const Body = PermissionSet.partial(loose)
    app.get(path, { schema: { summary: 'Permission entries (filters user_id, object_type, object_id)', params, querystring: PermissionFilter, response: { 200: z.array(Permission) } } }, async (req) => {
      const actor = await actorOf(domain, req)
      const ps = req.params as z.infer<P>
      const pinnedKey = pinned.includes('object_id') ? (pin(ps) as Required<Pick<Pinned, 'object_type' | 'object_id'>>) : undefined
      return p.list(actor, ps.installationId, { ...req.query, ...pin(ps) }, pinnedKey)
    })
    for (const method of ['put', 'patch'] as const) {
      app[method](path, { schema: { summary: 'Set a permission entry (level none deletes it)', params, body: Body, response: { 200: Saved } } }, async (req) => {
        const actor = await actorOf(domain, req)
        const ps = req.params as z.infer<P>
        const saved = await p.set(actor, ps.installationId, { ...req.body, ...pin(ps) } as z.infer<typeof PermissionSet>)
        return saved ?? { deleted: true as const }
      })
    }
    // The key may come in the query or the body (SPEC §7); completeness is checked on the merge.
    app.delete(
      path,
      { schema: { summary: 'Delete a permission entry (key in the query or the body)', params, querystring: PermissionFilter, body: PermissionFilter.optional(), response: { 204: NoContent } } },
      async (req, reply) => {
        const actor = await actorOf(domain, req)
        const ps = req.params as z.infer<P>
        await p.remove(actor, ps.installationId, parse(PermissionKey, { ...req.query, ...(req.body ?? {}), ...pin(ps) }))
        return reply.code(204).send(null)
      },
    )
  }

  crud(`${base}/permissions`, z.object({ installationId: Id }), [], () => ({}))
  crud(`${base}/objects/permissions`, z.object({ installationId: Id }), ['object_type'], () => ({ object_type: 'object' }))
  crud(`${base}/objects/:objectId/permissions`, z.object({ installationId: Id, objectId: Id }), ['object_type', 'object_id'], (ps) => ({ object_type: 'object', object_id: (ps as { objectId: number }).objectId }))
}
