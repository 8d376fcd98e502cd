import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** One message as the capturing SMTP server received it: its envelope recipients (comma-joined) and the raw message. */
export interface CapturedMail { to: string; raw: string }

/**
 * A real SMTP server (smtp-server, RFC 5321) for a test: every message is kept raw in `received`, in the
 * order it arrived. `listen(port)` starts it on 127.0.0.1 (a free port when 0 or left out) and resolves to
 * its smtp:// address; `refuse()` true makes it answer the message's data with a permanent error (a mailbox
 * that does not accept it), so a test can watch the sender retry. Used by the integration tests
 * (tests/integration/helpers.ts) and the browser tests (tests/e2e/mail-capture.ts).
 */
export function captureSmtp(opts: { refuse?: () => boolean } = {}) {
  const received: CapturedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (c: Buffer) => (raw += c.toString()))
      stream.on('end', () => {
        if (opts.refuse?.()) return callback(new Error('mailbox unavailable'))
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw })
        callback()
      })
    },
  })
  return {
    received,
    async listen(port = 0): Promise<string> {
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
      return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/** Undo quoted-printable soft breaks and =XX escapes (RFC 2045 §6.7), so links can be read from a raw message. */
export const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
