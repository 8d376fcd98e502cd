import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import nodemailer from 'nodemailer'
import request from 'supertest'
import { auth, captureSmtp, startWithTokens } from './helpers.ts'
import { startSmtpReceiver } from '../../server/jobs/support-inbound.ts'
import { createMailJob } from '../../server/jobs/mail-outbox.ts'
import { REPLY_MARKER } from '../../server/domain/support/reply.ts'
import { ConfigError, loadConfig } from '../../config/env.ts'

/**
 * Support tickets with e-mail replies (SPEC §2, §3, §4, §7, §8): the portal calls, the rights,
 * and replies sent with a real SMTP client (nodemailer) to the built-in receiver (smtp-server).
 */
let env: Awaited<ReturnType<typeof startWithTokens>>
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>
/** Outgoing mail as a real SMTP server receives it from the outbox job. */
const capture = captureSmtp()
const delivered = capture.received
let smtpUrl = ''

beforeAll(async () => {
  env = await startWithTokens(['api'])
  receiver = await startSmtpReceiver({ domain: env.app.domain!, supportAddress: env.config.supportAddress!, port: 0, host: '127.0.0.1' })
  smtpUrl = await capture.listen()
})
afterAll(async () => {
  await receiver?.close()
  await capture.close()
  await env?.app.close()
})

const api = () => request(env.app.server)
const outbox = (to: string, kind?: string) => {
  let q = env.app.domain!.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', to)
  if (kind) q = q.where('kind', '=', kind)
  return q.orderBy('id').execute()
}
/** Send a reply as a mail program would: through SMTP to the receiver. */
function mailReply(from: string, to: string, text: string, attachments: { filename: string; content: string }[] = []) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true })
  return transport.sendMail({ from, to, subject: 'Re: [Support]', text, attachments }).finally(() => transport.close())
}

async function openTicket(token: string, message = 'My car does not charge at station 2.\nIt says error.') {
  const r = await api().post('/api/emails/send-support-email/').set(auth(token)).send({ topic: 'charging', message, installation_id: 1 }).expect(201)
  return r.body as { detail: string; conversation_id: number; ticket: { id: number; status: string; messages: { author: string; body: string }[] } }
}

