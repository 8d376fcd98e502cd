import { apiFetch } from '../../api/http.ts'
import type { Shortcut } from '../../../shared/schemas/shortcut.ts'

export type { Shortcut }

const base = (installationId: number) => `/api/cockpit/installations/${installationId}/shortcuts/`

/**
 * Query key of the person's shortcuts in one installation: Home's list and every pin
 * button on a screen read the same list, so a screen with several pins asks once, and pinning shows on
 * Home without a reload.
 */
export const shortcutKeys = {
  list: (installationId: number) => ['installations', installationId, 'shortcuts'] as const,
}

/** GET …/shortcuts/ (SPEC §7) → the caller's shortcuts in the installation. */
export async function listShortcuts(installationId: number, signal?: AbortSignal): Promise<Shortcut[]> {
  return (await apiFetch<{ results: Shortcut[] }>(base(installationId), { signal })).results
}

/** POST …/shortcuts/ {name, url} → the new shortcut with the SPEC §8 message in `detail`. */
export function addShortcut(installationId: number, name: string, url: string): Promise<Shortcut & { detail: string }> {
  return apiFetch<Shortcut & { detail: string }>(base(installationId), { method: 'POST', body: { name, url } })
}

/** DELETE …/shortcuts/{id}/ → `{detail}` (the SPEC §8 message). */
export function removeShortcut(installationId: number, id: number): Promise<{ detail: string }> {
  return apiFetch<{ detail: string }>(`${base(installationId)}${id}/`, { method: 'DELETE' })
}
