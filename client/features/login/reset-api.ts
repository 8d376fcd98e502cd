import type { LegalDocText } from '../../components/legal-text-dialog.tsx'
import { apiFetch } from '../../api/http.ts'

/**
 * Query keys of the registration page's reads. The legal texts come in the page's language
 * (Accept-Language), so the language is part of their key.
 */
export const registerKeys = {
  legalTexts: (language: string) => ['legal', 'texts', language] as const,
  canRegister: (installationId: number) => ['installations', installationId, 'can-register'] as const,
}

/**
 * POST /api/password-reset/ {email}, or /api/users/password-reset/?installation=N when the user came
 * from an installation's login. Resolves the same whether or not the address exists (SPEC §8).
 * Throws ApiError 400 `{email: [...]}` for a malformed address.
 */
export function requestPasswordReset(email: string, installation: number | null): Promise<{ status: 'OK'; detail: string }> {
  return apiFetch(installation ? '/api/users/password-reset/' : '/api/password-reset/', {
    method: 'POST',
    auth: false,
    query: { installation },
    body: { email },
  })
}

/** POST /api/password-reset/validate_token/: true only when the server answers OK (SPEC §5). */
export async function validateResetToken(token: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const r = await apiFetch<{ status?: string }>('/api/password-reset/validate_token/', { method: 'POST', auth: false, body: { token }, signal })
    return r.status === 'OK'
  } catch (err) {
    if ((err as { status?: number }).status === 404 || (err as { status?: number }).status === 400) return false
    throw err
  }
}

/**
 * POST /api/password-reset/confirm/ {token, password, password_confirm}. Throws ApiError 400 with
 * `{password: [...]}` / `{password_confirm: [...]}`, or 404 when the link has expired or was used.
 */
export function confirmPasswordReset(token: string, password: string, passwordConfirm: string): Promise<unknown> {
  return apiFetch('/api/password-reset/confirm/', { method: 'POST', auth: false, body: { token, password, password_confirm: passwordConfirm } })
}

/** GET /api/users/can-register?installation=N → whether the facility accepts self-registration. */
export async function canRegister(installation: number, signal?: AbortSignal): Promise<boolean> {
  const r = await apiFetch<{ can_register: boolean }>('/api/users/can-register', { auth: false, query: { installation }, signal })
  return r.can_register
}

/**
 * POST /api/users/register/?installation=N → 201 `{detail}` (the same whether or not the address was
 * new). Throws ApiError 400 `{field: [...]}`, 403 when registration is closed.
 */
export function register(installation: number, body: { email: string; first_name: string; last_name: string; password: string; terms_accepted: boolean; ietf_lang_tag: string }): Promise<{ detail: string }> {
  return apiFetch('/api/users/register/', { method: 'POST', auth: false, query: { installation }, body })
}

/** POST /api/users/user-verification/ {token}; ApiError 404 when the link has expired or was used. */
export function verifyAddress(token: string, signal?: AbortSignal): Promise<{ detail: string }> {
  return apiFetch('/api/users/user-verification/', { method: 'POST', auth: false, body: { token }, signal })
}

/** GET /api/cockpit/legal/texts (public): the current terms and privacy policy in the UI language, to read before accepting. */
export function fetchLegalTexts(signal?: AbortSignal): Promise<LegalDocText[]> {
  return apiFetch('/api/cockpit/legal/texts', { auth: false, signal })
}

/**
 * POST /api/users/email/undo/ {token}: restore the previous sign-in address from the link mailed to it
 * (every session ends). Resolves `{status, detail}`; throws ApiError 404 when the link expired or was used.
 */
export function undoEmailChange(token: string): Promise<{ status: 'OK'; detail: string }> {
  return apiFetch('/api/users/email/undo/', { method: 'POST', auth: false, body: { token } })
}

/**
 * POST /api/users/email/confirm/ {token}: make the address the link was mailed to the sign-in address
 * (docs/decisions.md "Accounts: an e-mail change is confirmed from the new address"). Resolves `{status,
 * detail}`; throws ApiError 404 when the link expired, was used or replaced, 400 `{email}` when the address
 * got an account meanwhile.
 */
export function confirmEmailChange(token: string): Promise<{ status: 'OK'; detail: string }> {
  return apiFetch('/api/users/email/confirm/', { method: 'POST', auth: false, body: { token } })
}

/**
 * POST /api/users/invitation/accept/ {token}: the signed-out person's existing account joins the installation
 * that invited it (docs/decisions.md "Accounts: creating a user whose address has an account elsewhere").
 * Resolves `{status, detail, installation_id, installation_name}`; throws ApiError 404 when the invitation
 * expired (7 days), was used or is unknown, 400 for a missing token.
 */
export function acceptInvitation(token: string): Promise<{ status: 'OK'; detail: string; installation_id: number; installation_name: string }> {
  return apiFetch('/api/users/invitation/accept/', { method: 'POST', auth: false, body: { token } })
}
