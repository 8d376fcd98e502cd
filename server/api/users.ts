import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { ActiveChange, EmailChange, MembershipAdd, MembershipChange, NewUser, PasswordChange, SuperuserChange, UserDetails, UserDetailsPatch, UserRoleFilter } from '../../shared/schemas/accounts.ts'
import { Invalid, NotFound } from '../lib/errors.ts'
import { message, pickLang } from '../lib/messages.ts'
import { actorOf, installationIdOf, parse } from './http.ts'
import { permissionRoutes } from './permissions.ts'
import { legalRoutes } from './legal.ts'

/**
 * SPEC §7 users, own account (issue 3 §3): GET, PUT, PATCH, DELETE /users/{id}/, PUT /users/{id}/email,
 * PUT /users/password/. Rights: see server/domain/users/service.ts.
 */
export function userRoutes(app: FastifyInstance, domain: Domain) {
  userManagementRoutes(app, domain)
  permissionRoutes(app, domain)
  legalRoutes(app, domain)
  const idOf = (params: unknown) => parse(z.object({ id: Id }), params).id

  app.get('/users/:id/', async (req) => domain.users.get(await actorOf(domain, req), idOf(req.params)))

  app.put('/users/:id/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.users.update(actor, idOf(req.params), parse(UserDetails, req.body))
  })

  app.patch('/users/:id/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.users.update(actor, idOf(req.params), parse(UserDetailsPatch, req.body))
  })

  app.delete('/users/:id/', async (req, reply) => {
    const actor = await actorOf(domain, req)
    await domain.users.remove(actor, idOf(req.params))
    return reply.code(204).send()
  })

  app.put('/users/:id/email', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.users.changeEmail(actor, idOf(req.params), parse(EmailChange, req.body).email)
  })

  /** Answers `{detail, access, refresh}`: the caller's new token pair (every other session has ended). */
  app.put('/users/password/', async (req) => {
    const actor = await actorOf(domain, req)
    const body = parse(PasswordChange, req.body)
    if (body.new_password_confirm !== undefined && body.new_password_confirm !== body.new_password) {
      throw new Invalid({ new_password_confirm: ['passwordsMismatch'] })
    }
    const tokens = await domain.auth.changePassword(actor, body.old_password, body.new_password)
    return { detail: message('passwordChanged', pickLang(req.headers['accept-language'])), ...tokens }
  })
}

/**
 * SPEC §7 user management (issue 3 §4) for installation admins and superusers: GET /cockpit/users/,
 * GET /cockpit/users/installation/{installation_id}, POST /users/create/, POST /users/{user_id}/active,
 * POST /users/{user_id}/send-welcome-email, /cockpit/users/{user_id}/installations/ CRUD, and
 * PUT /cockpit/users/{user_id}/superuser (superusers only; not in SPEC §7, see docs/decisions.md).
 */
export function userManagementRoutes(app: FastifyInstance, domain: Domain) {
  const m = domain.userManagement
  const userIdOf = (params: unknown) => parse(z.object({ userId: Id }), params).userId
  const ListUsers = z.object({
    role: UserRoleFilter.optional(),
    installation: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    offset: z.coerce.number().int().min(0).default(0),
  })

  app.get('/cockpit/users/', async (req) => {
    const actor = await actorOf(domain, req)
    const q = parse(ListUsers, req.query)
    const header = req.headers['installation-id']
    return m.list(actor, { ...q, installation: q.installation ?? (header ? installationIdOf(req) : undefined) })
  })
  app.get('/cockpit/users/installation/:installationId', async (req) => {
    const actor = await actorOf(domain, req)
    return m.ofInstallation(actor, parse(z.object({ installationId: Id }), req.params).installationId)
  })
  app.get('/cockpit/users/:userId/', async (req) => m.get(await actorOf(domain, req), userIdOf(req.params)))

  app.post('/users/create/', async (req, reply) => {
    const actor = await actorOf(domain, req)
    const installation = installationIdOf(req)
    const created = await m.create(actor, installation, parse(NewUser, req.body))
    return reply.code(201).send(created)
  })
  app.post('/users/:userId/active', async (req) => {
    const actor = await actorOf(domain, req)
    const body = parse(ActiveChange, req.body)
    return m.setActive(actor, userIdOf(req.params), body.active, body.date ?? undefined)
  })
  app.post('/users/:userId/send-welcome-email', async (req) => {
    const actor = await actorOf(domain, req)
    const raw = req.headers['installation-id'] ?? (req.query as Record<string, unknown>).installation
    await m.sendWelcome(actor, userIdOf(req.params), raw ? installationIdOf(req) : undefined)
    return { detail: message('welcomeSent', pickLang(req.headers['accept-language'])) }
  })
  app.put('/cockpit/users/:userId/superuser', async (req) => {
    const actor = await actorOf(domain, req)
    return m.setSuperuser(actor, userIdOf(req.params), parse(SuperuserChange, req.body).is_superuser)
  })

  const memberParams = z.object({ userId: Id, installationId: Id })
  app.get('/cockpit/users/:userId/installations/', async (req) => m.memberships(await actorOf(domain, req), userIdOf(req.params)))
  app.post('/cockpit/users/:userId/installations/', async (req, reply) => {
    const actor = await actorOf(domain, req)
    const body = parse(MembershipAdd, req.body)
    return reply.code(201).send(await m.setMembership(actor, userIdOf(req.params), body.installation_id, body.role))
  })
  app.get('/cockpit/users/:userId/installations/:installationId', async (req) => {
    const actor = await actorOf(domain, req)
    const p = parse(memberParams, req.params)
    const found = (await m.memberships(actor, p.userId)).find((x) => x.id === p.installationId)
    if (!found) throw NotFound()
    return found
  })
  for (const method of ['put', 'patch'] as const) {
    app[method]('/cockpit/users/:userId/installations/:installationId', async (req) => {
      const actor = await actorOf(domain, req)
      const p = parse(memberParams, req.params)
      return m.setMembership(actor, p.userId, p.installationId, parse(MembershipChange, req.body).role)
    })
  }
  app.delete('/cockpit/users/:userId/installations/:installationId', async (req, reply) => {
    const actor = await actorOf(domain, req)
    const p = parse(memberParams, req.params)
    await m.removeMembership(actor, p.userId, p.installationId)
    return reply.code(204).send()
  })
}
