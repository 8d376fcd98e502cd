import { apiFetch } from '../../api/http.ts'
import type { User } from '../../../shared/schemas/auth.ts'
import type { UserDetails } from '../../../shared/schemas/accounts.ts'
import type { AppFee, PaymentInfo, PaymentProcess } from '../../../shared/schemas/payment.ts'

/**
 * Query keys of the signed-in person's own data, under `['me', …]` (the whole cache goes
 * at logout). `legal` is shared with the reminder in the app frame, so accepting here hides it at once.
 */
export const meKeys = {
  /**
   * The session's user and installations live in the session store (ensureUser, ensureInstallations);
   * these queries only ask for them (answer `true`), with the retries and Try again of every read.
   */
  user: () => ['me', 'user'] as const,
  installations: () => ['me', 'installations'] as const,
  /** The list asked for again because installation `id` was not in it (it may have been added since). */
  installationRecheck: (id: number) => ['me', 'installations', 'recheck', id] as const,
  legal: () => ['me', 'legal'] as const,
  paymentMethods: (userId: number) => ['me', 'payment-methods', userId] as const,
  appFees: (userId: number) => ['me', 'app-fees', userId] as const,
}

/** PATCH /api/users/{id}/ with any of the SPEC §3 details → the updated User; 400 `{field: [...]}`. */
export function saveUser(id: number, details: Partial<UserDetails>): Promise<User> {
  return apiFetch<User>(`/api/users/${id}/`, { method: 'PATCH', body: details })
}

/**
 * PUT /api/users/password/ {old_password, new_password, new_password_confirm} → `{detail, access, refresh}`
 * (the caller's new tokens: every other session has ended). 400 `{old_password|new_password|new_password_confirm: [...]}`.
 */
export function changePassword(oldPassword: string, newPassword: string, repeat: string): Promise<{ detail: string; access: string; refresh: string }> {
  return apiFetch('/api/users/password/', { method: 'PUT', body: { old_password: oldPassword, new_password: newPassword, new_password_confirm: repeat } })
}

/** DELETE /api/users/{id}/ (own profile); 400 `{detail}` while unpaid charging sessions exist (SPEC §5). */
export function deleteUser(id: number): Promise<void> {
  return apiFetch<void>(`/api/users/${id}/`, { method: 'DELETE' })
}

/** One legal document and the caller's acceptance (GET /api/cockpit/legal). */
export interface LegalStatus {
  document: string
  version: string
  title: string
  /** The text in the caller's language. */
  text: string
  published_at: string
  accepted_at: string | null
}

/** GET /api/cockpit/legal → the current documents with the caller's acceptance. */
export function fetchLegal(signal?: AbortSignal): Promise<LegalStatus[]> {
  return apiFetch('/api/cockpit/legal', { signal })
}

/** POST /api/cockpit/legal {document, version} → the updated list. */
export function acceptLegal(document: string, version: string): Promise<LegalStatus[]> {
  return apiFetch('/api/cockpit/legal', { method: 'POST', body: { document, version } })
}

/** GET /api/users/{id}/payment-info/ → the caller's own methods, primary first. */
export async function fetchPaymentMethods(userId: number, signal?: AbortSignal): Promise<PaymentInfo[]> {
  return (await apiFetch<{ results: PaymentInfo[] }>(`/api/users/${userId}/payment-info/`, { signal })).results
}

/** PATCH …/payment-info/{id}/ {favourite: 1}: make it the primary method. */
export function setPrimaryPaymentMethod(userId: number, id: number): Promise<PaymentInfo> {
  return apiFetch(`/api/users/${userId}/payment-info/${id}/`, { method: 'PATCH', body: { favourite: 1 } })
}

/** DELETE …/payment-info/{id}/. */
export function removePaymentMethod(userId: number, id: number): Promise<void> {
  return apiFetch<void>(`/api/users/${userId}/payment-info/${id}/`, { method: 'DELETE' })
}

/** POST /api/payments/process/ → the provider's checkout to go to; it returns to one of the three paths. */
export function startCheckout(urls: PaymentProcess): Promise<{ session: string; redirect_url: string }> {
  return apiFetch('/api/payments/process/', { method: 'POST', body: urls })
}

/** GET /api/users/{id}/app-fees/ → the caller's monthly app fees (SPEC §9), newest month first. */
export function fetchAppFees(userId: number, signal?: AbortSignal): Promise<AppFee[]> {
  return apiFetch<AppFee[]>(`/api/users/${userId}/app-fees/`, { signal })
}
