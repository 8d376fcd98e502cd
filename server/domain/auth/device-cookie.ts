import crypto from 'node:crypto'
import { isIPv6 } from 'node:net'

/** The device cookie's name and lifetime (OWASP "Slow Brute Force Attacks: Device Cookies"): 180 days. */
export const DEVICE_COOKIE = 'cockpit_device'
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): after a successful
 * sign-in the browser gets `<nonce>.<signature>`, an HMAC-SHA256 over the lower-cased account and a
 * random nonce under a key derived from the JWT secret. A later sign-in to the same account that presents
 * it is a known device: exempt from the account-wide delay and the per-IP limit an attacker causes, and
 * limited per device instead (server/domain/auth/service.ts). Nothing is stored; a cookie of another
 * account, or a forged one, is no cookie.
 */
export function createDeviceCookies(secret: Uint8Array) {
  const key = crypto.createHmac('sha256', secret).update('cockpit device cookie').digest()
  const sign = (account: string, nonce: string) => crypto.createHmac('sha256', key).update(`${account}\n${nonce}`).digest('base64url')
  return {
    /** A new cookie value for `account` (lower-cased e-mail). */
    issue(account: string): string {
      const nonce = crypto.randomBytes(16).toString('base64url')
      return `${nonce}.${sign(account, nonce)}`
    },
    /** The cookie's nonce when `value` is a device cookie of `account`, else undefined. */
    verify(account: string, value: string | undefined): string | undefined {
      const m = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '')
      if (!m) return undefined
      const expected = Buffer.from(sign(account, m[1]))
      const given = Buffer.from(m[2])
      return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? m[1] : undefined
    },
  }
}

/**
 * The key per-IP sign-in limits count under: an IPv4 address as it is, an IPv6 address by its /64
 * prefix (one subscriber's network, RFC 6177 / RFC 7934: a host may use any address in it), an
 * IPv4-mapped IPv6 address as its IPv4 address.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  if (mapped) return mapped[1]
  if (!isIPv6(ip)) return ip
  const [head, tail = ''] = ip.split('%')[0].split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  // An embedded IPv4 tail (a:b::1.2.3.4) is in the low 64 bits: it never changes the prefix.
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((g) => parseInt(g || '0', 16).toString(16)).join(':')}::/64`
}
