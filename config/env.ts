import { z } from 'zod'
import path from 'node:path'
import net from 'node:net'
import { OCPP, POLL_INTERVALS_MS, RELAY, SIMULATOR } from './defaults.ts'
import type { Clock } from '../server/lib/clock.ts'
import { isStrongPassword } from '../shared/rules/password.ts'

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'], { message: 'use on or off' })
  .transform((v) => ['on', 'true', '1', 'yes'].includes(v))

const ROLE_NAMES = ['api', 'relay', 'simulator', 'ocpp', 'gateway'] as const
export type Role = (typeof ROLE_NAMES)[number]

const interval = (fallback: number) => z.coerce.number().int().min(500).max(86_400_000).default(fallback)

/** An IPv4/IPv6 address, optionally with a CIDR prefix length that fits its family. */
const isAddressOrCidr = (entry: string) => {
  const [address, bits, extra] = entry.split('/')
  const family = net.isIP(address)
  if (!family || extra !== undefined) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

/**
 * TRUST_PROXY (ARCHITECTURE §3): unset → trust nobody (the socket's address is the client); a hop count
 * (e.g. `1`) → trust that many proxies in front; or a comma list of proxy addresses/CIDRs. Fastify's
 * `trustProxy` takes both forms as they are.
 */
const TrustProxy = z
  .string()
  .trim()
  .refine((v) => /^[1-9]\d{0,1}$/.test(v) || v.split(',').every((e) => isAddressOrCidr(e.trim())), {
    message: 'use a hop count (1-99) or a comma list of proxy addresses/CIDRs, e.g. 10.0.0.1,192.168.0.0/16',
  })
  .transform((v): number | string[] => (/^\d+$/.test(v) ? Number(v) : v.split(',').map((e) => e.trim())))
  .optional()

/**
 * The ports the WHATWG Fetch standard blocks (§2.9 "Port blocking", the "bad port" list). Browsers refuse
 * to open a page on them and Node's fetch refuses to reach them, so a cockpit listening on one is
 * unreachable from a browser and its in-process relay cannot poll its own API (every stream ticket then
 * fails with 503). tests/integration/config.test.ts checks the list against Node's fetch.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109,
  110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530,
  531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045,
  4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
])

/** An optional variable that may be given empty (compose's `${X:-}`): empty means unset. */
const blankAsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema)

/** The demo accounts' password unless DEMO_PASSWORD sets another (README "Demo accounts"; the login page shows it). */
export const DEFAULT_DEMO_PASSWORD = 'Cockpit-2026!'

