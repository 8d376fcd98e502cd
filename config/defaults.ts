/**
 * Defaults for every product constant (ARCHITECTURE §2 "config/"). Values that come from the SPEC name
 * the section; the rest are design choices recorded in docs/decisions.md.
 */

/** Relay poll intervals in milliseconds per live topic (ARCHITECTURE §5, SPEC §9). */
export const POLL_INTERVALS_MS = {
  metrics: 5_000,
  stations: 5_000,
  sessions: 30_000,
  info: 120_000,
  energy_return: 900_000,
} as const

/** Slow data the client loads itself (SPEC §9): installation list 6 h, tariffs 15 min. */
export const CLIENT_REFRESH_MS = { installations: 6 * 3600_000, tariffs: 15 * 60_000 } as const

export const AUTH = {
  /** Access JWT lifetime, seconds (ARCHITECTURE §3). */
  accessTtlSeconds: 5 * 60,
  /** Refresh token lifetime, seconds (ARCHITECTURE §3). */
  refreshTtlSeconds: 24 * 3600,
  /** argon2id parameters: 19 MiB memory, 2 passes (OWASP minimum). */
  argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  /**
   * Failed sign-in throttling (docs/decisions.md): per account a delay doubling from
   * 1 s after 5 failures in an hour, capped at 30 s (never a lockout); per account and IP 10 failures
   * per 15 minutes; per IP (IPv6 per /64) 100 failures per hour across accounts. A browser with the
   * account's device cookie is exempt from the account and IP limits and counted on its own: 10
   * failures per 15 minutes (docs/decisions.md "Accounts: device cookies and IPv6 /64 for sign-in limits").
   */
  signIn: {
    account: { windowMs: 3600_000, free: 5, baseMs: 1000, capMs: 30_000 },
    pair: { windowMs: 15 * 60_000, max: 10 },
    ip: { windowMs: 3600_000, max: 100 },
    device: { windowMs: 15 * 60_000, max: 10 },
  },
  /**
   * POST /api/setup (server/domain/auth/first-start.ts): wrong, used or expired setup links per IP,
   * 10 per 15 minutes as sign-in's per account and IP.
   */
  setup: { windowMs: 15 * 60_000, max: 10 },
} as const

export const RELAY = {
  /** Live ticket lifetime, seconds (ARCHITECTURE §5). */
  ticketTtlSeconds: 30,
  /** Stop polling an installation this long after its last subscriber left. */
  idleStopMs: 60_000,
  /** A heartbeat event is written after this much silence (client/live/freshness.ts counts on it). */
  heartbeatMs: 15_000,
  /** Client reconnect delay announced in the stream (`retry:`). */
  retryMs: 3_000,
  /** Replay ring per installation and permission profile: its maximum age and length. */
  replayMs: 5 * 60_000,
  replayEvents: 10_000,
  /** Concurrent upstream requests across all installations and topics. */
  upstreamConcurrency: 8,
  /** Upstream request timeout. */
  upstreamTimeoutMs: 10_000,
  /**
   * Access checks of joining streams: at most this many upstream at once per relay, the
   * rest queued in arrival order; one queued longer than `accessMaxWaitMs` is answered 503 with a
   * jittered Retry-After of at most `accessRetryAfterMaxS` seconds, without calling the API.
   */
  accessConcurrency: 8,
  accessMaxWaitMs: 5_000,
  accessRetryAfterMaxS: 60,
  /** Failures after which a topic counts as down rather than stale. */
  downAfterFailures: 3,
  /** Longest back-off between polls of a failing topic. */
  maxBackoffMs: 60_000,
  /** A subscriber whose unsent bytes exceed this, or that stays blocked longer, is dropped and resumes by Last-Event-ID. */
  maxBufferedBytes: 1 << 20,
  maxBlockedMs: 15_000,
  /** Open streams allowed per user and per client IP (more answer 429). */
  maxStreamsPerUser: 20,
  maxStreamsPerIp: 500,
  /** A stream the relay ended is destroyed if its client has not closed its side after this long. */
  endGraceMs: 2_000,
  /** How often the shared timer writes heartbeats and checks blocked subscribers. */
  sweepMs: 5_000,
  /** Shortest time between two polls of a topic the upstream poked (a changed meter value). */
  pokeMinGapMs: 500,
} as const

/** OCPP 1.6J central system (docs/decisions.md). */
export const OCPP = {
  /** Heartbeat interval given to charge points in the BootNotification answer, seconds. */
  heartbeatSeconds: 60,
  /** A charge point silent for this many heartbeat intervals is offline. */
  missedHeartbeats: 2,
  /** Longest pause between flushes of last-message times and counts to the database, ms. */
  flushMs: 5_000,
  /**
   * Window in which MeterValues samples of all charge points are written as one batch, ms
   * (docs/decisions.md "OCPP: meter values in batches").
   */
  meterBatchMs: 100,
  /**
   * Sent at each boot by ChangeConfiguration (OCPP 1.6 §9.1 core configuration keys): MeterValueSampleInterval,
   * seconds between a transaction's sampled meter values, and ClockAlignedDataInterval, seconds between
   * meter values aligned to the hour, so a reading falls on every quarter hour and thus on each tariff
   * change (docs/decisions.md "Charging: energy split at tariff changes").
   */
  meterValueSampleSeconds: 300,
  /**
   * How long the command route waits for a connected charge point's answer before it answers "queued"
   * (202), ms of real time: a network round trip, not the clock's time.
   */
  commandAnswerMs: 10_000,
  clockAlignedDataSeconds: 900,
} as const

