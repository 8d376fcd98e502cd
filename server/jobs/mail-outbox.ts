import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import type { Job } from './runner.ts'

/**
 * Sends the mail outbox every 10 s (one process at a time on Postgres: server/jobs/runner.ts) through SMTP_URL with nodemailer. A failed message is retried with
 * back-off (domain/mail RETRY_DELAYS_MS). Without SMTP_URL messages stay in the outbox and are logged
 * once, so a later configuration sends them.
 */
export function createMailJob({ domain, smtpUrl, from, log, everySeconds = 10 }: { domain: Domain; smtpUrl?: string; from: string; log: FastifyBaseLogger; everySeconds?: number }): Job & { runOnce(): Promise<number>; close(): void } {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null
  const logged = new Set<number>()
  let running = false

  async function runOnce(): Promise<number> {
    if (running) return 0
    running = true
    let sent = 0
    try {
      for (const m of await domain.mail.due()) {
        if (!transport) {
          if (!logged.has(m.id)) {
            logged.add(m.id)
            log.info({ id: m.id, kind: m.kind, to: m.recipient, subject: m.subject }, 'mail kept in the outbox: SMTP_URL is not set')
          }
          continue
        }
        try {
          await transport.sendMail({
            from, to: m.recipient, subject: m.subject, text: m.body_text, html: m.body_html ?? undefined, replyTo: m.reply_to ?? undefined,
            attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.content_type, content: Buffer.from(a.content_base64, 'base64') })),
          })
          await domain.mail.markSent(m.id)
          sent++
        } catch (err) {
          await domain.mail.markFailed(m.id, m.attempts, (err as Error).message)
          log.warn({ id: m.id, attempts: m.attempts + 1, err: (err as Error).message }, 'mail not sent, will retry')
        }
      }
    } finally {
      running = false
    }
    return sent
  }

  return {
    name: 'mail-outbox',
    schedule: { everySeconds },
    runOnce,
    async run() {
      await runOnce()
    },
    close() {
      transport?.close()
    },
  }
}
