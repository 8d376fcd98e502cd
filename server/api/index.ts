import type { FastifyInstance } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { authRoutes } from './auth.ts'
import { installationRoutes } from './installations.ts'
import { liveDataRoutes } from './metrics.ts'
import { userRoutes } from './users.ts'
import { accessRoutes } from './access.ts'

/** The REST API of SPEC §7 under /api (register with prefix '/api'). */
export async function apiPlugin(app: FastifyInstance, { domain }: { domain: Domain }) {
  authRoutes(app, domain)
  userRoutes(app, domain)
  installationRoutes(app, domain)
  liveDataRoutes(app, domain)
  accessRoutes(app, domain)
}
