import { z } from 'zod'
import { Text } from './common.ts'
import { ACCOUNT_LANGUAGES } from './accounts.ts'

/** A demo account the login page offers (DEMO=on): its e-mail and what it may do (README "Demo accounts"). */
export const DemoAccount = z.object({
  email: z.string(),
  role: z.enum(['superuser', 'installation_admin', 'installation_user']),
  installation: z.string().nullable().describe('The demo installation the account belongs to; null for a superuser (every installation)'),
})
export type DemoAccount = z.infer<typeof DemoAccount>

/**
 * How to sign in to the demo (DEMO=on), for a first start that explains itself: the demo accounts and
 * their shared password, which is given only while it is the documented default (README); one set with
 * DEMO_PASSWORD is the operator's to tell (null).
 */
export const DemoSignIn = z.object({ accounts: z.array(DemoAccount), password: z.string().nullable() })
export type DemoSignIn = z.infer<typeof DemoSignIn>

/**
 * GET /api/setup: whether the first superuser is still to be created (no superuser exists), and with the
 * demo on, how to sign in to it (null without the demo).
 */
export const SetupStatus = z.object({ needed: z.boolean(), demo: DemoSignIn.nullable() })
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
