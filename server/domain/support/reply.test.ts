import { describe, expect, it } from 'vitest'
import { REPLY_MARKER, replyAddress, stripQuoted, tokensIn } from './reply.ts'

const token = 'a'.repeat(20) + '0123456789abcdef0123'

describe('support reply addresses', () => {
  it('finds the token of support+<token>@domain without case, and nothing else', () => {
    expect(replyAddress('support@cockpit.example', token)).toBe(`support+${token}@cockpit.example`)
    expect(tokensIn([`Support+${token.toUpperCase()}@Cockpit.Example`, 'support@cockpit.example', `support+${token}@other.example`, `sales+${token}@cockpit.example`, `support+${token.slice(1)}@cockpit.example`], 'support@cockpit.example')).toEqual([token])
  })
})

describe('stripQuoted', () => {
  it('keeps the new text above a Gmail-style quote', () => {
    expect(stripQuoted('Thanks, it works now.\n\nOn Mon, 23 Nov 2026 at 10:00, Support <support+x@c.ch> wrote:\n> Please try again\n> ' + REPLY_MARKER)).toBe('Thanks, it works now.')
  })
  it('recognises a quote header wrapped over two lines and the German, French and Italian ones', () => {
    expect(stripQuoted('Danke!\nAm 23.11.2026 um 10:00 schrieb Support\n<support+x@c.ch>:\n> alt')).toBe('Danke!')
    expect(stripQuoted('Merci\nLe lun. 23 nov. 2026 à 10:00, Support a écrit :\n> ancien')).toBe('Merci')
    expect(stripQuoted('Grazie\nIl giorno lun 23 nov 2026, Support ha scritto:\n> vecchio')).toBe('Grazie')
    expect(stripQuoted('Yes\nOn Mon, 23 Nov 2026 at 10:00, Support <support+x@c.ch>\nwrote:\n> old')).toBe('Yes')
  })
  it("cuts at Outlook's original-message block, at the marker and at a signature; drops quoted lines", () => {
    expect(stripQuoted('See below\r\n\r\n-----Original Message-----\r\nFrom: Support\r\nold')).toBe('See below')
    expect(stripQuoted('Short\n________________________________\nFrom: Support <s@c.ch>\nSent: Monday')).toBe('Short')
    expect(stripQuoted(`Answer\n\n${REPLY_MARKER}\nold text`)).toBe('Answer')
    expect(stripQuoted('Line one\n> quoted\nLine two\n-- \nAnna Muster\n+41 00')).toBe('Line one\nLine two')
  })
  it('keeps a text without any quote as it is', () => {
    expect(stripQuoted('Hello\n\nfrom my new car: it charges.')).toBe('Hello\n\nfrom my new car: it charges.')
  })
})
