import type { FastifyInstance } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { Invalid } from '../lib/errors.ts'
import { message, pickLang } from '../lib/messages.ts'
import { Registration, ResetConfirm, ResetRequest, ResetToken } from '../../shared/schemas/accounts.ts'
import { installationIdOf, parse } from './http.ts'

/**
 * SPEC §7 password reset (issue 3 §1): POST /password-reset/, /password-reset/validate_token/,
 * /password-reset/confirm/ and POST /users/password-reset/ (installation); registration: GET /users/can-register,
 * POST /users/register/ (installation), POST /users/user-verification/. No authentication.
 */
export function accountRoutes(app: FastifyInstance, domain: Domain) {
  const requested = (lang: string | undefined) => ({ status: 'OK' as const, detail: message('resetRequested', pickLang(lang)) })

  app.post('/password-reset/', async (req) => {
    const { email } = parse(ResetRequest, req.body)
    await domain.passwordReset.request(email)
    return requested(req.headers['accept-language'])
  })

  app.post('/users/password-reset/', async (req) => {
    const installation = installationIdOf(req)
    const { email } = parse(ResetRequest, req.body)
    await domain.passwordReset.request(email, installation)
    return requested(req.headers['accept-language'])
  })

  app.post('/password-reset/validate_token/', async (req, reply) => {
    const { token } = parse(ResetToken, req.body)
    if (await domain.passwordReset.validate(token)) return { status: 'OK' }
    return reply.code(404).send({ status: 'notfound', detail: message('resetLinkExpired', pickLang(req.headers['accept-language'])) })
  })

  // Registration (issue 3 §2).
  app.get('/users/can-register', async (req) => ({ can_register: await domain.registration.canRegister(installationIdOf(req)) }))
  app.post('/users/register/', async (req, reply) => {
    const installation = installationIdOf(req)
    await domain.registration.register(installation, parse(Registration, req.body))
    return reply.code(201).send({ detail: message('registered', pickLang(req.headers['accept-language'])) })
  })
  app.post('/users/user-verification/', async (req) => {
    const { token } = parse(ResetToken, req.body)
    await domain.registration.verify(token)
    return { status: 'OK', detail: message('verified', pickLang(req.headers['accept-language'])) }
  })

  app.post('/password-reset/confirm/', async (req) => {
    const body = parse(ResetConfirm, req.body)
    if (body.password_confirm !== undefined && body.password_confirm !== body.password) throw new Invalid({ password_confirm: ['passwordsMismatch'] })
    await domain.passwordReset.confirm(body.token, body.password)
    return { status: 'OK', detail: message('passwordChanged', pickLang(req.headers['accept-language'])) }
  })
}
