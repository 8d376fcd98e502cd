import type { Installation } from '../../../shared/schemas/installation.ts'
import { apiFetch } from '../../api/http.ts'
import type { ManagedUser, NewUser, PendingInvitation, UserRoleFilter } from '../../../shared/schemas/accounts.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { User } from '../../../shared/schemas/auth.ts'
import type { Rfid } from '../../../shared/schemas/rfid.ts'
import type { QueryClient } from '@tanstack/react-query'

/**
 * Query keys of the user screens. What is read about one user sits under
 * `['users', id]`; an installation's user list under that installation, one per role filter.
 */
export const userKeys = {
  /** Every role filter of one installation's list. */
  lists: (installationId: number) => ['installations', installationId, 'users'] as const,
  list: (installationId: number, role: UserRoleFilter) => ['installations', installationId, 'users', role] as const,
  /** Everything read about one user (the prefix of the two below). */
  user: (userId: number) => ['users', userId] as const,
  /** {@link fetchManagedUser}; the user page and the permissions editor share it. */
  detail: (userId: number) => ['users', userId, 'detail'] as const,
  memberships: (userId: number) => ['users', userId, 'installations'] as const,
  outbox: () => ['mail', 'outbox'] as const,
  /** {@link fetchInvitations} of one installation. */
  invitations: (installationId: number) => ['installations', installationId, 'invitations'] as const,
}

/**
 * After a change to a user (details, activation, role, memberships, deletion): their data and the user
 * lists of every installation, since one user appears in the lists of several (name, role, state).
 * `saved`, when the API answered the changed user, goes into the cache instead of being asked again.
 */
export function userChanged(queryClient: QueryClient, userId: number, saved?: ManagedUser): Promise<unknown> {
  if (saved) queryClient.setQueryData(userKeys.detail(userId), saved)
  return Promise.all([
    saved ? null : queryClient.invalidateQueries({ queryKey: userKeys.detail(userId) }),
    queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'installations' && q.queryKey[2] === 'users' }),
  ])
}

/** GET /api/cockpit/users/?role=&installation= → the users of one installation (admins and superusers). */
export function fetchUsers(installationId: number, role: UserRoleFilter, signal?: AbortSignal): Promise<PageOf<ManagedUser>> {
  return apiFetch('/api/cockpit/users/', { query: { installation: installationId, role, limit: 1000 }, signal })
}

/** GET /api/cockpit/users/{id}/ → one managed user (404 when out of reach). */
export function fetchManagedUser(userId: number, signal?: AbortSignal): Promise<ManagedUser> {
  return apiFetch(`/api/cockpit/users/${userId}/`, { signal })
}

/** POST /api/users/create/?installation=N → 201 the new user; 400 `{field: [...]}`. */
export function createUser(installationId: number, body: Partial<NewUser>): Promise<ManagedUser> {
  return apiFetch('/api/users/create/', { method: 'POST', query: { installation: installationId }, body })
}

/** PATCH /api/users/{id}/ (details) → User. */
export function updateUser(userId: number, body: Record<string, unknown>): Promise<User> {
  return apiFetch(`/api/users/${userId}/`, { method: 'PATCH', body })
}

/**
 * PUT /api/users/{id}/email → 202 `{status, detail}`: the new address gets a confirmation link and the
 * sign-in address changes once it is followed (docs/decisions.md "Accounts: an e-mail change is confirmed
 * from the new address"); the same answer whether or not the address has an account elsewhere. 400 `{email:
 * [...]}` when invalid or used by someone the caller manages, `{password: [...]}` when one's own address is
 * changed without the right current `password`.
 */
export function changeEmail(userId: number, email: string, password?: string): Promise<{ status: 'OK'; detail: string }> {
  return apiFetch(`/api/users/${userId}/email`, { method: 'PUT', body: { email, ...(password !== undefined ? { password } : {}) } })
}

/** POST /api/users/{id}/active {active, date} (SPEC §4) → the user. */
export function setActive(userId: number, active: boolean, date: string | null): Promise<ManagedUser> {
  return apiFetch(`/api/users/${userId}/active`, { method: 'POST', body: { active, date } })
}

/** POST /api/users/{id}/send-welcome-email?installation=N → `{detail}`. */
export function sendWelcome(userId: number, installationId: number): Promise<{ detail: string }> {
  return apiFetch(`/api/users/${userId}/send-welcome-email`, { method: 'POST', query: { installation: installationId } })
}

