import { z } from 'zod'
import { Text, TEXT_MAX } from './common.ts'

/** Longest shortcut path: a chart's path with its period fits easily. */
export const SHORTCUT_URL_MAX = 500

/**
 * Whether `url` is a path of this app: starts with "/", no scheme, not "//host" (a
 * protocol-relative link to another site), no backslash (browsers read "/\host" as "//host"), no
 * whitespace or control characters. Query and fragment are allowed (a chart keeps its period there).
 */
export function isAppPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//') && !/[\\\s\u0000-\u001f\u007f]/.test(url) && !/^\/*[a-z][a-z0-9+.-]*:/i.test(url)
}

/** POST …/installations/{id}/shortcuts (SPEC §7): `{name, url}`; url an app path ({@link isAppPath}). */
export const ShortcutCreate = z.object({
  name: Text(TEXT_MAX.name).min(1),
  url: z.string().trim().min(1).max(SHORTCUT_URL_MAX).refine(isAppPath),
})
export type ShortcutCreate = z.infer<typeof ShortcutCreate>

/** A shortcut: one person's pin of an app path in one installation; `created` ISO 8601. */
export const Shortcut = z.object({
  id: z.number().int(),
  installation_id: z.number().int(),
  name: z.string(),
  url: z.string(),
  created: z.string(),
})
export type Shortcut = z.infer<typeof Shortcut>
