import crypto from 'node:crypto'
import { RELAY } from '../../config/defaults.ts'
import type { Access } from '../../shared/rules/permissions.ts'

/**
 * Live tickets (ARCHITECTURE §5): 128+ random bits, single use, bound to (user, installation), valid
 * 30 s, so access tokens never go into URLs. The 30 s are real time (`now`: monotonic ms,
 * performance.now() by default), the browser's time to open its stream, whatever CLOCK_SPEED says.
 */
export function createTickets({ ttlMs = RELAY.ticketTtlSeconds * 1000, now = () => performance.now() } = {}) {
  const tickets = new Map<string, { access: Access; expires: number }>()
  return {
    issue(access: Access): string {
      const ticket = crypto.randomBytes(24).toString('base64url')
      tickets.set(ticket, { access, expires: now() + ttlMs })
      for (const [t, v] of tickets) if (v.expires < now()) tickets.delete(t)
      return ticket
    },
    /** Spend a ticket for `installationId`: its access, or null when unknown, used, expired or for another installation. */
    redeem(ticket: string, installationId: number): Access | null {
      const entry = tickets.get(ticket)
      if (!entry) return null
      tickets.delete(ticket)
      if (entry.expires < now() || entry.access.installation_id !== installationId) return null
      return entry.access
    },
  }
}
