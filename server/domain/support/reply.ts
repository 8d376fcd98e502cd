/**
 * Reading an e-mail reply to a support ticket: the ticket's token from the reply address,
 * and the new text without the quoted conversation below it.
 */

/** Marker above the text of every ticket mail; a reply is cut where its quote of this line starts. */
export const REPLY_MARKER = '— ## Reply above this line ## —'

/** Length of a reply token: 20 random bytes as lowercase hex (160 bits). */
export const TOKEN_HEX_LENGTH = 40

/**
 * The ticket tokens in `addresses` that are reply addresses of `supportAddress` ("support@example.ch"):
 * `support+<40 hex>@example.ch`, compared without case (some mail servers change the case of addresses).
 * Distinct, in order of appearance.
 */
export function tokensIn(addresses: readonly string[], supportAddress: string): string[] {
  const at = supportAddress.lastIndexOf('@')
  const local = supportAddress.slice(0, at).toLowerCase()
  const domain = supportAddress.slice(at + 1).toLowerCase()
  const found: string[] = []
  for (const raw of addresses) {
    const a = raw.trim().toLowerCase()
    const i = a.lastIndexOf('@')
    if (i < 0 || a.slice(i + 1) !== domain) continue
    const m = /^(.+)\+([0-9a-f]+)$/.exec(a.slice(0, i))
    if (m && m[1] === local && m[2].length === TOKEN_HEX_LENGTH && !found.includes(m[2])) found.push(m[2])
  }
  return found
}

/** The reply address of the ticket with `token`: support+<token>@domain of `supportAddress`. */
export function replyAddress(supportAddress: string, token: string): string {
  const at = supportAddress.lastIndexOf('@')
  return `${supportAddress.slice(0, at)}+${token}@${supportAddress.slice(at + 1)}`
}

// Lines where mail programs start the quoted message, in the four languages and the common clients.
const QUOTE_HEADERS = [
  /^on\b.*\bwrote:\s*$/i, // Gmail, Apple Mail, Thunderbird (en)
  /^am\b.*\bschrieb\b.*:\s*$/i, // de
  /^le\b.*\ba écrit\s*:\s*$/i, // fr
  /^il\b.*\bha scritto\s*:\s*$/i, // it
  /^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|messaggio originale)\s*-{2,}\s*$/i, // Outlook
  /^_{10,}\s*$/, // Outlook's rule above the "From:" block
  /^(from|von|de|da):\s.+$/i, // a "From:" header block
]

/**
 * The new text of a reply: everything above the quoted conversation. Cuts at the quote of
 * {@link REPLY_MARKER}, at a quote header ("On … wrote:", "Am … schrieb …:", "Le … a écrit :", "Il … ha
 * scritto:", Outlook's "-----Original Message-----" or "From:" block) and at the signature separator
 * "-- "; drops lines quoted with ">". Header lines wrapped over two lines ("On Mon, … <a@b>\nwrote:")
 * are recognised too. Trailing blank lines are removed; line ends become "\n".
 */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const kept: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const plain = line.replace(/^>+\s?/, '').trim()
    if (plain.includes(REPLY_MARKER)) break
    if (line === '-- ' || line === '--') break
    const joined = i + 1 < lines.length ? `${line.trim()} ${lines[i + 1].trim()}` : line.trim()
    if (!line.startsWith('>') && (QUOTE_HEADERS.some((re) => re.test(line.trim())) || (/^(on|am|le|il)\b/i.test(line.trim()) && QUOTE_HEADERS.slice(0, 4).some((re) => re.test(joined))))) break
    if (line.startsWith('>')) continue
    kept.push(line)
  }
  while (kept.length && !kept[kept.length - 1].trim()) kept.pop()
  while (kept.length && !kept[0].trim()) kept.shift()
  return kept.join('\n')
}