const EnvSchema = z.object({
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .refine((p) => !FETCH_BLOCKED_PORTS.has(p), {
      message: 'browsers and fetch refuse this port (Fetch standard, port blocking); choose another, e.g. 3000',
    })
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  TRUST_PROXY: TrustProxy,
  DATA_DIR: z.string().min(1).default('./data'),
  REPORTS_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .refine((u) => URL.canParse(u), 'is not a valid URL; write it as postgres://user:password@host:5432/database (percent-encode special characters in the password)')
    .optional(),
  DEMO: onOff.default(false),
  DEMO_PASSWORD: z.string().min(8).default(DEFAULT_DEMO_PASSWORD),
  ADMIN_EMAIL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'must be an address such as admin@cockpit.example.ch' }))
    .optional(),
  // SPEC §5 password rule, in the words the API answers (server/lib/messages.ts passwordRule).
  ADMIN_PASSWORD: z
    .string()
    .refine(isStrongPassword, { message: 'The password must be at least 8 characters long and contain a number and a symbol.' })
    .optional(),
  ROLES: z
    .string()
    .default('api,relay,simulator,ocpp')
    .transform((s) => s.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(ROLE_NAMES, { message: 'roles are api, relay, simulator, ocpp, gateway' })).min(1)),
  UPSTREAM_URL: z.url({ message: 'must be a URL such as http://api-host:3000/api' }).optional(),
  RELAY_UPSTREAM_EMAIL: z.email().optional(),
  RELAY_UPSTREAM_PASSWORD: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Cockpit <no-reply@cockpit.local>'),
  SUPPORT_ADDRESS: z.email({ message: 'must be an address such as support@cockpit.example.ch' }).optional(),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  INBOUND_SMTP_HOST: z.string().min(1).default('0.0.0.0'),
  IMAP_URL: z.string().regex(/^imaps?:\/\/[^/]+@/, 'must look like imaps://user:password@host[:port][/mailbox]').optional(),
  PUBLIC_URL: z.url({ message: 'must be the address users open, e.g. https://cockpit.example.ch' }).optional(),
  CLIENT_DIR: z.string().min(1).optional(),
  CLOCK_START: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 instant with offset, e.g. 2026-03-04T18:30:00+01:00' })
    .transform((v) => new Date(v))
    .optional(),
  CLOCK_SPEED: z.coerce.number().positive('must be a positive number, e.g. 1 (real time) or 60 (a minute a second)').max(100_000).default(1),
  SIM_SEED: z.coerce.number().int().default(42),
  SIM_BACKFILL_DAYS: z.coerce.number().int().min(0).max(3660).default(SIMULATOR.backfillDays),
  SIM_OCPP: z.enum(['on', 'off'], { message: 'must be on or off' }).default('off'),
  SIM_OCPP_URL: z.url({ message: 'must be the central system, e.g. http://cockpit-ocpp:3000 (ws is used)' }).optional(),
  OCPP_HEARTBEAT_S: z.coerce.number().int().min(1).max(86_400).default(OCPP.heartbeatSeconds),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  METRICS_INTERVAL_MS: interval(POLL_INTERVALS_MS.metrics),
  STATIONS_INTERVAL_MS: interval(POLL_INTERVALS_MS.stations),
  SESSIONS_INTERVAL_MS: interval(POLL_INTERVALS_MS.sessions),
  INFO_INTERVAL_MS: interval(POLL_INTERVALS_MS.info),
  ENERGY_RETURN_INTERVAL_MS: interval(POLL_INTERVALS_MS.energy_return),
  RELAY_FANOUT: z.enum(['shared', 'naive'], { message: 'use shared (default) or naive (benchmark comparison only)' }).default('shared'),
  RELAY_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).default(RELAY.maxStreamsPerUser),
  RELAY_MAX_STREAMS_PER_IP: z.coerce.number().int().min(1).default(RELAY.maxStreamsPerIp),
  RELAY_MAX_BUFFER_BYTES: z.coerce.number().int().min(1024).default(RELAY.maxBufferedBytes),
  RELAY_MAX_BLOCKED_MS: z.coerce.number().int().min(100).default(RELAY.maxBlockedMs),
  RELAY_ACCESS_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(RELAY.accessConcurrency),
  // MQTT broker (server/devices/mqtt): mqtt:// or mqtts://, with user and password in the URL or apart.
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must start with mqtt:// or mqtts://, e.g. mqtts://user:password@broker.example.ch:8883')
    .refine((u) => URL.canParse(u), 'is not a valid URL; write it as mqtts://user:password@host:8883 (percent-encode special characters)')
    .optional(),
  MQTT_USERNAME: z.string().min(1).optional(),
  MQTT_PASSWORD: z.string().min(1).optional(),
  // The facility gateway (ROLES=gateway, server/devices/gateway).
  GATEWAY_URL: z
    .string()
    .regex(/^https?:\/\//, "must be the portal's address, e.g. https://cockpit.example.ch")
    .refine((u) => URL.canParse(u), "is not a valid URL; write the portal's address, e.g. https://cockpit.example.ch")
    .optional(),
  GATEWAY_KEY: z.string().regex(/^ck_\S+$/, "must be a device key of the facility's installation (it starts with ck_)").optional(),
  GATEWAY_DIR: z.string().min(1).default('./gateway-data'),

  NODE_ENV: z.string().optional(),
  // compose.yaml passes an unset key as "": the same as unset.
  PAYMENT_PROVIDER: z.enum(['demo', 'stripe'], { message: 'use demo (default) or stripe' }).default('demo'),
  PAYMENT_PROVIDER_DEMO_ALLOWED: z.enum(['true', 'false'], { message: 'use true or false' }).default('false'),
  STRIPE_SECRET_KEY: blankAsUnset(z.string().regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret or restricted key (sk_live_…, sk_test_…)').optional()),
  STRIPE_WEBHOOK_SECRET: blankAsUnset(z.string().regex(/^whsec_\S+$/, "must be the webhook endpoint's signing secret (whsec_…)").optional()),
  STRIPE_PUBLISHABLE_KEY: blankAsUnset(z.string().regex(/^pk_(test|live)_\S+$/, 'must be a Stripe publishable key (pk_live_…, pk_test_…)').optional()),
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{32,}$/, 'must be at least 32 characters without spaces, e.g. the output of `openssl rand -hex 32`')
    .optional(),
})

