import { test } from '@playwright/test'
import { SMTPServer } from 'smtp-server'

/** The SMTP port the e2e server sends to: E2E_PORT + 1000 (config/playwright.config.ts). */
export const SMTP_PORT = Number(process.env.E2E_PORT ?? 3199) + 1000

/**
 * Capture the mail the server sends during a spec: starts an SMTP server on 127.0.0.1:SMTP_PORT
 * before the spec's tests and stops it after. Returns the list it fills with { to, raw } per message.
 */
export function captureMail(): { to: string; raw: string }[] {
  const mails: { to: string; raw: string }[] = []
  let smtp: SMTPServer
  test.beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = ''
        stream.on('data', (c: Buffer) => (raw += c.toString()))
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(SMTP_PORT, '127.0.0.1', resolve))
  })
  test.afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
  })
  return mails
}

/** Undo quoted-printable soft breaks and escapes, so links in a raw mail can be matched. */
export const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
