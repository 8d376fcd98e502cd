import { apiFetch } from '../../api/http.ts'
import type { TokenResponse } from '../../../shared/schemas/auth.ts'

/**
 * POST /api/authentication/token/?installation=<id> {email, password} → {access, refresh, installation_id}.
 * Throws ApiError: 401 bad credentials, 400 field errors, 429 throttled (retryAfter in seconds).
 */
export function obtainToken(email: string, password: string, installation: number | null): Promise<TokenResponse> {
  return apiFetch<TokenResponse>('/api/authentication/token/', {
    method: 'POST',
    auth: false,
    query: { installation },
    body: { email, password },
  })
}
