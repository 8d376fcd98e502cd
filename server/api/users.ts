import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery } from '../../shared/schemas/common.ts'
import { ActiveChange, EmailChange, EmailUndo, ManagedUser, MemberRole, MembershipAdd, MembershipChange, NewUser, PasswordChange, PendingInvitation, SuperuserChange, UserDetails, UserDetailsPatch, UserRoleFilter } from '../../shared/schemas/accounts.ts'
import { User } from '../../shared/schemas/auth.ts'
import { Page } from '../../shared/schemas/common.ts'
import { Invalid, NotFound } from '../lib/errors.ts'
import { message, pickLang } from '../lib/messages.ts'
import { actorOf, installationIdOf } from './http.ts'
import { InstallationScope, NoContent, superusersOnly } from './openapi.ts'
import { permissionRoutes } from './permissions.ts'
import { ErrorDetail } from '../../shared/schemas/errors.ts'
import { legalRoutes } from './legal.ts'

/**
 * SPEC §7 users, own account: GET, PUT, PATCH, DELETE /users/{id}/, PUT /users/{id}/email (and its
 * confirmation POST /users/email/confirm/, not in SPEC §7: docs/decisions.md),
 * PUT /users/password/. Rights: see server/domain/users/service.ts.
 */
export function userRoutes(fastify: FastifyInstance, domain: Domain) {
  userManagementRoutes(fastify, domain)
  permissionRoutes(fastify, domain)
  legalRoutes(fastify, domain)
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const params = z.object({ id: Id })

  app.get('/users/:id/', { schema: { summary: 'A user (oneself, or a user an admin manages)', params, response: { 200: User } } }, async (req) =>
    domain.users.get(await actorOf(domain, req), req.params.id),
  )

  app.put('/users/:id/', { schema: { summary: "Replace a user's details", params, body: UserDetails, response: { 200: User } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.users.update(actor, req.params.id, req.body)
  })

  app.patch('/users/:id/', { schema: { summary: "Change some of a user's details", params, body: UserDetailsPatch, response: { 200: User } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.users.update(actor, req.params.id, req.body)
  })

  app.delete('/users/:id/', { schema: { summary: 'Delete a user account', params, response: { 204: NoContent } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    await domain.users.remove(actor, req.params.id)
    return reply.code(204).send(null)
  })

  app.put(
    '/users/:id/email',
    {
      schema: {
        summary: "Ask for a new sign-in e-mail address: it changes once confirmed from the link mailed to it (one's own needs the current password)",
        params,
        body: EmailChange,
        response: { 202: z.object({ status: z.literal('OK'), detail: z.string() }) },
      },
    },
    async (req, reply) => {
      const actor = await actorOf(domain, req)
      await domain.users.changeEmail(actor, req.params.id, req.body.email, req.body.password)
      return reply.code(202).send({ status: 'OK' as const, detail: message('emailConfirmSent', pickLang(req.headers['accept-language'])) })
    },
  )

  app.post(
    '/users/email/confirm/',
    {
      schema: {
        summary: 'Confirm a new sign-in e-mail address with the link mailed to it (the previous address is mailed an undo link)',
        security: [],
        body: EmailUndo,
        response: { 200: z.object({ status: z.literal('OK'), detail: z.string() }), 404: ErrorDetail.describe('The link expired, was used or is unknown') },
      },
    },
    async (req) => {
      await domain.emailChange.confirm(req.body.token)
      return { status: 'OK' as const, detail: message('emailConfirmed', pickLang(req.headers['accept-language'])) }
    },
  )

  app.post(
    '/users/email/undo/',
    {
      schema: {
        summary: 'Restore the previous sign-in address with the link mailed to it (ends every session)',
        security: [],
        body: EmailUndo,
        response: { 200: z.object({ status: z.literal('OK'), detail: z.string() }), 404: ErrorDetail.describe('The link expired, was used or is unknown') },
      },
    },
    async (req) => {
      await domain.emailChange.undo(req.body.token)
      return { status: 'OK' as const, detail: message('emailRestored', pickLang(req.headers['accept-language'])) }
    },
  )

  /** Answers `{detail, access, refresh}`: the caller's new token pair (every other session has ended). */
  app.put(
    '/users/password/',
    { schema: { summary: 'Change the own password (ends every other session; answers a new token pair)', body: PasswordChange, response: { 200: z.object({ detail: z.string(), access: z.string(), refresh: z.string() }) } } },
    async (req) => {
      const actor = await actorOf(domain, req)
      const body = req.body
      if (body.new_password_confirm !== undefined && body.new_password_confirm !== body.new_password) {
        throw new Invalid({ new_password_confirm: ['passwordsMismatch'] })
      }
      const tokens = await domain.auth.changePassword(actor, body.old_password, body.new_password)
      return { detail: message('passwordChanged', pickLang(req.headers['accept-language'])), ...tokens }
    },
  )
}

/**
 * SPEC §7 user management for installation admins and superusers: GET /cockpit/users/,
 * GET /cockpit/users/installation/{installation_id}, POST /users/create/, POST /users/{user_id}/active,
 * POST /users/{user_id}/send-welcome-email, /cockpit/users/{user_id}/installations/ CRUD, and
 * PUT /cockpit/users/{user_id}/superuser (superusers only; not in SPEC §7, see docs/decisions.md), and the
 * pending invitations GET /cockpit/users/invitations/, POST …/{invitation_id}/resend, DELETE …/{invitation_id}
 * (not in SPEC §7: docs/decisions.md "Accounts: pending invitations").
 */
export function userManagementRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const m = domain.userManagement
  const params = z.object({ userId: Id })
  const ListUsers = z.object({
    role: UserRoleFilter.optional(),
    installation: Id.optional(),
    ...ListQuery.shape,
  })
  const Membership = z.object({ id: z.number().int(), role: MemberRole })
  const NamedMembership = Membership.extend({ name: z.string() })

  app.get('/cockpit/users/', { schema: { summary: "Users of the caller's installations (role filter; installation query or header)", querystring: ListUsers, response: { 200: Page(ManagedUser) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    const q = req.query
    const header = req.headers['installation-id']
    return m.list(actor, { ...q, installation: q.installation ?? (header ? installationIdOf(req) : undefined) })
  })
  app.get('/cockpit/users/installation/:installationId', { schema: { summary: 'Users of one installation', params: z.object({ installationId: Id }), response: { 200: z.array(ManagedUser) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return m.ofInstallation(actor, req.params.installationId)
  })
  app.get('/cockpit/users/:userId/', { schema: { summary: 'One managed user', params, response: { 200: ManagedUser } } }, async (req) => m.get(await actorOf(domain, req), req.params.userId))

  app.post('/users/create/', { schema: { summary: 'Create a user in the installation', querystring: InstallationScope, body: NewUser, response: { 201: ManagedUser } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    const installation = installationIdOf(req)
    const created = await m.create(actor, installation, req.body)
    return reply.code(201).send(created)
  })
  app.post('/users/:userId/active', { schema: { summary: 'Activate or deactivate a user (optionally from a date)', params, body: ActiveChange, response: { 200: ManagedUser } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return m.setActive(actor, req.params.userId, req.body.active, req.body.date ?? undefined)
  })
  app.post(
    '/users/:userId/send-welcome-email',
    { schema: { summary: 'Send the welcome mail again', params, querystring: InstallationScope, response: { 200: z.object({ detail: z.string() }) } } },
    async (req) => {
      const actor = await actorOf(domain, req)
      const raw = req.headers['installation-id'] ?? req.query.installation
      await m.sendWelcome(actor, req.params.userId, raw ? installationIdOf(req) : undefined)
      return { detail: message('welcomeSent', pickLang(req.headers['accept-language'])) }
    },
  )
  app.put('/cockpit/users/:userId/superuser', { schema: { summary: 'Grant or withdraw superuser rights (superusers)', security: superusersOnly, params, body: SuperuserChange, response: { 200: ManagedUser } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return m.setSuperuser(actor, req.params.userId, req.body.is_superuser)
  })

  // Pending invitations of existing accounts (docs/decisions.md "Accounts: pending invitations").
  const invitationParams = z.object({ invitationId: Id })
  app.get('/cockpit/users/invitations/', { schema: { summary: "The installation's invitations not accepted yet", querystring: InstallationScope, response: { 200: z.array(PendingInvitation) } } }, async (req) =>
    domain.invitations.pending(await actorOf(domain, req), installationIdOf(req)),
  )
  app.post(
    '/cockpit/users/invitations/:invitationId/resend',
    { schema: { summary: 'Send an invitation again with a new link (the previous link stops working)', params: invitationParams, querystring: InstallationScope, response: { 200: PendingInvitation } } },
    async (req) => domain.invitations.resend(await actorOf(domain, req), installationIdOf(req), req.params.invitationId),
  )
  app.delete(
    '/cockpit/users/invitations/:invitationId',
    { schema: { summary: 'Withdraw an invitation (its link stops working)', params: invitationParams, querystring: InstallationScope, response: { 204: NoContent } } },
    async (req, reply) => {
      await domain.invitations.revoke(await actorOf(domain, req), installationIdOf(req), req.params.invitationId)
      return reply.code(204).send(null)
    },
  )

  const memberParams = z.object({ userId: Id, installationId: Id })
  app.get('/cockpit/users/:userId/installations/', { schema: { summary: "A user's memberships in the caller's installations", params, response: { 200: z.array(NamedMembership) } } }, async (req) =>
    m.memberships(await actorOf(domain, req), req.params.userId),
  )
  app.post('/cockpit/users/:userId/installations/', { schema: { summary: 'Add a user to an installation', params, body: MembershipAdd, response: { 201: Membership } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await m.setMembership(actor, req.params.userId, req.body.installation_id, req.body.role))
  })
  app.get('/cockpit/users/:userId/installations/:installationId', { schema: { summary: 'One membership', params: memberParams, response: { 200: NamedMembership } } }, async (req) => {
    const actor = await actorOf(domain, req)
    const found = (await m.memberships(actor, req.params.userId)).find((x) => x.id === req.params.installationId)
    if (!found) throw NotFound()
    return found
  })
  for (const method of ['put', 'patch'] as const) {
    app[method]('/cockpit/users/:userId/installations/:installationId', { schema: { summary: "Change a user's role in an installation", params: memberParams, body: MembershipChange, response: { 200: Membership } } }, async (req) => {
      const actor = await actorOf(domain, req)
      return m.changeMembership(actor, req.params.userId, req.params.installationId, req.body.role)
    })
  }
  app.delete('/cockpit/users/:userId/installations/:installationId', { schema: { summary: 'Remove a user from an installation', params: memberParams, response: { 204: NoContent } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    await m.removeMembership(actor, req.params.userId, req.params.installationId)
    return reply.code(204).send(null)
  })
}
