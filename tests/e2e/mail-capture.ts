import { test } from '@playwright/test'
import { captureSmtp, type CapturedMail } from '../smtp-capture.ts'

export { decodeQp } from '../smtp-capture.ts'

/** The SMTP port the e2e server sends to: E2E_PORT + 1000 (config/playwright.config.ts). */
export const SMTP_PORT = Number(process.env.E2E_PORT ?? 3199) + 1000

/**
 * Capture the mail the server sends during a spec: starts an SMTP server (tests/smtp-capture.ts) on
 * 127.0.0.1:SMTP_PORT before the spec's tests and stops it after. Returns the list it fills with
 * { to, raw } per message.
 */
export function captureMail(): CapturedMail[] {
  const smtp = captureSmtp()
  test.beforeAll(async () => {
    await smtp.listen(SMTP_PORT)
  })
  test.afterAll(async () => {
    await smtp.close()
  })
  return smtp.received
}
