import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'

/**
 * An incoming X-Request-Id is kept when it looks like an id (what a proxy or a caller's trace puts
 * there: letters, digits and . _ : - up to 128 characters); anything else — absent, too long, spaces,
 * control characters that would forge log lines — gets a new UUID (RFC 9562).
 */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Fastify's genReqId: the caller's X-Request-Id when it is an id, else a random UUID. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && INCOMING_ID.test(given) ? given : crypto.randomUUID()
}

/** The relay's own polls carry this User-Agent (server/relay/upstream.ts): their lines go to debug. */
export const RELAY_USER_AGENT = 'cockpit-relay'

/**
 * Traffic that repeats by itself all day: probes, Prometheus's scrapes, the relay's polls of the API and live streams
 * (docs/operations.md "Logs": an idle installation with a wall display logs a few lines a minute at
 * info, not 90).
 */
function routine(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0]
  return path === '/api/health' || path === '/api/ready' || path === '/metrics' || path.startsWith('/live/') || req.headers['user-agent'] === RELAY_USER_AGENT
}

/**
 * One JSON line per request once it is answered (Fastify's two lines per request are off): `reqId`,
 * method, url, status, ms; at warn from status 500, at debug for routine traffic, else at info. The
 * request id is echoed as X-Request-Id so a caller can quote it to support.
 */
export function requestLog(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id)
  })
  app.addHook('onResponse', async (req, reply) => {
    const line = { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }
    if (reply.statusCode >= 500) req.log.warn(line, 'request failed')
    else if (routine(req)) req.log.debug(line, 'request')
    else req.log.info(line, 'request')
  })
}
