import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import { Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import type { Lang } from '../../lib/messages.ts'
import type { Clock } from '../../lib/clock.ts'

/**
 * The legal documents users accept and their titles. Their versions and texts live in
 * legal_versions (migration 0125): the newest published version is current, and a new one
 * asks everyone again; acceptances of older versions stay recorded.
 */
export const LEGAL_DOCUMENTS = [
  { document: 'terms', title: { en: 'Terms of use', de: 'Nutzungsbedingungen', fr: "Conditions d'utilisation", it: "Condizioni d'uso" } },
  { document: 'privacy', title: { en: 'Privacy policy', de: 'Datenschutzerklärung', fr: 'Politique de confidentialité', it: 'Informativa sulla privacy' } },
] as const satisfies readonly { document: string; title: Record<Lang, string> }[]

export type LegalDocumentName = (typeof LEGAL_DOCUMENTS)[number]['document']

/** A document's current version as anyone may read it (registration): title and text in one language. */
export interface LegalText {
  document: LegalDocumentName
  version: string
  title: string
  text: string
  /** When this version was published (ISO). */
  published_at: string
}

/** One document as GET /api/cockpit/legal answers it for the caller: the current text and their acceptance. */
export interface LegalStatus extends LegalText {
  /** When the caller accepted this version (ISO), or null. */
  accepted_at: string | null
}

/** A published version with its texts in the four languages (the Management page, superusers). */
export interface LegalVersion {
  document: LegalDocumentName
  version: string
  texts: Record<Lang, string>
  published_at: string
  /** Who published it (null for the built-in versions or a deleted account). */
  published_by: string | null
}

/** Countries of SPEC §9 and a few cities each (for the address forms), in the SPEC's order. */
export const COUNTRY_CITIES: Record<string, { name: Record<Lang, string>; cities: string[] }> = {
  CH: { name: { en: 'Switzerland', de: 'Schweiz', fr: 'Suisse', it: 'Svizzera' }, cities: ['Basel', 'Bern', 'Biel/Bienne', 'Genève', 'Lausanne', 'Lugano', 'Luzern', 'St. Gallen', 'Winterthur', 'Zürich'] },
  DE: { name: { en: 'Germany', de: 'Deutschland', fr: 'Allemagne', it: 'Germania' }, cities: ['Berlin', 'Frankfurt am Main', 'Freiburg im Breisgau', 'Hamburg', 'Köln', 'Konstanz', 'München', 'Stuttgart'] },
  AT: { name: { en: 'Austria', de: 'Österreich', fr: 'Autriche', it: 'Austria' }, cities: ['Bregenz', 'Dornbirn', 'Graz', 'Innsbruck', 'Linz', 'Salzburg', 'Wien'] },
  IT: { name: { en: 'Italy', de: 'Italien', fr: 'Italie', it: 'Italia' }, cities: ['Bolzano', 'Como', 'Milano', 'Roma', 'Torino', 'Varese'] },
  FR: { name: { en: 'France', de: 'Frankreich', fr: 'France', it: 'Francia' }, cities: ['Annecy', 'Lyon', 'Mulhouse', 'Paris', 'Saint-Louis', 'Strasbourg'] },
  GB: { name: { en: 'United Kingdom', de: 'Vereinigtes Königreich', fr: 'Royaume-Uni', it: 'Regno Unito' }, cities: ['Birmingham', 'Edinburgh', 'London', 'Manchester'] },
  US: { name: { en: 'United States', de: 'Vereinigte Staaten', fr: 'États-Unis', it: 'Stati Uniti' }, cities: ['Boston', 'Chicago', 'Los Angeles', 'New York', 'San Francisco'] },
}

/**
 * Legal texts, versions, acceptance and the country lookups (SPEC §7 /cockpit/legal, /cockpit/countries).
 * Publication and acceptance times are `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createLegalService({ db, clock }: { db: Db; clock: Clock }) {
  /**
   * The current (last published) version of every document, in LEGAL_DOCUMENTS order. Publication order
   * (id), not published_at, decides: a version published on a clock set before an earlier version's
   * published_at (CLOCK_START in the past) still becomes current, as {@link publish} promises.
   */
  async function current() {
    const rows = await db.selectFrom('legal_versions').select(['document', 'version', 'texts', 'published_at'])
      .distinctOn('document').orderBy('document').orderBy('id', 'desc').execute()
    return LEGAL_DOCUMENTS.flatMap((d) => {
      const r = rows.find((x) => x.document === d.document)
      return r ? [{ ...r, document: d.document, title: d.title }] : []
    })
  }
  const text = (d: Awaited<ReturnType<typeof current>>[number], lang: Lang): LegalText => ({
    document: d.document, version: d.version, title: d.title[lang], text: d.texts[lang], published_at: d.published_at.toISOString(),
  })

  return {
    /** GET /api/cockpit/legal/texts (public, for registration): the current documents in `lang`. */
    async texts(lang: Lang): Promise<LegalText[]> {
      return (await current()).map((d) => text(d, lang))
    },

    /** GET /api/cockpit/legal: every document's current version and text, and whether the caller accepted it. */
    async status(actor: Actor, lang: Lang): Promise<LegalStatus[]> {
      const [docs, rows] = await Promise.all([current(), db.selectFrom('legal_acceptances').select(['document', 'version', 'accepted_at']).where('user_id', '=', actor.id).execute()])
      return docs.map((d) => ({
        ...text(d, lang),
        accepted_at: rows.find((r) => r.document === d.document && r.version === d.version)?.accepted_at.toISOString() ?? null,
      }))
    },

    /**
     * POST /api/cockpit/legal {document, version}: record that the caller accepted that version (again
     * is harmless: the first acceptance time stays). 404 for an unknown document or a version that is not current.
     */
    async accept(actor: Actor, document: string, version: string, lang: Lang): Promise<LegalStatus[]> {
      if (!(await current()).some((d) => d.document === document && d.version === version)) throw NotFound()
      await db.insertInto('legal_acceptances').values({ user_id: actor.id, document, version, accepted_at: clock.now() })
        .onConflict((oc) => oc.columns(['user_id', 'document', 'version']).doNothing()).execute()
      return this.status(actor, lang)
    },

    /** Record acceptance of every current document for `userId` (registration with terms acceptance). */
    async acceptAll(userId: number): Promise<void> {
      const docs = await current()
      if (!docs.length) return
      const now = clock.now()
      await db.insertInto('legal_acceptances').values(docs.map((d) => ({ user_id: userId, document: d.document, version: d.version, accepted_at: now })))
        .onConflict((oc) => oc.columns(['user_id', 'document', 'version']).doNothing()).execute()
    },

    /** GET /api/cockpit/legal/versions (superusers): every published version, newest first, with its texts. 403 for others. */
    async versions(actor: Actor): Promise<LegalVersion[]> {
      if (!actor.is_superuser) throw Forbidden()
      const rows = await db.selectFrom('legal_versions').leftJoin('users', 'users.id', 'legal_versions.published_by')
        .select(['legal_versions.document', 'legal_versions.version', 'legal_versions.texts', 'legal_versions.published_at', 'users.email'])
        .orderBy('legal_versions.published_at', 'desc').orderBy('legal_versions.id').execute()
      return rows.map((r) => ({ document: r.document as LegalDocumentName, version: r.version, texts: r.texts, published_at: r.published_at.toISOString(), published_by: r.email ?? null }))
    },

    /**
     * POST /api/cockpit/legal/versions (superusers; the documents hold for every installation): publish
     * `version` of `document` with its text in en, de, fr and it. It becomes current at once, so every
     * user is asked to accept it again (GET /api/cockpit/legal answers accepted_at null). 403 for others;
     * 400 {version: alreadyExists} when the document already has that version.
     */
    async publish(actor: Actor, input: { document: LegalDocumentName; version: string; texts: Record<Lang, string> }): Promise<LegalVersion> {
      if (!actor.is_superuser) throw Forbidden()
      const taken = await db.selectFrom('legal_versions').select('id').where('document', '=', input.document).where('version', '=', input.version).executeTakeFirst()
      if (taken) throw new Invalid({ version: ['alreadyExists'] })
      const r = await db.insertInto('legal_versions').values({ document: input.document, version: input.version, texts: JSON.stringify(input.texts), published_by: actor.id, published_at: clock.now() })
        .returning(['document', 'version', 'texts', 'published_at']).executeTakeFirstOrThrow()
      const me = await db.selectFrom('users').select('email').where('id', '=', actor.id).executeTakeFirst()
      return { document: r.document as LegalDocumentName, version: r.version, texts: r.texts, published_at: r.published_at.toISOString(), published_by: me?.email ?? null }
    },

    /** GET /api/cockpit/countries?limit&offset: SPEC §9 countries `{code, name}` in the caller's language, as a page. */
    countries(lang: Lang, { limit, offset }: { limit: number; offset: number }) {
      const all = Object.entries(COUNTRY_CITIES).map(([code, c]) => ({ code, name: c.name[lang] }))
      return { count: all.length, next: null, previous: null, results: all.slice(offset, offset + limit) }
    },

    /** GET /api/cockpit/countries/{country}/cities: `[{name}]` sorted; 404 for a country outside SPEC §9. */
    cities(country: string): { name: string }[] {
      const c = COUNTRY_CITIES[country.toUpperCase()]
      if (!c) throw NotFound()
      return c.cities.map((name) => ({ name }))
    },
  }
}
export type LegalService = ReturnType<typeof createLegalService>
