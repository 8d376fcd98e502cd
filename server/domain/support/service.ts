import crypto from 'node:crypto'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { MailService } from '../mail/service.ts'
import { htmlPage, mailLang } from '../mail/templates/layout.ts'
import { AppError, Forbidden, NotFound } from '../../lib/errors.ts'
import type { Lang } from '../../lib/messages.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { SupportMessage, SupportRequest, SupportTicket, SupportTicketSummary, SupportTopic } from '../../../shared/schemas/support.ts'
import { REPLY_MARKER, replyAddress, TOKEN_HEX_LENGTH } from './reply.ts'
import { fill, MAIL_TEXTS, TOPIC_NAMES } from './texts.ts'
import type { Clock } from '../../lib/clock.ts'

/** The longest text kept from an e-mail reply (a portal message is limited to 5,000 by its schema). */
const INBOUND_TEXT_MAX = 10_000

/** A reply that arrived by e-mail, as the inbound readers (server/jobs/support-inbound.ts) hand it over. */
export interface InboundReply {
  /** the ticket tokens found in the recipients (domain/support/reply.ts tokensIn) */
  tokens: string[]
  /** the sender's address (From) */
  from: string
  /** the new text, quoting already stripped */
  text: string
  /** file names of the mail's attachments (none are kept) */
  attachments: string[]
}

/** What became of an inbound reply, per token. */
export type InboundOutcome = 'stored' | 'closed' | 'unknown' | 'foreign-sender' | 'empty'

interface Deps {
  db: Db
  /** The process clock (ARCHITECTURE §1 "Time"): stamps tickets and messages, so "latest" follows it. */
  clock: Clock
  mail: MailService
  /** e.g. "support@cockpit.example": reply addresses are support+<token>@cockpit.example */
  supportAddress: string
  /** where mails link to; the client's ticket screen is under it */
  publicUrl: string
}

/**
 * Support tickets with e-mail replies (SPEC §2, §3, §4, §7). A person opens a ticket with a
 * topic and a message; superusers are support: they see every ticket, answer in the portal, close and
 * reopen. Others see only their own (404 for anyone else's, so ids reveal nothing). Every mail about a
 * ticket goes out with its reply address (support+<token>@domain, 160 random bits) as Reply-To; a reply
 * to it from the owner or from a superuser lands on the ticket ({@link receive}), quoting stripped,
 * attachments refused with a note to the sender. A closed ticket takes no e-mail replies (SPEC §4 "open
 * (reply by e-mail) or closed"): the sender is told. Errors: 404 unknown or someone else's, 403 not
 * support, 400 `ticketClosed` answering a closed ticket.
 */