/** The program's configuration, parsed from the environment by {@link loadConfig}. */
export interface Config {
  port: number
  host: string
  /** Whose X-Forwarded-For to believe: false (nobody), a hop count, or proxy addresses/CIDRs. */
  trustProxy: false | number | string[]
  /** Absolute directory for PGlite data, the lock file and generated files. */
  dataDir: string
  /**
   * Root folder of reports' output directories: REPORTS_DIR, default `<DATA_DIR>/reports`;
   * a report writes to `<reportsDir>/<installation id>/<output directory>/`. Undefined → no files written.
   */
  reportsDir?: string
  /** Postgres server URL; undefined → embedded PGlite in dataDir. */
  databaseUrl?: string
  /** In-memory PGlite (tests): no dataDir lock, nothing written to disk. */
  memoryDb?: boolean
  /**
   * A dump of a PGlite data folder (a backup file of server/db/backup.ts, or PGlite's `dumpDataDir`,
   * gzipped or plain tar) the embedded database starts from when it holds no database yet: always for
   * an in-memory database, for DATA_DIR only while its pgdata folder is empty. Set by code, not by an
   * environment variable (the tests start every app from one migrated and seeded dump). Ignored with
   * databaseUrl.
   */
  pgliteDump?: string
  demo: boolean
  demoPassword: string
  /**
   * ADMIN_EMAIL and ADMIN_PASSWORD: the first superuser, created at start while no superuser exists
   * (server/domain/auth/first-start.ts); an existing account is never changed. Undefined: a database
   * without a superuser logs a one-time setup link instead.
   */
  admin?: { email: string; password: string }
  roles: Role[]
  /** The relay's API base URL; undefined → this process's own /api. */
  upstreamUrl?: string
  relayUpstream?: { email: string; password: string }
  /** HS256 key for access tokens; undefined → generated and kept in dataDir. */
  jwtSecret?: string
  /** SMTP server for the mail outbox; undefined → messages stay in the outbox and are logged. */
  smtpUrl?: string
  /** Built client to serve; undefined → dist/client. */
  clientDir?: string
  mailFrom: string
  /** Support's address; tickets reply to support+<token>@ its domain. Default support@ MAIL_FROM's domain. */
  supportAddress?: string
  /** Port of the built-in SMTP receiver for replies to tickets; undefined → not started. */
  inboundSmtpPort?: number
  inboundSmtpHost?: string
  /** IMAP mailbox read every minute for replies to tickets; undefined → not read. */
  imapUrl?: string
  /** Where users open the cockpit (links in mails); undefined → http://localhost:PORT. */
  publicUrl?: string
  /**
   * The one clock (ARCHITECTURE §1 "Time", server/lib/clock.ts): CLOCK_START is the instant the process
   * starts at (undefined: the wall clock), CLOCK_SPEED clock seconds per real second. `clock` (tests)
   * hands buildApp a clock made beforehand, e.g. a test clock that moves only when told.
   */
  clockStart?: Date
  clockSpeed: number
  clock?: Clock
  simSeed: number
  /** Days of 15-minute history the simulator backfills on first start (default SIMULATOR.backfillDays). */
  simBackfillDays?: number
  /**
   * SIM_OCPP=on: simulated stations connect as OCPP 1.6J charge points to the central system
   * at `simOcppUrl` (default: this process, which then needs the ocpp role).
   */
  simOcpp?: boolean
  simOcppUrl?: string
  logLevel: string
  /**
   * OCPP 1.6J central system: the heartbeat interval (s) given to charge points at boot; a
   * charge point silent for 2 intervals is offline.
   */
  ocpp?: { heartbeatSeconds: number }
  /** Relay poll interval per topic, ms. */
  intervals: { metrics: number; stations: number; sessions: number; info: number; energy_return: number }
  /** Relay limits; defaults in config/defaults.ts RELAY. */
  relay?: Partial<RelayLimits>
  /**
   * METRICS_TOKEN: the Bearer token a monitoring system sends to GET /metrics (every process) and
   * /live/metrics (a relay); undefined → both are off (404). docs/decisions.md "Metrics: a token".
   */
  metricsToken?: string
  /**
   * MQTT_URL (mqtt:// or mqtts://) and MQTT_USERNAME/MQTT_PASSWORD (or user and password in the URL): the
   * broker the api role subscribes to for meter readings (server/devices/mqtt); undefined → none.
   */
  mqtt?: { url: string; username?: string; password?: string }
  /**
   * The facility gateway (ROLES=gateway, server/devices/gateway): GATEWAY_URL the portal's base URL,
   * GATEWAY_KEY a device key of its installation, GATEWAY_DIR (default ./gateway-data) the disk buffer
   * for readings not yet sent and the last copy of its meters. Set when both URL and key are.
   */
  gateway?: { url: string; key: string; dir: string }

