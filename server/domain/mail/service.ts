import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'

/** A message to send. `kind` names the template (reset, welcome, report, …) for the outbox view. */
export interface OutgoingMail {
  kind: string
  to: string
  subject: string
  text: string
  html?: string
  attachments?: { filename: string; contentType: string; content: Buffer }[]
  /** Reply-To header: a support ticket's reply address (domain/support), so an answer lands on the ticket. */
  replyTo?: string
}

/** Retry delays after a failed attempt; the last one repeats, so a message is never given up. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000]

/**
 * The mail outbox: features enqueue; the mail job (server/jobs/mail-outbox.ts) sends with
 * retries and back-off. Nothing is lost while SMTP is down or not configured. Due times follow `clock`
 * (ARCHITECTURE §1 "Time"): a message is due at its enqueue instant, then after each back-off.
 */
export function createMailService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** Store a message for sending; returns its outbox id. */
    async enqueue(mail: OutgoingMail): Promise<number> {
      const now = clock.now()
      const row = await db
        .insertInto('mail_outbox')
        .values({
          kind: mail.kind, recipient: mail.to, subject: mail.subject, body_text: mail.text, body_html: mail.html ?? null, last_error: null, sent_at: null, reply_to: mail.replyTo ?? null,
          next_attempt_at: now, created_at: now,
          attachments: JSON.stringify((mail.attachments ?? []).map((a) => ({ filename: a.filename, content_type: a.contentType, content_base64: a.content.toString('base64') }))),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** Pending messages whose next attempt is due at `now` (default the clock's), oldest first. */
    async due(limit = 20, now = clock.now()) {
      return db.selectFrom('mail_outbox').selectAll().where('status', '=', 'pending').where('next_attempt_at', '<=', now).orderBy('id').limit(limit).execute()
    },

    async markSent(id: number): Promise<void> {
      await db.updateTable('mail_outbox').set({ status: 'sent', sent_at: clock.now(), last_error: null }).where('id', '=', id).execute()
    },

    /** Record a failed attempt and schedule the next one by RETRY_DELAYS_MS after `now` (default the clock's). */
    async markFailed(id: number, attempts: number, error: string, now = clock.now()): Promise<void> {
      const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length - 1)]
      await db
        .updateTable('mail_outbox')
        .set({ attempts: attempts + 1, last_error: error.slice(0, 500), next_attempt_at: new Date(now.getTime() + delay) })
        .where('id', '=', id)
        .execute()
    },

    /**
     * Messages still to send, by state: `new` (not tried yet) and `retrying` (an attempt failed, the
     * next one is scheduled by RETRY_DELAYS_MS). For the process's metrics (docs/operations.md "Metrics").
     */
    async outboxSize(): Promise<{ new: number; retrying: number }> {
      const r = await db.selectFrom('mail_outbox').where('status', '=', 'pending')
        .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.countAll<number>().filterWhere('attempts', '>', 0).as('retrying')])
        .executeTakeFirstOrThrow()
      return { new: Number(r.all) - Number(r.retrying), retrying: Number(r.retrying) }
    },

    /** The outbox for superusers: newest first, without bodies. */
    async list({ limit, offset }: { limit: number; offset: number }) {
      const rows = await db
        .selectFrom('mail_outbox')
        .select(['id', 'kind', 'recipient', 'subject', 'status', 'attempts', 'next_attempt_at', 'last_error', 'created_at', 'sent_at'])
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
      const count = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      return { count: Number(count.n), next: null, previous: null, results: rows }
    },
  }
}
export type MailService = ReturnType<typeof createMailService>
