import { apiFetch } from '../../api/http.ts'

export type LegalLang = 'en' | 'de' | 'fr' | 'it'

/** A published version of a legal document (GET /api/cockpit/legal/versions, superusers). */
export interface LegalVersion {
  document: 'terms' | 'privacy'
  version: string
  texts: Record<LegalLang, string>
  published_at: string
  published_by: string | null
}

/** Query keys of the legal texts screen: the versions hold for every installation. */
export const legalKeys = {
  versions: () => ['legal', 'versions'] as const,
}

/** GET /api/cockpit/legal/versions: every version, newest first. */
export function fetchVersions(signal?: AbortSignal): Promise<LegalVersion[]> {
  return apiFetch('/api/cockpit/legal/versions', { signal })
}

/** POST /api/cockpit/legal/versions: publish a new version (everyone is asked to accept it again). */
export function publishVersion(body: { document: LegalVersion['document']; version: string; texts: Record<LegalLang, string> }): Promise<LegalVersion> {
  return apiFetch('/api/cockpit/legal/versions', { method: 'POST', body })
}