  /**
   * The payment provider (docs/decisions.md "Payments: a provider interface and Stripe"): the built-in demo
   * (default; refused at start with NODE_ENV=production unless PAYMENT_PROVIDER_DEMO_ALLOWED=true) or
   * Stripe with its keys. `api` points the Stripe client elsewhere (a test double); unset: Stripe's own.
   */
  payments?: PaymentsConfig
}

/** PAYMENT_PROVIDER and its keys (see Config.payments). */
export type PaymentsConfig =
  | { provider: 'demo' }
  | { provider: 'stripe'; secretKey: string; webhookSecret: string; publishableKey?: string; api?: { host: string; port: number; protocol: 'http' | 'https' } }

/** Relay fan-out and limits. `naive` serializes per subscriber: for the benchmark only. */
export interface RelayLimits {
  fanout: 'shared' | 'naive'
  maxStreamsPerUser: number
  maxStreamsPerIp: number
  maxBufferedBytes: number
  maxBlockedMs: number
  replayMs: number
  sweepMs: number
  upstreamTimeoutMs: number
  /** Access checks of joining streams upstream at once. */
  accessConcurrency: number
  /** Longest wait in the access-check queue before a 503 with Retry-After, ms. */
  accessMaxWaitMs: number
}

/** Thrown by loadConfig with one line per bad variable. */
export class ConfigError extends Error {}

