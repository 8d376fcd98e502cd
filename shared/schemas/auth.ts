import { z } from 'zod'

/** POST /api/authentication/token/ body (SPEC §7). */
export const TokenRequest = z.object({ email: z.string().trim().min(1), password: z.string().min(1) })
/** Login answer (SPEC §3): access JWT, refresh token, the installation to open. */
export const TokenResponse = z.object({ access: z.string(), refresh: z.string(), installation_id: z.number().int().nullable() })
export type TokenResponse = z.infer<typeof TokenResponse>
/** POST /api/authentication/token/refresh/ body and answer (rotating). */
export const RefreshRequest = z.object({ refresh: z.string().min(1) })
export const RefreshResponse = z.object({ access: z.string(), refresh: z.string() })

/** GET /api/users/{id}/ (this slice's fields of SPEC §3 User). */
export const User = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  ietf_lang_tag: z.string(),
  last_login: z.string().nullable(),
  previous_login: z.string().nullable(),
  installations: z.array(z.object({ id: z.number().int(), role: z.enum(['installation_admin', 'installation_user']) })),
  /** SPEC §3 user details: title mr/ms or null, address fields ('' when not given). */
  title: z.enum(['mr', 'ms']).nullable().optional(),
  address: z.string().optional(),
  zip_code: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  telephone: z.string().optional(),
  company: z.string().optional(),
  comment: z.string().optional(),
  /** SPEC §3 description, shown in brackets after the name. */
  description: z.string().optional(),
  deactivation_datetime: z.string().nullable().optional(),
})
export type User = z.infer<typeof User>
