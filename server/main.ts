import net from 'node:net'
import { ConfigError, loadConfig } from '../config/env.ts'
import { DataDirLockedError, DataDirUnusableError } from './db/connection.ts'
import { buildApp, startBackground } from './app.ts'
import { startExitWatchdog } from './lib/exit-watchdog.ts'
import { createGateway, type Gateway } from './devices/gateway/index.ts'

/**
 * A shutdown ends within 10 s ("SIGTERM under load → exit ≤ 10 s"): a clean close normally
 * takes the HTTP grace (4 s) and the database's close; past FORCE_EXIT_MS the main thread exits with 1,
 * and should that thread be too busy to run its timer, the watchdog thread kills the process at
 * WATCHDOG_MS (SIGKILL: the embedded database then recovers from its write-ahead log at the next start).
 */
const FORCE_EXIT_MS = 9_000
const WATCHDOG_MS = 9_700

/**
 * One line for a HOST/PORT the server cannot listen on (a configuration problem, exit 2 like a bad
 * variable), or null for any other error. Codes are Node's system errors (node:net listen, getaddrinfo).
 */
function listenProblem(err: unknown, host: string, port: number): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code
  switch (code) {
    case 'EADDRINUSE':
      return `PORT ${port}: already in use on ${host}; stop the other process or choose another PORT`
    case 'EACCES':
      return `PORT ${port}: not allowed for this user on ${host}; choose a port above 1023 or run behind a proxy`
    case 'EADDRNOTAVAIL':
      return `HOST ${host}: not an address of this machine; use 0.0.0.0 (all), 127.0.0.1 or one of its own addresses`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `HOST ${host}: not a known address or host name (${code}); use 0.0.0.0 (all), 127.0.0.1 or one of its own addresses`
    default:
      return null
  }
}

/**
 * The listenProblem line for HOST/PORT, found by listening on it for a moment before the database is
 * opened (and the demo seeded, half a minute or more on a first start), or null when it can be listened
 * on (or PORT is 0, any free port). The real listen afterwards still reports what changed meanwhile.
 */
async function portProblem(host: string, port: number): Promise<string | null> {
  if (port === 0) return null
  const probe = net.createServer()
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject)
      probe.listen({ port, host, exclusive: true }, resolve)
    })
    return null
  } catch (err) {
    return listenProblem(err, host, port)
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  }
}

/** Entry point: read config, build the roles, listen, shut down gracefully on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(2)
    }
    throw err
  }
  const problem = await portProblem(config.host, config.port)
  if (problem) {
    console.error(problem)
    process.exit(2)
  }
  let app
  try {
    app = await buildApp(config)
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message)
      process.exit(3)
    }
    // A full, read-only or misnamed folder is a configuration problem: say so, like a bad variable.
    if (err instanceof DataDirUnusableError) {
      console.error(err.message)
      process.exit(2)
    }
    throw err
  }
  let closing = false
  // The facility gateway (ROLES=gateway) runs apart from the central roles: `npm start` (api, relay,
  // simulator, ocpp) never starts it. It stops before the app closes, its unsent readings kept on disk.
  let gateway: Gateway | undefined
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    startExitWatchdog(WATCHDOG_MS)
    const force = setTimeout(() => process.exit(1), FORCE_EXIT_MS)
    force.unref()
    // How long the close took (a log figure: performance.now(), not the process clock).
    const started = performance.now()
    await gateway?.stop()
    await app.close()
    app.log.info({ ms: Math.round(performance.now() - started) }, 'shut down')
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (err) {
    const line = listenProblem(err, config.host, config.port)
    if (!line) throw err
    console.error(line)
    await app.close()
    process.exit(2)
  }
  app.log.info({ roles: config.roles, demo: config.demo, database: config.databaseUrl ? 'postgres' : 'pglite' }, `Cockpit listening on http://localhost:${config.port}`)
  if (config.roles.includes('gateway') && config.gateway) {
    const gw = (gateway = createGateway({ ...config.gateway, clock: app.clock, log: app.log }))
    await gateway.start()
    // Its figures beside the process's own at GET /metrics (server/lib/metrics.ts).
    app.metrics.gauge('cockpit_gateway_readings', 'Readings of the facility gateway since start (read, sent) and on disk waiting (pending)', () => {
      const s = gw.stats()
      return { read: s.read, sent: s.sent, pending: s.pending }
    }, 'state')
    app.metrics.gauge('cockpit_gateway_read_errors', 'Device reads of the facility gateway that failed since start', () => gw.stats().readErrors)
    app.log.info({ portal: config.gateway.url, dir: config.gateway.dir }, 'gateway started')
  }
  try {
    await startBackground(app)
  } catch (err) {
    // A SIGTERM during the simulator's first backfill closes the database under it: that is the
    // shutdown under way, not a failure (it used to end the process with an unhandled rejection).
    if (!closing) throw err
  }
}

void main()
