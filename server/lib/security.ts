import type { Config } from '../../config/env.ts'

/**
 * Fastify's `trustProxy` for TRUST_PROXY (ARCHITECTURE §3). A hop count becomes a function trusting the
 * first `n` hops (the socket peer is hop 0): Fastify 5 treats a bare number as "trust nobody", and the
 * documented meaning (Express's) is "that many proxies in front".
 */
export function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust
  return trust
}
