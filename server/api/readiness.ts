import type { FastifyInstance } from 'fastify'
import { sql, type Kysely } from 'kysely'
import type { Clock } from '../lib/clock.ts'

/** A readiness check: resolves to null when fine, else a sentence naming what fails and what to look at. */
export type ReadinessCheck = () => Promise<string | null>

/** How long one check may take before it counts as failed (a load balancer's probe times out at ~5 s). */
const CHECK_TIMEOUT_MS = 2_000

/** `check`, failed with "no answer within 2 s" when it hangs (a database that stopped answering). */
async function bounded(check: ReadinessCheck): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`), CHECK_TIMEOUT_MS)
  })
  try {
    return await Promise.race([check().catch((err: Error) => err.message || String(err)), late])
  } finally {
    clearTimeout(timer)
  }
}

/** The database answers a statement (a stopped Postgres, a full disk's crashed worker). */
export const databaseCheck = (db: Kysely<never>): ReadinessCheck => async () => {
  await sql`select 1`.execute(db)
  return null
}

/**
 * GET /api/health (liveness: the process runs and answers; every role, so the image's HEALTHCHECK
 * works for ROLES=ocpp or simulator alone) and GET /api/ready (readiness: the background start is done
 * and every check of this process's roles passes; docs/operations.md "Health and readiness").
 * Ready: 200 {status: 'ready', checks: {name: 'ok'}}. Not: 503 {status: 'starting' | 'unready',
 * checks: {name: 'ok' | what fails}}, so a load balancer sends users elsewhere and an operator reads why.
 */
export function readinessRoutes(app: FastifyInstance, { clock, roles, checks }: { clock: Clock; roles: readonly string[]; checks: Record<string, ReadinessCheck> }) {
  app.get('/api/health', async () => ({ status: 'ok', now: clock.now().toISOString(), roles }))
  let lastFailures = '[]'
  app.get('/api/ready', async (_req, reply) => {
    const names = Object.keys(checks)
    const results = await Promise.all(names.map((n) => bounded(checks[n])))
    const answer: Record<string, string> = {}
    names.forEach((n, i) => (answer[n] = results[i] ?? 'ok'))
    if (!app.started) return reply.code(503).send({ status: 'starting', checks: answer })
    // Logged when what fails changes, not at every probe.
    const failures = JSON.stringify(names.filter((_, i) => results[i] !== null).map((n) => [n, answer[n]]))
    if (app.started && failures !== lastFailures) {
      if (failures === '[]') app.log.info('ready again')
      else app.log.warn({ checks: answer }, 'not ready')
      lastFailures = failures
    }
    if (results.some((r) => r !== null)) return reply.code(503).send({ status: 'unready', checks: answer })
    return { status: 'ready', checks: answer }
  })
}