/** PUT /api/cockpit/users/{id}/superuser {is_superuser} (superusers only). */
export function setSuperuser(userId: number, value: boolean): Promise<ManagedUser> {
  return apiFetch(`/api/cockpit/users/${userId}/superuser`, { method: 'PUT', body: { is_superuser: value } })
}

/** DELETE /api/users/{id}/ → 204; 400 `{detail}` while the user has unpaid charging sessions. */
export function deleteUser(userId: number): Promise<void> {
  return apiFetch(`/api/users/${userId}/`, { method: 'DELETE' })
}

export interface Membership {
  id: number
  name: string
  role: 'installation_admin' | 'installation_user'
}

/** GET /api/cockpit/users/{id}/installations/ → the memberships the caller may see. */
export function fetchMemberships(userId: number, signal?: AbortSignal): Promise<Membership[]> {
  return apiFetch(`/api/cockpit/users/${userId}/installations/`, { signal })
}

/** POST /api/cockpit/users/{id}/installations/ {installation_id, role}: add a facility. */
export function addMembership(userId: number, installationId: number, role: Membership['role']): Promise<unknown> {
  return apiFetch(`/api/cockpit/users/${userId}/installations/`, { method: 'POST', body: { installation_id: installationId, role } })
}

/** PATCH /api/cockpit/users/{id}/installations/{installation_id} {role}. */
export function changeMembership(userId: number, installationId: number, role: Membership['role']): Promise<unknown> {
  return apiFetch(`/api/cockpit/users/${userId}/installations/${installationId}`, { method: 'PATCH', body: { role } })
}

/** DELETE /api/cockpit/users/{id}/installations/{installation_id}: remove a facility (and its permissions). */
export function removeMembership(userId: number, installationId: number): Promise<void> {
  return apiFetch(`/api/cockpit/users/${userId}/installations/${installationId}`, { method: 'DELETE' })
}

/** One outbox message as GET /api/cockpit/mail/outbox answers it (no bodies). */
export interface OutboxMessage {
  id: number
  kind: string
  recipient: string
  subject: string
  status: 'pending' | 'sent'
  attempts: number
  next_attempt_at: string
  last_error: string | null
  created_at: string
  sent_at: string | null
}

/** GET /api/cockpit/mail/outbox?limit=20 (superusers): the newest messages and their delivery state. */
export function fetchOutbox(signal?: AbortSignal): Promise<PageOf<OutboxMessage>> {
  return apiFetch('/api/cockpit/mail/outbox', { query: { limit: 20 }, signal })
}

/** PATCH /api/cockpit/installations/{id}/: switch self-registration for the installation (admins). */
export function setRegistration(installationId: number, enabled: boolean): Promise<Installation> {
  return apiFetch<Installation>(`/api/cockpit/installations/${installationId}/`, { method: 'PATCH', body: { registration_enabled: enabled } })
}

/** PATCH …/installations/{id}/rfids/{rfid_id}/ {user_id}: give the card to a user of the installation, or to nobody (null). */
export function assignRfid(installationId: number, rfidId: number, userId: number | null): Promise<Rfid> {
  return apiFetch(`/api/cockpit/installations/${installationId}/rfids/${rfidId}/`, { method: 'PATCH', body: { user_id: userId } })
}

/**
 * GET /api/cockpit/users/invitations/?installation=N → the installation's invitations of existing accounts
 * not accepted yet (docs/decisions.md "Accounts: pending invitations"); 403 unless its admin.
 */
export function fetchInvitations(installationId: number, signal?: AbortSignal): Promise<PendingInvitation[]> {
  return apiFetch('/api/cockpit/users/invitations/', { query: { installation: installationId }, signal })
}

/** POST /api/cockpit/users/invitations/{id}/resend?installation=N → the invitation with a new link (the previous one void). */
export function resendInvitation(installationId: number, invitationId: number): Promise<PendingInvitation> {
  return apiFetch(`/api/cockpit/users/invitations/${invitationId}/resend`, { method: 'POST', query: { installation: installationId } })
}

/** DELETE /api/cockpit/users/invitations/{id}?installation=N → 204: the invitation is withdrawn, its link void. */
export function revokeInvitation(installationId: number, invitationId: number): Promise<void> {
  return apiFetch(`/api/cockpit/users/invitations/${invitationId}`, { method: 'DELETE', query: { installation: installationId } })
}
