import { OCPP_AUTH } from '../../../config/defaults.ts'

interface Failures {
  count: number
  /** Until when attempts are refused unchecked, ms of the clock. */
  until: number
  last: number
}

/**
 * Slows down password guessing at the OCPP upgrade (HTTP Basic of OCPP 1.6 security profile 1, OCPP 1.6
 * Security Whitepaper §2.1; docs/decisions.md "OCPP: password guesses slowed"). Failures are counted per
 * charge point id and per source IP; after the free ones each further failure doubles a delay
 * (OCPP_AUTH.baseDelayMs … maxDelayMs) during which that id or IP is refused without checking the password.
 * The IP a charge point last connected from with its right password is exempt from both delays for that id,
 * so an attacker guessing from elsewhere (or behind the same proxy) does not lock the real charger out. Counts are forgotten after
 * OCPP_AUTH.forgetMs without a failure. Times are the clock's (`now`), so tests move them.
 * One process's memory: each OCPP process slows what reaches it.
 */
export function createAuthGuard(now: () => number, opts: typeof OCPP_AUTH = OCPP_AUTH) {
  const byId = new Map<string, Failures>()
  const byIp = new Map<string, Failures>()
  const goodIp = new Map<string, string>()

  const fresh = (m: Map<string, Failures>, key: string): Failures | undefined => {
    const f = m.get(key)
    if (f && now() - f.last > opts.forgetMs) {
      m.delete(key)
      return undefined
    }
    return f
  }
  const fail = (m: Map<string, Failures>, key: string, free: number) => {
    const t = now()
    const f = fresh(m, key) ?? { count: 0, until: 0, last: t }
    f.count++
    f.last = t
    const over = f.count - free
    f.until = over > 0 ? t + Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (over - 1)) : 0
    // Re-inserted last: the oldest entries go first when the map is full.
    m.delete(key)
    m.set(key, f)
    if (m.size > opts.maxEntries) m.delete(m.keys().next().value!)
  }
  const id = (chargePointId: string) => chargePointId.toLowerCase()

  return {
    /** Ms until charge point `chargePointId` may try a password from `ip` again; 0 = now. */
    wait(chargePointId: string, ip: string): number {
      const t = now()
      // A charge point known to connect from here waits for neither (a proxy's address is many chargers' IP).
      if (goodIp.get(id(chargePointId)) === ip) return 0
      return Math.max(0, (fresh(byIp, ip)?.until ?? 0) - t, (fresh(byId, id(chargePointId))?.until ?? 0) - t)
    },
    /** A wrong password (or unknown id) for `chargePointId` from `ip`. */
    failed(chargePointId: string, ip: string): void {
      fail(byId, id(chargePointId), opts.freeFailuresPerId)
      fail(byIp, ip, opts.freeFailuresPerIp)
    },
    /** The right password: the id's count is cleared and `ip` becomes its known source. */
    succeeded(chargePointId: string, ip: string): void {
      byId.delete(id(chargePointId))
      goodIp.delete(id(chargePointId))
      goodIp.set(id(chargePointId), ip)
      if (goodIp.size > opts.maxEntries) goodIp.delete(goodIp.keys().next().value!)
    },
  }
}
export type AuthGuard = ReturnType<typeof createAuthGuard>
