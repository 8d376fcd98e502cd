import { beforeEach, describe, expect, it, vi } from 'vitest'

/**
 * The IMAP reader (IMAP_URL) against a stand-in for imapflow's client: no IMAP server is available to the
 * tests, so this checks our side of the protocol — what is fetched, what is handed on, what is flagged.
 */
const calls: { connect: unknown[]; flagged: string[]; lockReleased: boolean; loggedOut: boolean } = { connect: [], flagged: [], lockReleased: false, loggedOut: false }
let messages: { uid: number; source: Buffer }[] = []

vi.mock('imapflow', () => ({
  ImapFlow: class {
    constructor(options: unknown) {
      calls.connect.push(options)
    }
    async connect() {}
    async getMailboxLock(path: string) {
      calls.connect.push({ mailbox: path })
      return { release: () => (calls.lockReleased = true) }
    }
    async *fetch(range: unknown) {
      expect(range).toEqual({ seen: false })
      for (const m of messages) yield m
    }
    async messageFlagsAdd(range: { uid: string }, flags: string[]) {
      expect(flags).toEqual(['\\Seen'])
      calls.flagged.push(range.uid)
      return true
    }
    async logout() {
      calls.loggedOut = true
    }
  },
}))

const { pollImap } = await import('./support-inbound.ts')

const token = '0123456789abcdef0123456789abcdef01234567'
const raw = (body: string, extra = '') =>
  Buffer.from(`From: Laura <user@example.com>\r\nTo: Support <support+${token}@cockpit.local>\r\nSubject: Re: [Support #1]\r\n${extra}Content-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`)

describe('IMAP reader', () => {
  beforeEach(() => {
    calls.connect = []
    calls.flagged = []
    calls.lockReleased = false
    calls.loggedOut = false
  })

  it('hands each unseen reply on (quote stripped), flags it seen, and leaves one that failed unseen for the next poll', async () => {
    const received: unknown[] = []
    const domain = {
      support: {
        async receive(reply: { text: string }) {
          if (reply.text.startsWith('boom')) throw new Error('database down')
          received.push(reply)
          return { [token]: 'stored' }
        },
      },
    }
    messages = [
      { uid: 7, source: raw('Thanks!\r\n\r\nOn Mon, Support wrote:\r\n> old') },
      { uid: 8, source: raw('boom') },
      { uid: 9, source: raw('I am on holiday', 'Auto-Submitted: auto-replied\r\n') },
    ]
    const handled = await pollImap({ domain: domain as never, supportAddress: 'support@cockpit.local', imapUrl: 'imaps://sup%40cockpit.local:p%40ss@mail.example:993/Support' })
    expect(handled).toBe(2)
    expect(received).toEqual([{ tokens: [token], from: 'user@example.com', text: 'Thanks!', attachments: [] }])
    expect(calls.flagged).toEqual(['7', '9'])
    expect(calls.connect[0]).toMatchObject({ host: 'mail.example', port: 993, secure: true, auth: { user: 'sup@cockpit.local', pass: 'p@ss' } })
    expect(calls.connect[1]).toEqual({ mailbox: 'Support' })
    expect(calls.lockReleased).toBe(true)
    expect(calls.loggedOut).toBe(true)
  })
})
