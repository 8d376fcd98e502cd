import { z } from 'zod'
import { IdNumber, Text, TEXT_MAX } from './common.ts'
import { SUPPORT_TOPICS } from '../rules/choices.ts'

/** Topics a person chooses when writing to support (shared/rules/choices.ts, zod-free for the browser). */
export { SUPPORT_TOPICS }
export type SupportTopic = (typeof SUPPORT_TOPICS)[number]

/**
 * POST /api/emails/send-support-email/ (SPEC §7): `{topic, message}`; message 1..5,000 characters, lines
 * allowed. Optional `installation_id`: the facility the person writes from (kept for the links in mails;
 * ignored unless they belong to it).
 */
export const SupportRequest = z.object({
  topic: z.enum(SUPPORT_TOPICS),
  message: Text(TEXT_MAX.message, { multiline: true }).min(1),
  installation_id: IdNumber.optional(),
})
export type SupportRequest = z.infer<typeof SupportRequest>

/** A support answer or a note to the conversation, written in the portal (superusers' inbox). */
export const SupportAnswer = z.object({ message: Text(TEXT_MAX.message, { multiline: true }).min(1) })
export type SupportAnswer = z.infer<typeof SupportAnswer>

/** Open (replies by e-mail land on it) or closed (SPEC §4). */
export const TicketStatus = z.enum(['open', 'closed'])

/**
 * One message of a conversation (SPEC §3 "messages from you and from support"): `author` 'user' (the
 * ticket's owner) or 'support'; `via` portal or email; `refused_attachments` names attachments of an e-mail that were not kept.
 * `created`: ISO 8601.
 */
export const SupportMessage = z.object({
  id: z.number().int(),
  author: z.enum(['user', 'support']),
  via: z.enum(['portal', 'email']),
  body: z.string(),
  refused_attachments: z.array(z.string()),
  created: z.string(),
})
export type SupportMessage = z.infer<typeof SupportMessage>

/** The person who opened a ticket (their own for a resident; anyone's for superusers). */
export const TicketOwner = z.object({ id: z.number().int(), full_name: z.string(), email: z.string() })

/**
 * A support ticket in a list (SPEC §3 "Support ticket (conversationId): id, created, topic, message, open
 * or closed"): `conversation_id` is the id of `GET /api/emails/support-tickets/{conversation_id}`;
 * `message` the first message; `last_activity` the newest message's time; `messages_count` all of them.
 */
export const SupportTicketSummary = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  created: z.string(),
  topic: z.enum(SUPPORT_TOPICS),
  message: z.string(),
  status: TicketStatus,
  installation_id: z.number().int().nullable(),
  owner: TicketOwner,
  last_activity: z.string(),
  messages_count: z.number().int(),
})
export type SupportTicketSummary = z.infer<typeof SupportTicketSummary>

/** A ticket with its whole conversation, oldest message first. */
export const SupportTicket = SupportTicketSummary.extend({ messages: z.array(SupportMessage) })
export type SupportTicket = z.infer<typeof SupportTicket>

/** The answer to POST send-support-email: SPEC §8 "message sent" and the new ticket. */
export const SupportSent = z.object({ detail: z.string(), conversation_id: IdNumber, ticket: SupportTicket })

/** Filter of the ticket list: `status` open or closed (omitted: both). */
export const SupportTicketQuery = z.object({
  status: TicketStatus.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(2147483647).default(0),
})
