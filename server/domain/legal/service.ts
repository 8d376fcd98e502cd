import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import { NotFound } from '../../lib/errors.ts'
import type { Lang } from '../../lib/messages.ts'

/**
 * The legal documents users accept (issue 3 §6), with their current version. A new version (a date)
 * asks everyone again; acceptances of older versions stay recorded.
 */
export const LEGAL_DOCUMENTS = [
  { document: 'terms', version: '2025-04-01', title: { en: 'Terms of use', de: 'Nutzungsbedingungen', fr: "Conditions d'utilisation", it: "Condizioni d'uso" } },
  { document: 'privacy', version: '2025-04-01', title: { en: 'Privacy policy', de: 'Datenschutzerklärung', fr: 'Politique de confidentialité', it: 'Informativa sulla privacy' } },
] as const satisfies readonly { document: string; version: string; title: Record<Lang, string> }[]

export type LegalDocumentName = (typeof LEGAL_DOCUMENTS)[number]['document']

/** One document as GET /api/cockpit/legal answers it for the caller. */
export interface LegalStatus {
  document: LegalDocumentName
  version: string
  title: string
  /** When the caller accepted this version (ISO), or null. */
  accepted_at: string | null
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

/** Legal acceptance and the country lookups (SPEC §7 /cockpit/legal, /cockpit/countries). */
export function createLegalService({ db }: { db: Db }) {
  return {
    /** GET /api/cockpit/legal: every document's current version and whether the caller accepted it. */
    async status(actor: Actor, lang: Lang): Promise<LegalStatus[]> {
      const rows = await db.selectFrom('legal_acceptances').select(['document', 'version', 'accepted_at']).where('user_id', '=', actor.id).execute()
      return LEGAL_DOCUMENTS.map((d) => ({
        document: d.document,
        version: d.version,
        title: d.title[lang],
        accepted_at: rows.find((r) => r.document === d.document && r.version === d.version)?.accepted_at.toISOString() ?? null,
      }))
    },

    /**
     * POST /api/cockpit/legal {document, version}: record that the caller accepted that version (again
     * is harmless: the first acceptance time stays). 404 for an unknown document or a version that is not current.
     */
    async accept(actor: Actor, document: string, version: string, lang: Lang): Promise<LegalStatus[]> {
      if (!LEGAL_DOCUMENTS.some((d) => d.document === document && d.version === version)) throw NotFound()
      await db.insertInto('legal_acceptances').values({ user_id: actor.id, document, version })
        .onConflict((oc) => oc.columns(['user_id', 'document', 'version']).doNothing()).execute()
      return this.status(actor, lang)
    },

    /** Record acceptance of every current document for `userId` (registration with terms acceptance). */
    async acceptAll(userId: number): Promise<void> {
      await db.insertInto('legal_acceptances').values(LEGAL_DOCUMENTS.map((d) => ({ user_id: userId, document: d.document, version: d.version })))
        .onConflict((oc) => oc.columns(['user_id', 'document', 'version']).doNothing()).execute()
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
