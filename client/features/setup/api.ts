import { apiFetch } from '../../api/http.ts'
import type { TokenResponse } from '../../../shared/schemas/auth.ts'
import type { SetupRequest, SetupStatus } from '../../../shared/schemas/setup.ts'

/** GET /api/setup: whether the first superuser is still to be created. */
export function fetchSetupStatus(signal?: AbortSignal): Promise<SetupStatus> {
  return apiFetch<SetupStatus>('/api/setup', { auth: false, signal })
}

/**
 * POST /api/setup → 201 with the sign-in answer (the new superuser is signed in). Throws ApiError:
 * 400 field errors (password rule, e-mail), 403 link unknown, used or expired, 409 a superuser exists,
 * 429 throttled.
 */
export function completeSetup(body: SetupRequest): Promise<TokenResponse> {
  return apiFetch<TokenResponse>('/api/setup', { method: 'POST', auth: false, body })
}