describe('support tickets', () => {
  it('a resident writes to support: "message sent", an open ticket, mails with a per-ticket reply address to them and to support', async () => {
    const sent = await openTicket(env.tokens.user)
    expect(sent.detail).toBe('Your message has been sent.')
    expect(sent.ticket).toMatchObject({ id: sent.conversation_id, status: 'open', topic: 'charging', message: 'My car does not charge at station 2.\nIt says error.', messages: [{ author: 'user', via: 'portal' }] })
    const address = await env.app.domain!.support.replyAddressOf(sent.conversation_id)
    expect(address).toMatch(/^support\+[0-9a-f]{40}@cockpit\.local$/)
    const [confirmation] = await outbox('user@example.com', 'support-confirmation')
    expect(confirmation.reply_to).toBe(address)
    expect(confirmation.body_text).toContain(REPLY_MARKER)
    const [inbox] = await outbox('super@example.com', 'support-inbox')
    expect(inbox.reply_to).toBe(address)
    expect(inbox.body_text).toContain('It says error.')
    // Every ticket has its own address.
    const second = await openTicket(env.tokens.user, 'Second question')
    expect(await env.app.domain!.support.replyAddressOf(second.conversation_id)).not.toBe(address)
    // In German on request.
    const de = await api().post('/api/emails/send-support-email/').set(auth(env.tokens.admin)).set('accept-language', 'de').send({ topic: 'other', message: 'Hallo' }).expect(201)
    expect(de.body.detail).toBe('Ihre Nachricht wurde gesendet.')
  })

  it('the mail as it leaves carries the reply address as Reply-To', async () => {
    const { conversation_id } = await openTicket(env.tokens.user, 'Check the header')
    const address = await env.app.domain!.support.replyAddressOf(conversation_id)
    const job = createMailJob({ domain: env.app.domain!, smtpUrl, from: 'Cockpit <no-reply@cockpit.local>', log: env.app.log })
    await job.runOnce()
    job.close()
    const mine = delivered.filter((d) => d.to === 'user@example.com' && d.raw.includes(address))
    expect(mine.length).toBeGreaterThan(0)
    expect(mine[0].raw).toMatch(new RegExp(`^Reply-To: ${address.replace('+', '\\+')}`, 'mi'))
  })

  it('refuses an empty message and an unknown topic with field messages', async () => {
    const r = await api().post('/api/emails/send-support-email/').set(auth(env.tokens.user)).send({ topic: 'charging', message: '  ' }).expect(400)
    expect(r.body).toEqual({ message: ['The field is required.'] })
    const t = await api().post('/api/emails/send-support-email/').set(auth(env.tokens.user)).send({ topic: 'weather', message: 'x' }).expect(400)
    expect(Object.keys(t.body)).toEqual(['topic'])
    await api().post('/api/emails/send-support-email/').send({ topic: 'charging', message: 'x' }).expect(401)
  })

  it('a person sees only their own tickets; superusers see all; only superusers close and reopen', async () => {
    const { conversation_id: id } = await openTicket(env.tokens.user, 'Private matter')
    for (const who of ['admin', 'bern'] as const) {
      await api().get(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens[who])).expect(404)
      const list = await api().get('/api/emails/support-tickets/').set(auth(env.tokens[who])).expect(200)
      expect(list.body.results.map((t: { id: number }) => t.id)).not.toContain(id)
      await api().post(`/api/emails/support-tickets/${id}/messages`).set(auth(env.tokens[who])).send({ message: 'hi' }).expect(404)
    }
    const own = await api().get('/api/emails/support-tickets/').set(auth(env.tokens.user)).expect(200)
    expect(own.body.results.map((t: { id: number }) => t.id)).toContain(id)
    expect(own.body.results.every((t: { owner: { email: string } }) => t.owner.email === 'user@example.com')).toBe(true)
    const all = await api().get('/api/emails/support-tickets/').set(auth(env.tokens.super)).expect(200)
    expect(all.body.results.map((t: { owner: { email: string } }) => t.owner.email)).toEqual(expect.arrayContaining(['user@example.com', 'admin@example.com']))
    await api().get(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.super)).expect(200)
    await api().patch(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.user)).send({ status: 'closed' }).expect(403)
    await api().patch(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.admin)).send({ status: 'closed' }).expect(403)
    await api().get(`/api/emails/support-tickets/${id}/`).expect(401)
    // Naming a facility one does not belong to links nothing to it.
    const foreign = await api().post('/api/emails/send-support-email/').set(auth(env.tokens.bern)).send({ topic: 'other', message: 'x', installation_id: 1 }).expect(201)
    expect(foreign.body.ticket.installation_id).toBeNull()
  })

  it('support answers in the portal, the resident answers by e-mail (quote stripped): the ticket shows all three', async () => {
    const { conversation_id: id } = await openTicket(env.tokens.user, 'Station 2 shows a red light.')
    const answered = await api().post(`/api/emails/support-tickets/${id}/messages`).set(auth(env.tokens.super)).send({ message: 'Please unplug and plug in again.' }).expect(201)
    expect(answered.body.messages.at(-1)).toMatchObject({ author: 'support', via: 'portal' })
    const address = await env.app.domain!.support.replyAddressOf(id)
    const [answerMail] = await outbox('user@example.com', 'support-answer')
    expect(answerMail.reply_to).toBe(address)
    expect(answerMail.body_text).toContain('Please unplug and plug in again.')

    await mailReply('Laura Brunner <user@example.com>', address, `That worked, thank you!\n\nOn Mon, 23 Nov 2026 at 10:00, Cockpit <${address}> wrote:\n> ${REPLY_MARKER}\n> Please unplug and plug in again.`)
    const ticket = (await api().get(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.user)).expect(200)).body
    expect(ticket.messages.map((m: { author: string; via: string; body: string }) => [m.author, m.via, m.body])).toEqual([
      ['user', 'portal', 'Station 2 shows a red light.'],
      ['support', 'portal', 'Please unplug and plug in again.'],
      ['user', 'email', 'That worked, thank you!'],
    ])
    const forwarded = (await outbox('super@example.com', 'support-inbox')).at(-1)!
    expect(forwarded.body_text).toContain('That worked, thank you!')
    expect(forwarded.reply_to).toBe(address)
    // Support may answer by e-mail too: it lands as support's and goes on to the resident.
    await mailReply('super@example.com', address, 'Glad to hear it.')
    const after = (await api().get(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.user)).expect(200)).body
    expect(after.messages.at(-1)).toMatchObject({ author: 'support', via: 'email', body: 'Glad to hear it.' })
  })

  it('keeps a reply but refuses its attachments, and tells the sender', async () => {
    const { conversation_id: id } = await openTicket(env.tokens.user, 'Invoice question')
    const address = await env.app.domain!.support.replyAddressOf(id)
    await mailReply('user@example.com', address, 'Here is a photo of the display.', [{ filename: 'display.jpg', content: 'not really a jpeg' }])
    const ticket = (await api().get(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.user)).expect(200)).body
    expect(ticket.messages.at(-1)).toMatchObject({ author: 'user', via: 'email', body: 'Here is a photo of the display.', refused_attachments: ['display.jpg'] })
    const notes = await outbox('user@example.com', 'support-refused')
    expect(notes.at(-1)!.body_text).toContain('display.jpg')
    expect(notes.at(-1)!.reply_to).toBe(address)
    const stored = await env.app.domain!.db.selectFrom('support_messages').select('body').where('ticket_id', '=', id).execute()
    expect(JSON.stringify(stored)).not.toContain('not really a jpeg')
  })

  it('refuses mail to an unknown reply address and from a stranger; nothing lands', async () => {
    const { conversation_id: id } = await openTicket(env.tokens.user, 'Stranger test')
    const address = await env.app.domain!.support.replyAddressOf(id)
    await expect(mailReply('user@example.com', `support+${'0'.repeat(40)}@cockpit.local`, 'guess')).rejects.toThrow(/550/)
    await expect(mailReply('user@example.com', 'anyone@cockpit.local', 'relay?')).rejects.toThrow(/550/)
    await expect(mailReply('admin@example.com', address, 'I am not the owner')).rejects.toThrow(/550/)
    const ticket = (await api().get(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.user)).expect(200)).body
    expect(ticket.messages).toHaveLength(1)
  })

  it('a closed ticket takes no replies (the sender is told) until support reopens it', async () => {
    const { conversation_id: id } = await openTicket(env.tokens.user, 'Close me')
    const address = await env.app.domain!.support.replyAddressOf(id)
    const closed = await api().patch(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.super)).send({ status: 'closed' }).expect(200)
    expect(closed.body.status).toBe('closed')
    expect((await outbox('user@example.com', 'support-status')).at(-1)!.body_text).toContain('closed')
    await mailReply('user@example.com', address, 'One more thing')
    expect((await outbox('user@example.com', 'support-refused')).at(-1)!.body_text).toContain('This ticket is closed')
    const r = await api().post(`/api/emails/support-tickets/${id}/messages`).set(auth(env.tokens.super)).send({ message: 'late' }).expect(400)
    expect(r.body.detail).toBe('This ticket is closed. Reopen it to write in it.')
    expect((await api().get(`/api/emails/support-tickets/?status=closed`).set(auth(env.tokens.user)).expect(200)).body.results.map((t: { id: number }) => t.id)).toContain(id)
    await api().patch(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.super)).send({ status: 'open' }).expect(200)
    await mailReply('user@example.com', address, 'One more thing')
    const ticket = (await api().get(`/api/emails/support-tickets/${id}/`).set(auth(env.tokens.user)).expect(200)).body
    expect(ticket).toMatchObject({ status: 'open' })
    expect(ticket.messages.map((m: { body: string }) => m.body)).toEqual(['Close me', 'One more thing'])
  })
})

describe('support mail settings', () => {
  it('derive the support address from MAIL_FROM, and check the receiver port and the IMAP URL', () => {
    expect(loadConfig({ MAIL_FROM: 'Cockpit <no-reply@cockpit.example.ch>' }).supportAddress).toBe('support@cockpit.example.ch')
    expect(loadConfig({ SUPPORT_ADDRESS: 'help@example.ch', INBOUND_SMTP_PORT: '2525', IMAP_URL: 'imaps://u:p@mail.example.ch/INBOX' })).toMatchObject({ supportAddress: 'help@example.ch', inboundSmtpPort: 2525, imapUrl: 'imaps://u:p@mail.example.ch/INBOX' })
    expect(() => loadConfig({ IMAP_URL: 'http://mail.example.ch' })).toThrow(ConfigError)
    expect(() => loadConfig({ INBOUND_SMTP_PORT: '70000' })).toThrow(/INBOUND_SMTP_PORT/)
  })
})
