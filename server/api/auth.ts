import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { RefreshRequest, RefreshResponse, TokenRequest, TokenResponse } from '../../shared/schemas/auth.ts'
import { Id } from '../../shared/schemas/common.ts'
import { NoContent } from './openapi.ts'
import { ErrorDetail } from '../../shared/schemas/errors.ts'
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from '../domain/auth/device-cookie.ts'

/** The device cookie's value in a Cookie header (RFC 6265 §5.4), if any. */
function deviceCookieOf(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === DEVICE_COOKIE) return value.join('=')
  }
  return undefined
}

/** SPEC §7 Authentication: POST /authentication/token/, /authentication/token/refresh/ and /authentication/logout/. */
export function authRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.post(
    '/authentication/token/',
    {
      schema: {
        summary: 'Sign in: an access and a refresh token, and the installation to open (?installation= picks one)',
        security: [],
        body: TokenRequest.extend({ email: z.string().trim().min(1).max(254).pipe(z.email()) }),
        querystring: z.object({ installation: Id.optional() }),
        response: { 200: TokenResponse, 401: ErrorDetail.describe('No active account with these credentials'), 429: ErrorDetail.describe('Too many failed sign-ins: try again after Retry-After seconds') },
      },
    },
    async (req, reply) => {
      const device = deviceCookieOf(req.headers.cookie)
      const tokens = await domain.auth.login(req.body.email, req.body.password, { installation: req.query.installation, ip: req.ip, device })
      // OWASP device cookie: this browser is a known device of the account from now on (./device-cookie.ts).
      const secure = req.protocol === 'https' ? '; Secure' : ''
      reply.header('set-cookie', `${DEVICE_COOKIE}=${domain.auth.deviceCookie(req.body.email)}; Path=/api/authentication/; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict${secure}`)
      return tokens
    },
  )
  app.post(
    '/authentication/token/refresh/',
    { schema: { summary: 'A new token pair for a refresh token (rotating; reuse revokes the family)', security: [], body: RefreshRequest, response: { 200: RefreshResponse, 401: ErrorDetail.describe('The refresh token is invalid, expired or revoked') } } },
    async (req) => domain.auth.refresh(req.body.refresh),
  )
  // ARCHITECTURE §3: logout revokes the refresh token's family and denies its access tokens until they
  // expire; 204 also for a token already revoked.
  app.post(
    '/authentication/logout/',
    { schema: { summary: 'Sign out: revoke the refresh token\'s family and deny its access tokens (204 also when already revoked)', security: [], body: RefreshRequest, response: { 204: NoContent } } },
    async (req, reply) => {
      await domain.auth.logout(req.body.refresh)
      return reply.code(204).send(null)
    },
  )
}