/**
 * Password guesses at the OCPP upgrade (server/devices/ocpp/guard.ts, docs/decisions.md "OCPP: password
 * guesses slowed"): failures free per charge point id and per source IP, then a delay doubling from
 * baseDelayMs up to maxDelayMs; counts forgotten after forgetMs without a failure; at most maxEntries ids or
 * IPs remembered (the oldest forgotten first).
 */
export const OCPP_AUTH = {
  freeFailuresPerId: 3,
  freeFailuresPerIp: 10,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  forgetMs: 15 * 60_000,
  maxEntries: 10_000,
}

/**
 * What a charger may report (docs/decisions.md "Charging: plausible charger figures and debit ceilings"):
 * a transaction's energy at most capacity × duration × `energyFactor` + `energySlackKwh`, a power at most
 * capacity × `powerFactor`; a charger timestamp more than `clockToleranceMs` from the server's is replaced by
 * the server's receive time unless it lies in the charger's offline gap.
 */
export const CHARGER_TRUST = {
  energyFactor: 1.1,
  energySlackKwh: 0.1,
  powerFactor: 1.2,
  clockToleranceMs: 15 * 60_000,
  /** An open session that received no energy for this long shows "plugged in, not charging", ms. */
  idleAfterMs: 10 * 60_000,
} as const

/**
 * Debit ceilings of the payment job per installation (docs/decisions.md "Charging: plausible charger figures
 * and debit ceilings"), unless the installation sets its own: a session priced above `sessionRappen`, or one
 * that would take a user's debits for sessions of the installation-local month above `monthRappen`, is held
 * for an admin's review instead of being debited.
 */
export const DEBIT_CEILING = {
  sessionRappen: 20_000,
  monthRappen: 100_000,
} as const

/**
 * Heavy requests (statistics, report dispatch, the sessions export) one user may have running at a time in
 * one process, and waiting behind those; more answer 429 (server/api/heavy-gate.ts, docs/decisions.md "API:
 * heavy requests per user").
 */
export const HEAVY_REQUESTS_PER_USER = { running: 2, queued: 4 } as const

/** On close, requests still in flight after this long are cut (main.ts exits at the latest after 10 s). */
export const SHUTDOWN_GRACE_MS = 4_000

export const SIMULATOR = {
  /** One simulation step, real time (5-second step). */
  stepMs: 5_000,
  /** Backfill on first start: days of 15-minute data. */
  backfillDays: 30,
  /** Raw 5-second data older than this is thinned to 15-minute aggregates. */
  rawRetentionHours: 48,
} as const

/** Lists: `limit` default and maximum (ARCHITECTURE §3, SPEC §9 station list limit). */
export const LIST_LIMIT = { default: 100, max: 1000 } as const

/** Locales (SPEC §9). */
export const LANGUAGES = ['en', 'de', 'fr', 'it'] as const
export const REGIONS = ['CH', 'DE', 'AT', 'IT', 'FR', 'GB', 'US'] as const
export const DEFAULT_TIMEZONE = 'Europe/Zurich'
export const DEFAULT_CURRENCY = 'CHF'

/** Facility offline (SPEC §4): devices send a heartbeat; silence this long makes the installation offline. */
export const DEVICES = {
  /** No heartbeat for this long → offline since the last one (ms). */
  offlineAfterMs: 60_000,
  /** How often the watchdog looks for silent installations (ms). */
  watchdogMs: 5_000,
  /**
   * Readings from a real device (ingestion API, gateway, MQTT) count as a heartbeat at most this often
   * per installation (ms): a batch every second need not write the installation's row every second.
   */
  reportHeartbeatMs: 5_000,
} as const

/** The facility gateway (ROLES=gateway, server/devices/gateway; docs/decisions.md "Gateway: a disk journal"). */
export const GATEWAY = {
  /** How often it asks the portal for its meters (GET /api/ingest/v1/config), ms. */
  configRefreshMs: 60_000,
  /** Most readings per POST /api/ingest/v1/readings (the API takes 10,000). */
  batchReadings: 1_000,
  /** Most bytes of readings per batch (the API takes 1 MB). */
  batchBytes: 512 * 1024,
  /** Wait after a failed send, doubled per failure up to `retryMaxMs`, ms. */
  retryMinMs: 1_000,
  retryMaxMs: 30_000,
  /** Longest an HTTP request to the portal may take, ms (network time). */
  requestTimeoutMs: 15_000,
} as const

/** The MQTT subscriber (MQTT_URL, server/devices/mqtt). */
export const MQTT = {
  /** Wait before connecting again after the broker went away, ms. */
  reconnectMs: 2_000,
} as const
