import { z } from 'zod'
import { Text } from './common.ts'
import { ACCOUNT_LANGUAGES } from './accounts.ts'

/** GET /api/setup: whether the first superuser is still to be created (no superuser exists). */
export const SetupStatus = z.object({ needed: z.boolean() })
export type SetupStatus = z.infer<typeof SetupStatus>

/**
 * POST /api/setup body: the token of the setup link (`/setup#<token>`, logged once at start), the first
 * superuser's e-mail, password (SPEC §5 rule), names and UI language (SPEC §9).
 */
export const SetupRequest = z.object({
  token: z.string().trim().min(1).max(200),
  email: z.string().trim().min(1).max(254).pipe(z.email()),
  password: z.string().min(1).max(1000),
  first_name: Text(150).min(1),
  last_name: Text(150).min(1),
  language: z.enum(ACCOUNT_LANGUAGES),
})
export type SetupRequest = z.infer<typeof SetupRequest>
