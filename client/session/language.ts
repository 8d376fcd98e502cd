import { COUNTRIES } from '../../shared/rules/regions.ts'
import type { User } from '../../shared/schemas/auth.ts'
import { apiFetch } from '../api/http.ts'
import { currentLanguage, isLanguage, setLanguage, type Language } from '../i18n/index.ts'
import { ensureUser } from './api.ts'
import { session } from './session.ts'
import { watchSession } from './use-session.ts'

/**
 * One language state (SPEC §9 "language and region", Settings): once someone is signed in, the language
 * saved on their account (users.ietf_lang_tag, "de-CH" style) is the truth. It is applied at sign-in in
 * any browser and whenever the user record arrives or changes; the header's picker writes to it. Before
 * sign-in the picker only sets this browser's choice (client/i18n/index.ts). docs/decisions.md
 * "Client: the account's language is the truth once signed in".
 */

/** The UI language of a "de-CH" style tag (its first part), or null when it names none of SPEC §9's. */
export function languageOfTag(tag: string | null | undefined): Language | null {
  const language = (tag ?? '').split('-')[0]
  return isLanguage(language) ? language : null
}

/**
 * The tag saved when the language changes to `language`: the region of `tag` kept (the region format is
 * chosen on its own in Settings), Switzerland when it names none of SPEC §9's countries.
 */
export function tagWithLanguage(tag: string | null | undefined, language: Language): string {
  const region = (tag ?? '').split('-')[1]
  return `${language}-${region && (COUNTRIES as readonly string[]).includes(region) ? region : 'CH'}`
}

/**
 * Switch the UI to the language of the user's saved `tag` (and remember it in this browser, so the next
 * load starts in it); resolves once its texts are loaded. Nothing happens for a tag without one of
 * SPEC §9's languages or when the UI already shows it.
 */
export async function applyUserLanguage(tag: string | null | undefined): Promise<void> {
  const language = languageOfTag(tag)
  if (language && language !== currentLanguage()) await setLanguage(language)
}

/**
 * Keep the UI in the signed-in user's saved language: whenever the session's user record arrives (sign-in,
 * a load with a session) or its language changes (Settings, another tab's save read again), the UI
 * follows. Returns the stop function.
 */
export function followUserLanguage(): () => void {
  return watchSession((s) => s.user?.ietf_lang_tag ?? null, (tag) => void applyUserLanguage(tag))
}

/** PATCH /api/users/{id}/ {ietf_lang_tag} → the updated User (the call Settings saves with). */
function saveLanguageTag(userId: number, tag: string): Promise<User> {
  return apiFetch<User>(`/api/users/${userId}/`, { method: 'PATCH', body: { ietf_lang_tag: tag } })
}

/**
 * The header's language picker: switch the UI to `language` at once; when signed in, also save it on the
 * account (keeping the region), so Settings shows the same and the next sign-in elsewhere starts in it.
 * Rejects when the save fails (the UI keeps the language in this browser; the account keeps its own).
 */
export async function chooseLanguage(language: Language): Promise<void> {
  await setLanguage(language)
  if (!session.loggedIn) return
  const user = await ensureUser()
  const tag = tagWithLanguage(user.ietf_lang_tag, language)
  if (tag === user.ietf_lang_tag) return
  const saved = await saveLanguageTag(user.id, tag)
  if (session.userId === saved.id) session.user = saved
}
