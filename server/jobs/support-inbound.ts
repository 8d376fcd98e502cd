import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser'
import { ImapFlow } from 'imapflow'
import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import type { InboundOutcome } from '../domain/support/service.ts'
import type { Job } from './runner.ts'
import { stripQuoted, tokensIn } from '../domain/support/reply.ts'

/** Largest inbound mail accepted (SMTP SIZE); larger ones are refused with 552 before their data is read. */
export const INBOUND_MAX_BYTES = 10 * 1024 * 1024
/** How often the IMAP mailbox is read. */
export const IMAP_POLL_MS = 60_000

const addressesOf = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? ''))

/** Mail that no person wrote: auto-replies, bounces, lists. Kept off tickets, and never answered (no mail loops). */
function isAutomatic(mail: ParsedMail): boolean {
  const auto = String(mail.headers.get('auto-submitted') ?? 'no').toLowerCase()
  const precedence = String(mail.headers.get('precedence') ?? '').toLowerCase()
  return auto !== 'no' || ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence) || mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond')
}

/**
 * Hand one raw message to the support service (domain/support receive): tokens from the envelope
 * recipients (SMTP) and the To, Cc, Delivered-To and X-Original-To headers, sender from From, the text
 * (mailparser's plain text, derived from HTML when there is none) without quoting, and the names of all
 * attachments (none are kept). Automatic mail gives no outcome.
 */
export async function handleInbound(domain: Domain, supportAddress: string, raw: Buffer, envelopeTo: string[] = []): Promise<Record<string, InboundOutcome>> {
  const mail = await simpleParser(raw, { skipHtmlToText: false, skipTextLinks: true })
  if (isAutomatic(mail)) return {}
  const header = (name: string) => [mail.headers.get(name)].flat().filter(Boolean).map((v) => (typeof v === 'string' ? v : ((v as AddressObject).value ?? []).map((x) => x.address ?? '').join(',')))
  const recipients = [...envelopeTo, ...addressesOf(mail.to), ...addressesOf(mail.cc), ...header('delivered-to'), ...header('x-original-to')].flatMap((a) => a.split(','))
  const tokens = tokensIn(recipients, supportAddress)
  const from = addressesOf(mail.from)[0] ?? ''
  if (!tokens.length || !from) return {}
  const attachments = mail.attachments.filter((a) => !(a.related && a.contentDisposition === 'inline')).map((a, i) => a.filename || `attachment-${i + 1}`)
  return domain.support.receive({ tokens, from, text: stripQuoted(mail.text ?? ''), attachments })
}

/**
 * The built-in SMTP receiver (INBOUND_SMTP_PORT): takes replies to support tickets. RCPT TO
 * is accepted only for a ticket's reply address (550 otherwise, so nothing else is relayed or stored);
 * a message from someone who is neither the ticket's owner nor support is refused with 550 after DATA.
 * No AUTH and no STARTTLS: it is meant to sit behind the organisation's MX (or on a private network),
 * which forwards support+*@ to it (docs/decisions.md). Resolves once listening; `port` is the bound port.
 */
export async function startSmtpReceiver({ domain, supportAddress, port, host = '0.0.0.0', log }: { domain: Domain; supportAddress: string; port: number; host?: string; log?: FastifyBaseLogger }) {
  const server = new SMTPServer({
    name: supportAddress.split('@')[1],
    banner: 'Cockpit support',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: INBOUND_MAX_BYTES,
    logger: false,
    async onRcptTo(address, _session, callback) {
      try {
        const [token] = tokensIn([address.address], supportAddress)
        if (token && (await domain.support.knowsToken(token))) return callback()
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }))
      } catch (err) {
        callback(err as Error)
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) return callback(Object.assign(new Error('Message too large'), { responseCode: 552 }))
        handleInbound(domain, supportAddress, Buffer.concat(chunks), session.envelope.rcptTo.map((r) => r.address)).then((outcomes) => {
          const values = Object.values(outcomes)
          log?.info({ outcomes }, 'support reply received by SMTP')
          if (values.length && values.every((o) => o === 'foreign-sender')) return callback(Object.assign(new Error('Sender not allowed on this ticket'), { responseCode: 550 }))
          callback()
        }, (err: unknown) => {
          log?.error({ err }, 'support reply could not be stored')
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }))
        })
      })
    },
  })
  server.on('error', (err) => log?.error({ err }, 'inbound SMTP error'))
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * Read replies from an IMAP mailbox (IMAP_URL imap[s]://user:password@host[:port][/mailbox], default INBOX):
 * every unseen message is handed to {@link handleInbound} and then flagged \Seen, so each is read once.
 */
export async function pollImap({ domain, supportAddress, imapUrl, log }: { domain: Domain; supportAddress: string; imapUrl: string; log?: FastifyBaseLogger }): Promise<number> {
  const url = new URL(imapUrl)
  const client = new ImapFlow({
    host: url.hostname,
    port: Number(url.port) || (url.protocol === 'imaps:' ? 993 : 143),
    secure: url.protocol === 'imaps:',
    auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    logger: false,
  })
  await client.connect()
  let handled = 0
  try {
    const lock = await client.getMailboxLock(decodeURIComponent(url.pathname.replace(/^\//, '')) || 'INBOX')
    try {
      const unseen: { uid: number; source: Buffer }[] = []
      for await (const m of client.fetch({ seen: false }, { uid: true, source: true })) if (m.source) unseen.push({ uid: m.uid, source: m.source })
      for (const m of unseen) {
        try {
          const outcomes = await handleInbound(domain, supportAddress, m.source)
          log?.info({ uid: m.uid, outcomes }, 'support reply read from IMAP')
          handled++
        } catch (err) {
          // Left unseen: read again at the next poll.
          log?.error({ err, uid: m.uid }, 'support reply from IMAP could not be stored')
          continue
        }
        await client.messageFlagsAdd({ uid: String(m.uid) }, ['\\Seen'], { uid: true })
      }
    } finally {
      lock.release()
    }
  } finally {
    await client.logout().catch(() => undefined)
  }
  return handled
}

/**
 * Read the IMAP mailbox every minute (server/jobs/runner.ts: on Postgres one process in the cluster reads it
 * at a time, so two processes never hand the same message on twice).
 */
export function createImapJob({ domain, supportAddress, imapUrl, log }: { domain: Domain; supportAddress: string; imapUrl: string; log: FastifyBaseLogger }): Job {
  return {
    name: 'support-imap',
    schedule: { everySeconds: IMAP_POLL_MS / 1000 },
    runAtStart: true,
    async run() {
      await pollImap({ domain, supportAddress, imapUrl, log }).catch((err: unknown) => log.warn({ err: (err as Error).message }, 'IMAP mailbox not read, will retry'))
    },
  }
}

/**
 * The SMTP receiver as a background service of this process (started by server/app.ts startBackground,
 * stopped on close): a listener, not a scheduled job, so each process that is given INBOUND_SMTP_PORT
 * listens on its own host.
 */
export function createSmtpReceiverService(opts: { domain: Domain; supportAddress: string; port: number; host?: string; log: FastifyBaseLogger }) {
  let receiver: Awaited<ReturnType<typeof startSmtpReceiver>> | undefined
  return {
    async start() {
      receiver = await startSmtpReceiver(opts)
      opts.log.info({ port: receiver.port }, 'support SMTP receiver listening')
    },
    async stop() {
      await receiver?.close()
      receiver = undefined
    },
  }
}
