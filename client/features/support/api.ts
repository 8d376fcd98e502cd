import { apiFetch } from '../../api/http.ts'
import type { SupportTicket, SupportTicketSummary, SupportTopic } from '../../../shared/schemas/support.ts'
import { SUPPORT_TOPICS } from '../../../shared/rules/choices.ts'

export { SUPPORT_TOPICS, type SupportTicket, type SupportTicketSummary, type SupportTopic }

/**
 * Query keys of the support screens; tickets belong to people, not installations. `lists`
 * is every list (own tickets, the inbox's open and closed), what a new message or a status change alters.
 */
export const supportKeys = {
  lists: () => ['support', 'tickets'] as const,
  list: (status: 'open' | 'closed' | 'all') => ['support', 'tickets', status] as const,
  ticket: (id: number) => ['support', 'ticket', id] as const,
}

/** POST /api/emails/send-support-email/ (SPEC §7): opens a ticket; answers "message sent" and the ticket. */
export function sendSupportMessage(installationId: number, topic: SupportTopic, message: string): Promise<{ detail: string; conversation_id: number; ticket: SupportTicket }> {
  return apiFetch('/api/emails/send-support-email/', { method: 'POST', body: { topic, message, installation_id: installationId } })
}

/** GET /api/emails/support-tickets/: own tickets (superusers: all), newest activity first. */
export async function listTickets(status?: 'open' | 'closed', signal?: AbortSignal): Promise<SupportTicketSummary[]> {
  return (await apiFetch<{ results: SupportTicketSummary[] }>('/api/emails/support-tickets/', { query: { status, limit: 1000 }, signal })).results
}

/** GET /api/emails/support-tickets/{conversation_id}. */
export function getTicket(id: number, signal?: AbortSignal): Promise<SupportTicket> {
  return apiFetch<SupportTicket>(`/api/emails/support-tickets/${id}/`, { signal })
}

/** A message in the portal: the owner's, or support's answer (mailed to the other side). */
export function postMessage(id: number, message: string): Promise<SupportTicket> {
  return apiFetch<SupportTicket>(`/api/emails/support-tickets/${id}/messages`, { method: 'POST', body: { message } })
}

/** Close or reopen (superusers). */
export function setTicketStatus(id: number, status: 'open' | 'closed'): Promise<SupportTicket> {
  return apiFetch<SupportTicket>(`/api/emails/support-tickets/${id}/`, { method: 'PATCH', body: { status } })
}
