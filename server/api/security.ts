import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import helmet from '@fastify/helmet'
import type { Config } from '../../config/env.ts'
import { DEMO_CHECKOUT_STYLE } from '../domain/payments/demo-checkout-page.ts'
import { PRELOAD_BOOT_SCRIPT } from '../../config/preload-boot.ts'

/**
 * Fastify's `trustProxy` for TRUST_PROXY (ARCHITECTURE §3). A hop count becomes a function trusting the
 * first `n` hops (the socket peer is hop 0): Fastify 5 treats a bare number as "trust nobody", and the
 * documented meaning (Express's) is "that many proxies in front".
 */
export function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust
  return trust
}

/**
 * The style element lightweight-charts adds for its TradingView attribution logo (Charts). Allowed by
 * hash; tests/integration/security-headers.test.ts reads the installed library so an update that
 * changes the text fails there instead of silently losing the logo's style.
 */
export const CHART_LOGO_STYLE =
  'a#tv-attr-logo{--fill:#131722;--stroke:#fff;position:absolute;left:10px;bottom:10px;height:19px;width:35px;margin:0;padding:0;border:0;z-index:3;}a#tv-attr-logo[data-dark]{--fill:#D1D4DC;--stroke:#131722;}'

const sha256 = (text: string) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`

/**
 * `policy` (a Content-Security-Policy header value) with the SHA-256 hashes (CSP Level 3 hash-source)
 * of `styles`, inline `<style>` texts of one page, added to its `style-src`, so that page alone may
 * carry them (the prerendered login page's inlined stylesheet, server/lib/static.ts); no
 * 'unsafe-inline'. A policy without `style-src` is returned as it is (adding one could only widen it).
 */
export function withStyleHashes(policy: string, styles: readonly string[]): string {
  if (styles.length === 0) return policy
  const hashes = styles.map(sha256).join(' ')
  const directives = policy.split(';').map((d) => d.trim()).filter(Boolean)
  const at = directives.findIndex((d) => /^style-src(\s|$)/i.test(d))
  if (at < 0) return policy
  directives[at] = `${directives[at]} ${hashes}`
  return directives.join(';')
}

/**
 * Answers that carry or judge credentials (tokens, reset and verification links, registration,
 * password change, the first start's setup): `Cache-Control: no-store`, so no browser or proxy cache keeps them.
 */
const AUTH_PATHS = /^\/api\/(authentication\/|password-reset\/|users\/password-reset\/|users\/register\/?|users\/user-verification\/|users\/password\/|setup\/?(\?|$))/

/**
 * Security headers on every answer, via helmet:
 * - CSP: scripts, styles, fetches and images from this origin only (images also `data:`, the favicon),
 *   no plugins, no framing (`frame-ancestors 'none'`); the two inline styles (the demo checkout page,
 *   the chart library's logo) by their hashes. No `upgrade-insecure-requests`: a LAN installation on plain http must keep its assets.
 * - `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (reset
 *   and verification links carry their token in the address).
 * - HSTS only for this host (no includeSubDomains: other services of the operator's domain are theirs).
 * Live streams (server/relay) hijack the socket and write their own head; they are untouched.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The one inline script, index.html's route preloader (config/preload-boot.ts), by its hash.
        scriptSrc: ["'self'", sha256(PRELOAD_BOOT_SCRIPT)],
        styleSrc: ["'self'", sha256(DEMO_CHECKOUT_STYLE), sha256(CHART_LOGO_STYLE)],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // The PWA: the service worker (/sw.js) and the web app manifest.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  })
  app.addHook('onSend', async (req, reply) => {
    if (AUTH_PATHS.test(req.url)) reply.header('Cache-Control', 'no-store')
    // An answer to a signed-in call is that person's (their sessions, cards, names): no shared or browser
    // cache keeps it (RFC 9111 §5.2.2.5), unless the route chose its own policy.
    else if (req.url.startsWith('/api/') && req.headers.authorization && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-store')
  })
}