export function createSupportService({ db, clock, mail, supportAddress, publicUrl }: Deps) {
  const ticketRows = () =>
    db
      .selectFrom('support_tickets as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 't.user_id', 't.installation_id', 't.topic', 't.status', 't.reply_token', 't.created_at', 'u.email', 'u.first_name', 'u.last_name', 'u.ietf_lang_tag'])
      .select((eb) => [
        eb.selectFrom('support_messages as m').select('m.body').whereRef('m.ticket_id', '=', 't.id').orderBy('m.id').limit(1).as('first_message'),
        eb.selectFrom('support_messages as m').select((e) => e.fn.max('m.created_at').as('x')).whereRef('m.ticket_id', '=', 't.id').as('last_activity'),
        eb.selectFrom('support_messages as m').select((e) => e.fn.countAll<number>().as('x')).whereRef('m.ticket_id', '=', 't.id').as('messages_count'),
      ])

  type Row = Awaited<ReturnType<ReturnType<typeof ticketRows>['executeTakeFirstOrThrow']>>
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : '')
  const fullName = (r: { first_name: string; last_name: string; email: string }) => `${r.first_name} ${r.last_name}`.trim() || r.email

  const summary = (r: Row): SupportTicketSummary => ({
    id: r.id,
    conversation_id: r.id,
    created: iso(r.created_at),
    topic: r.topic as SupportTopic,
    message: r.first_message ?? '',
    status: r.status,
    installation_id: r.installation_id,
    owner: { id: r.user_id, full_name: fullName(r), email: r.email },
    last_activity: iso((r.last_activity as Date | null) ?? r.created_at),
    messages_count: Number(r.messages_count ?? 0),
  })

  async function visibleRow(actor: Actor, id: number): Promise<Row> {
    const r = await ticketRows().where('t.id', '=', id).executeTakeFirst()
    if (!r || (!actor.is_superuser && r.user_id !== actor.id)) throw NotFound()
    return r
  }

  async function withMessages(r: Row): Promise<SupportTicket> {
    const messages = await db.selectFrom('support_messages').selectAll().where('ticket_id', '=', r.id).orderBy('id').execute()
    return {
      ...summary(r),
      messages: messages.map((m): SupportMessage => ({ id: m.id, author: m.author, via: m.via, body: m.body, refused_attachments: m.refused_attachments ?? [], created: iso(m.created_at) })),
    }
  }

  /** Support's mailboxes: active superusers (not service accounts). */
  const supportRecipients = () => db.selectFrom('users').select(['email', 'ietf_lang_tag']).where('is_superuser', '=', true).where('is_active', '=', true).where('is_service', '=', false).execute()

  const ticketLink = (r: Pick<Row, 'id' | 'installation_id'>) => (r.installation_id ? `${publicUrl}/facility/${r.installation_id}/support/${r.id}` : `${publicUrl}/`)

  /** One mail about ticket `r` to `to`, in `lang`, with the ticket's reply address. `lines` above the quoted text. */
  async function send(r: Row, to: string, lang: Lang, kind: string, lines: string[], quoted?: string) {
    const T = MAIL_TEXTS[lang]
    const subject = fill(T.subject, { n: r.id, topic: TOPIC_NAMES[lang][r.topic as SupportTopic] ?? r.topic })
    const body = quoted ? [...lines, '', quoted] : lines
    const text = [REPLY_MARKER, '', ...body, '', `${T.open}: ${ticketLink(r)}`].join('\n')
    await mail.enqueue({ kind, to, subject, text, html: htmlPage(lang, [REPLY_MARKER, ...body], { label: T.open, url: ticketLink(r) }), replyTo: replyAddress(supportAddress, r.reply_token) })
  }

  async function notifySupport(r: Row, key: 'newTicket' | 'userReplied', text: string, except?: string) {
    for (const s of await supportRecipients()) {
      if (s.email === except) continue
      const lang = mailLang(s.ietf_lang_tag)
      await send(r, s.email, lang, 'support-inbox', [fill(MAIL_TEXTS[lang][key], { name: fullName(r), email: r.email })], text)
    }
  }

  async function addMessage(ticketId: number, m: { author: 'user' | 'support'; author_user_id: number | null; body: string; via: 'portal' | 'email'; refused_attachments?: string[] }) {
    const now = clock.now()
    await db.insertInto('support_messages').values({ ticket_id: ticketId, ...m, refused_attachments: JSON.stringify(m.refused_attachments ?? []), created_at: now }).execute()
    await db.updateTable('support_tickets').set({ updated_at: now }).where('id', '=', ticketId).execute()
  }

  const service = {
    /** The reply address of a ticket (for tests and the inbox view): support+<token>@domain. */
    async replyAddressOf(ticketId: number): Promise<string> {
      const r = await db.selectFrom('support_tickets').select('reply_token').where('id', '=', ticketId).executeTakeFirstOrThrow()
      return replyAddress(supportAddress, r.reply_token)
    },

    /**
     * POST /emails/send-support-email/ (SPEC §7): open a ticket with `topic` and `message`; the
     * installation the caller writes from (`installation_id`, optional) is kept for the link in mails. Mails: a confirmation to the
     * owner and the ticket to every superuser, each with the reply address.
     */
    async create(actor: Actor, input: SupportRequest): Promise<SupportTicket> {
      let installationId = input.installation_id ?? null
      if (installationId !== null) {
        const member = actor.is_superuser || (await db.selectFrom('installation_users').select('user_id').where('user_id', '=', actor.id).where('installation_id', '=', installationId).executeTakeFirst())
        const exists = await db.selectFrom('installations').select('id').where('id', '=', installationId).executeTakeFirst()
        if (!member || !exists) installationId = null
      }
      const token = crypto.randomBytes(TOKEN_HEX_LENGTH / 2).toString('hex')
      const now = clock.now()
      const t = await db.insertInto('support_tickets').values({ user_id: actor.id, installation_id: installationId, topic: input.topic, reply_token: token, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()
      await addMessage(t.id, { author: 'user', author_user_id: actor.id, body: input.message, via: 'portal' })
      const r = await visibleRow(actor, t.id)
      const lang = mailLang(r.ietf_lang_tag)
      await send(r, r.email, lang, 'support-confirmation', [MAIL_TEXTS[lang].opened], input.message)
      await notifySupport(r, 'newTicket', input.message, r.email)
      return withMessages(r)
    },

    /** GET /emails/support-tickets/: the caller's tickets (superusers: all), newest activity first; `status` filters. */
    async list(actor: Actor, q: { status?: 'open' | 'closed'; limit: number; offset: number }): Promise<PageOf<SupportTicketSummary>> {
      let query = ticketRows()
      let count = db.selectFrom('support_tickets as t').select((eb) => eb.fn.countAll<number>().as('n'))
      if (!actor.is_superuser) {
        query = query.where('t.user_id', '=', actor.id)
        count = count.where('t.user_id', '=', actor.id)
      }
      if (q.status) {
        query = query.where('t.status', '=', q.status)
        count = count.where('t.status', '=', q.status)
      }
      const rows = await query.orderBy('t.updated_at', 'desc').orderBy('t.id', 'desc').limit(q.limit).offset(q.offset).execute()
      const n = Number((await count.executeTakeFirstOrThrow()).n)
      return { count: n, next: null, previous: null, results: rows.map(summary) }
    },

    /** GET /emails/support-tickets/{conversation_id}: the ticket and its conversation; 404 unless own or superuser. */
    async get(actor: Actor, id: number): Promise<SupportTicket> {
      return withMessages(await visibleRow(actor, id))
    },

    /**
     * A message written in the portal: by support (a superuser) → mailed to the owner; by the owner → mailed
     * to support. 400 `ticketClosed` when the ticket is closed.
     */
    async post(actor: Actor, id: number, body: string): Promise<SupportTicket> {
      const r = await visibleRow(actor, id)
      if (r.status === 'closed') throw new AppError(400, 'ticketClosed')
      const own = r.user_id === actor.id
      await addMessage(id, { author: own ? 'user' : 'support', author_user_id: actor.id, body, via: 'portal' })
      if (own) await notifySupport(r, 'userReplied', body)
      else {
        const lang = mailLang(r.ietf_lang_tag)
        await send(r, r.email, lang, 'support-answer', [MAIL_TEXTS[lang].answered], body)
      }
      return withMessages(r)
    },

    /** Close or reopen (superusers); the owner is told by mail. */
    async setStatus(actor: Actor, id: number, status: 'open' | 'closed'): Promise<SupportTicket> {
      if (!actor.is_superuser) throw Forbidden()
      const r = await visibleRow(actor, id)
      if (r.status !== status) {
        await db.updateTable('support_tickets').set({ status, updated_at: clock.now() }).where('id', '=', id).execute()
        const lang = mailLang(r.ietf_lang_tag)
        await send({ ...r, status }, r.email, lang, 'support-status', [MAIL_TEXTS[lang][status === 'closed' ? 'closed' : 'reopened']])
      }
      return withMessages(await visibleRow(actor, id))
    },

    /** Whether `token` names a ticket (the SMTP receiver refuses other recipients at RCPT TO). */
    async knowsToken(token: string): Promise<boolean> {
      return Boolean(await db.selectFrom('support_tickets').select('id').where('reply_token', '=', token.toLowerCase()).executeTakeFirst())
    },

    /**
     * A reply by e-mail. For each token: the sender must be the ticket's owner (→ a message
     * from the user, mailed on to support) or a superuser (→ from support, mailed on to the owner); others are
     * refused ('foreign-sender'). A closed ticket keeps nothing and the sender is told ('closed'). Attachments
     * are never kept: the text is, their names are recorded, and the sender gets a note. Text is cut at
     * 10,000 characters; control characters other than tab and line ends are removed.
     */
    async receive(reply: InboundReply): Promise<Record<string, InboundOutcome>> {
      const out: Record<string, InboundOutcome> = {}
      const from = reply.from.trim().toLowerCase()
      // eslint-disable-next-line no-control-regex
      const text = reply.text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '').slice(0, INBOUND_TEXT_MAX).trim()
      for (const token of reply.tokens) {
        const r = await ticketRows().where('t.reply_token', '=', token.toLowerCase()).executeTakeFirst()
        if (!r) {
          out[token] = 'unknown'
          continue
        }
        const sender = r.email.toLowerCase() === from
          ? { author: 'user' as const, id: r.user_id, lang: mailLang(r.ietf_lang_tag) }
          : await db.selectFrom('users').select(['id', 'ietf_lang_tag']).where((eb) => eb(eb.fn('lower', ['email']), '=', from)).where('is_superuser', '=', true).where('is_active', '=', true).executeTakeFirst()
            .then((s) => (s ? { author: 'support' as const, id: s.id, lang: mailLang(s.ietf_lang_tag) } : null))
        if (!sender) {
          out[token] = 'foreign-sender'
          continue
        }
        if (r.status === 'closed') {
          await send(r, from, sender.lang, 'support-refused', [MAIL_TEXTS[sender.lang].closedRefused])
          out[token] = 'closed'
          continue
        }
        if (!text && !reply.attachments.length) {
          out[token] = 'empty'
          continue
        }
        await addMessage(r.id, { author: sender.author, author_user_id: sender.id, body: text, via: 'email', refused_attachments: reply.attachments })
        if (reply.attachments.length) await send(r, from, sender.lang, 'support-refused', [fill(MAIL_TEXTS[sender.lang].attachmentsRefused, { names: reply.attachments.join(', ') })])
        if (sender.author === 'user') await notifySupport(r, 'userReplied', text)
        else {
          const lang = mailLang(r.ietf_lang_tag)
          await send(r, r.email, lang, 'support-answer', [MAIL_TEXTS[lang].answered], text)
        }
        out[token] = 'stored'
      }
      return out
    },
  }
  return service
}
export type SupportService = ReturnType<typeof createSupportService>