/**
 * Parse the environment into a {@link Config}. Every bad variable is named in one ConfigError, e.g.
 * `PORT: Too big: expected number to be <=65535`.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  if ((e.RELAY_UPSTREAM_EMAIL === undefined) !== (e.RELAY_UPSTREAM_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  RELAY_UPSTREAM_EMAIL and RELAY_UPSTREAM_PASSWORD: set both or neither')
  }
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither')
  }
  if (e.ROLES.includes('gateway') && (!e.GATEWAY_URL || !e.GATEWAY_KEY)) {
    throw new ConfigError(`Invalid configuration:\n  ${e.GATEWAY_URL ? 'GATEWAY_KEY' : 'GATEWAY_URL'}: required when ROLES has gateway (the portal's address and a device key of its installation)`)
  }
  if ((e.MQTT_USERNAME === undefined) !== (e.MQTT_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  MQTT_USERNAME and MQTT_PASSWORD: set both or neither')
  }
  if (e.ROLES.includes('relay') && !e.ROLES.includes('api') && !e.UPSTREAM_URL) {
    throw new ConfigError('Invalid configuration:\n  UPSTREAM_URL: required when ROLES has relay without api')
  }
  if (e.ROLES.includes('relay') && !e.ROLES.includes('api') && !e.RELAY_UPSTREAM_EMAIL) {
    throw new ConfigError(
      'Invalid configuration:\n  RELAY_UPSTREAM_EMAIL: required when the relay runs without api (the account it polls with)',
    )
  }
  if (e.PAYMENT_PROVIDER === 'stripe' && (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: required with PAYMENT_PROVIDER=stripe')
  }
  // The demo provider marks sessions paid without money: never by accident in production (where the API
  // runs: it opens checkouts and runs the charge job).
  if (e.PAYMENT_PROVIDER === 'demo' && e.NODE_ENV === 'production' && e.ROLES.includes('api') && e.PAYMENT_PROVIDER_DEMO_ALLOWED !== 'true') {
    throw new ConfigError('PAYMENT_PROVIDER=demo is refused with NODE_ENV=production (it debits no money): set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENT_PROVIDER_DEMO_ALLOWED=true')
  }
  return {
    payments: e.PAYMENT_PROVIDER === 'stripe'
      ? { provider: 'stripe', secretKey: e.STRIPE_SECRET_KEY!, webhookSecret: e.STRIPE_WEBHOOK_SECRET!, publishableKey: e.STRIPE_PUBLISHABLE_KEY }
      : { provider: 'demo' },
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY ?? false,
    dataDir: path.resolve(e.DATA_DIR),
    reportsDir: path.resolve(e.REPORTS_DIR ?? path.join(e.DATA_DIR, 'reports')),
    databaseUrl: e.DATABASE_URL,
    demo: e.DEMO,
    demoPassword: e.DEMO_PASSWORD,
    admin: e.ADMIN_EMAIL ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD! } : undefined,
    roles: [...new Set(e.ROLES)],
    upstreamUrl: e.UPSTREAM_URL,
    relayUpstream: e.RELAY_UPSTREAM_EMAIL ? { email: e.RELAY_UPSTREAM_EMAIL, password: e.RELAY_UPSTREAM_PASSWORD! } : undefined,
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL,
    clientDir: e.CLIENT_DIR ? path.resolve(e.CLIENT_DIR) : undefined,
    mailFrom: e.MAIL_FROM,
    supportAddress: e.SUPPORT_ADDRESS ?? `support@${/@([^>\s]+)>?\s*$/.exec(e.MAIL_FROM)?.[1] ?? 'cockpit.local'}`,
    inboundSmtpPort: e.INBOUND_SMTP_PORT,
    inboundSmtpHost: e.INBOUND_SMTP_HOST,
    imapUrl: e.IMAP_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    clockStart: e.CLOCK_START,
    clockSpeed: e.CLOCK_SPEED,
    simSeed: e.SIM_SEED,
    simBackfillDays: e.SIM_BACKFILL_DAYS,
    simOcpp: e.SIM_OCPP === 'on',
    simOcppUrl: e.SIM_OCPP_URL?.replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    ocpp: { heartbeatSeconds: e.OCPP_HEARTBEAT_S },
    intervals: {
      metrics: e.METRICS_INTERVAL_MS,
      stations: e.STATIONS_INTERVAL_MS,
      sessions: e.SESSIONS_INTERVAL_MS,
      info: e.INFO_INTERVAL_MS,
      energy_return: e.ENERGY_RETURN_INTERVAL_MS,
    },
    relay: {
      fanout: e.RELAY_FANOUT,
      maxStreamsPerUser: e.RELAY_MAX_STREAMS_PER_USER,
      maxStreamsPerIp: e.RELAY_MAX_STREAMS_PER_IP,
      maxBufferedBytes: e.RELAY_MAX_BUFFER_BYTES,
      maxBlockedMs: e.RELAY_MAX_BLOCKED_MS,
      accessConcurrency: e.RELAY_ACCESS_CONCURRENCY,
    },
    metricsToken: e.METRICS_TOKEN,
    mqtt: e.MQTT_URL ? { url: e.MQTT_URL, username: e.MQTT_USERNAME, password: e.MQTT_PASSWORD } : undefined,
    gateway: e.GATEWAY_URL && e.GATEWAY_KEY ? { url: e.GATEWAY_URL.replace(/\/+$/, ''), key: e.GATEWAY_KEY, dir: path.resolve(e.GATEWAY_DIR) } : undefined,
  }
}
