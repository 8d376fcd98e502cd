import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Invalid } from '../lib/errors.ts'
import { message, pickLang } from '../lib/messages.ts'
import { Registration, ResetConfirm, ResetRequest, ResetRequested, ResetToken } from '../../shared/schemas/accounts.ts'
import { installationIdOf } from './http.ts'
import { InstallationScope } from './openapi.ts'

const Ok = z.object({ status: z.literal('OK'), detail: z.string() })

/**
 * SPEC §7 password reset: POST /password-reset/, /password-reset/validate_token/,
 * /password-reset/confirm/ and POST /users/password-reset/ (installation); registration: GET /users/can-register,
 * POST /users/register/ (installation), POST /users/user-verification/; POST /users/invitation/accept/ (an existing
 * account joins the installation that invited it, docs/decisions.md "Accounts: creating a user whose address has an
 * account elsewhere"). No authentication.
 */
export function accountRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const requested = (lang: string | undefined) => ({ status: 'OK' as const, detail: message('resetRequested', pickLang(lang)) })

  app.post('/password-reset/', { schema: { summary: 'Mail a password reset link (same answer whether or not the address exists)', security: [], body: ResetRequest, response: { 200: ResetRequested } } }, async (req) => {
    // Answered before the work: the address is looked up and mailed in the background.
    domain.passwordReset.request(req.body.email)
    return requested(req.headers['accept-language'])
  })

  app.post(
    '/users/password-reset/',
    { schema: { summary: "Mail a password reset link with the installation's branding", security: [], querystring: InstallationScope, body: ResetRequest, response: { 200: ResetRequested } } },
    async (req) => {
      const installation = installationIdOf(req)
      domain.passwordReset.request(req.body.email, installation)
      return requested(req.headers['accept-language'])
    },
  )

  app.post(
    '/password-reset/validate_token/',
    {
      schema: {
        summary: 'Whether a reset token is usable',
        security: [],
        body: ResetToken,
        response: { 200: z.object({ status: z.literal('OK') }), 404: z.object({ status: z.literal('notfound'), detail: z.string() }).describe('The link expired or is unknown.') },
      },
    },
    async (req, reply) => {
      if (await domain.passwordReset.validate(req.body.token)) return { status: 'OK' as const }
      return reply.code(404).send({ status: 'notfound', detail: message('resetLinkExpired', pickLang(req.headers['accept-language'])) })
    },
  )

  // Registration.
  app.get('/users/can-register', { schema: { summary: 'Whether residents may register for the installation', security: [], querystring: InstallationScope, response: { 200: z.object({ can_register: z.boolean() }) } } }, async (req) => ({
    can_register: await domain.registration.canRegister(installationIdOf(req)),
  }))
  app.post(
    '/users/register/',
    { schema: { summary: 'Register an account for the installation (mails a verification link)', security: [], querystring: InstallationScope, body: Registration, response: { 201: z.object({ detail: z.string() }) } } },
    async (req, reply) => {
      const installation = installationIdOf(req)
      await domain.registration.register(installation, req.body)
      return reply.code(201).send({ detail: message('registered', pickLang(req.headers['accept-language'])) })
    },
  )
  app.post('/users/user-verification/', { schema: { summary: 'Verify a registered e-mail address', security: [], body: ResetToken, response: { 200: Ok } } }, async (req) => {
    await domain.registration.verify(req.body.token)
    return { status: 'OK' as const, detail: message('verified', pickLang(req.headers['accept-language'])) }
  })

  app.post(
    '/users/invitation/accept/',
    { schema: { summary: 'Accept an invitation of one\'s existing account to an installation (the token from the mail)', security: [], body: ResetToken, response: { 200: Ok.extend({ installation_id: z.number().int(), installation_name: z.string() }) } } },
    async (req) => {
      const { installation_id, installation_name } = await domain.invitations.accept(req.body.token)
      return { status: 'OK' as const, detail: message('invitationAccepted', pickLang(req.headers['accept-language'])), installation_id, installation_name }
    },
  )

  app.post('/password-reset/confirm/', { schema: { summary: 'Set a new password with a reset token', security: [], body: ResetConfirm, response: { 200: Ok } } }, async (req) => {
    const body = req.body
    if (body.password_confirm !== undefined && body.password_confirm !== body.password) throw new Invalid({ password_confirm: ['passwordsMismatch'] })
    await domain.passwordReset.confirm(body.token, body.password)
    return { status: 'OK' as const, detail: message('passwordChanged', pickLang(req.headers['accept-language'])) }
  })
}
