import type { Lang } from '../../../lib/messages.ts'

/** A rendered message: subject, plain text and HTML (every template has both). */
export interface RenderedMail {
  subject: string
  text: string
  html: string
}

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/**
 * Wrap paragraphs and one call-to-action link in a minimal, mail-client-safe HTML page. `paragraphs`
 * are plain text (escaped here); `action` is the button under them.
 */
export function htmlPage(lang: Lang, paragraphs: string[], action?: { label: string; url: string }, after: string[] = []): string {
  const p = (t: string) => `<p style="margin:0 0 16px;font:15px/1.5 Arial,sans-serif;color:#0f172a">${escapeHtml(t)}</p>`
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#047857;color:#ffffff;font:bold 15px Arial,sans-serif;text-decoration:none">${escapeHtml(action.label)}</a></p>`
    : ''
  return `<!doctype html><html lang="${lang}"><body style="margin:0;padding:24px;background:#f8fafc"><div style="max-width:560px;margin:auto;padding:24px;background:#ffffff;border-radius:12px">${paragraphs.map(p).join('')}${button}${after.map(p).join('')}<p style="margin:24px 0 0;font:13px Arial,sans-serif;color:#64748b">Cockpit</p></div></body></html>`
}

/** The user's language for mail: the first two letters of ietf_lang_tag when supported, else en. */
export function mailLang(tag: string | null | undefined): Lang {
  const l = (tag ?? '').slice(0, 2).toLowerCase()
  return l === 'de' || l === 'fr' || l === 'it' ? l : 'en'
}
