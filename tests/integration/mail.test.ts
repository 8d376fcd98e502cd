import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createMailJob } from '../../server/jobs/mail-outbox.ts'
import { captureSmtp, startApp } from './helpers.ts'

/** A real SMTP server started by the test, that can be told to refuse messages. */
let refuse = false
const smtp = captureSmtp({ refuse: () => refuse })
const received = smtp.received

let app: FastifyInstance
let smtpUrl: string
beforeAll(async () => {
  smtpUrl = await smtp.listen()
  ;({ app } = await startApp({ roles: ['api'] }))
})
afterAll(async () => {
  await app?.close()
  await smtp.close()
})

describe('mail outbox', () => {
  it('keeps messages while SMTP refuses them, retries with back-off, and sends them later', async () => {
    const job = createMailJob({ domain: app.domain!, smtpUrl, from: 'Cockpit <no-reply@cockpit.local>', log: app.log })
    const id = await app.domain!.mail.enqueue({ kind: 'test', to: 'resident@example.com', subject: 'Grüezi', text: 'Hallo', html: '<p>Hallo</p>',
      attachments: [{ filename: 'a.csv', contentType: 'text/csv', content: Buffer.from('a;b\n1;2\n') }] })
    refuse = true
    expect(await job.runOnce()).toBe(0)
    const failed = await app.domain!.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 })
    expect(failed.last_error).toMatch(/mailbox unavailable/)
    expect(failed.next_attempt_at.getTime()).toBeGreaterThan(app.clock.ms() + 30_000)
    // Not due yet: nothing is tried.
    refuse = false
    expect(await job.runOnce()).toBe(0)
    await app.domain!.db.updateTable('mail_outbox').set({ next_attempt_at: new Date(app.clock.ms() - 1000) }).where('id', '=', id).execute()
    expect(await job.runOnce()).toBe(1)
    const sent = await app.domain!.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(sent.status).toBe('sent')
    expect(received).toHaveLength(1)
    expect(received[0].to).toBe('resident@example.com')
    expect(received[0].raw).toContain('a.csv')
    job.close()
  })

  it('without SMTP_URL leaves messages in the outbox', async () => {
    const job = createMailJob({ domain: app.domain!, from: 'x@y.ch', log: app.log })
    const id = await app.domain!.mail.enqueue({ kind: 'test', to: 'a@b.ch', subject: 's', text: 't' })
    expect(await job.runOnce()).toBe(0)
    const row = await app.domain!.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'pending', attempts: 0 })
  })
})
