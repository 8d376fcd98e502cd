import type { FastifyBaseLogger } from 'fastify'

/** A logger that keeps what it was told (level, fields, message), for tests that check a log line. */
export function recordingLog() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = []
  const at = (level: string) => (obj: unknown, msg?: string) => {
    if (typeof obj === 'string') lines.push({ level, obj: {}, msg: obj })
    else lines.push({ level, obj: (obj ?? {}) as Record<string, unknown>, msg: msg ?? '' })
  }
  const log = {
    level: 'info', fatal: at('fatal'), error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'), silent: () => undefined,
    child: () => log,
  }
  return { log: log as unknown as FastifyBaseLogger, lines }
}
