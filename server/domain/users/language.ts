import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import { LangTag } from '../../../shared/schemas/accounts.ts'

/** The column's own default (server/db/migrations/0001-initial.ts): SPEC §9's default locale is English. */
const FALLBACK_TAG = 'en'

/**
 * The language and region (users.ietf_lang_tag, "de-CH" style, SPEC §9) of a user an admin creates
 * without naming one (POST /api/users/create/): the creating admin's own setting, so an English-speaking
 * admin's resident gets English screens and an English welcome mail, never a hard-coded German.
 * Installations carry no language of their own (SPEC §3 lists none), so the admin's is the first one
 * there is; a stored tag outside {@link LangTag} (older data) gives English, the column's default.
 * `given`: the tag the form sent, which wins when present.
 */
export async function newUserLangTag(db: Db, actor: Actor, given: string | undefined): Promise<string> {
  if (given) return given
  const admin = await db.selectFrom('users').select('ietf_lang_tag').where('id', '=', actor.id).executeTakeFirst()
  const parsed = LangTag.safeParse(admin?.ietf_lang_tag)
  return parsed.success ? parsed.data : FALLBACK_TAG
}
