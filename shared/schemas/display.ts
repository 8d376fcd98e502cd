import { z } from 'zod'
import { DateTime, Text, TEXT_MAX } from './common.ts'
import { Installation } from './installation.ts'

/**
 * POST /api/cockpit/installations/{id}/displays: `{name, valid_until?}`; valid_until an
 * ISO 8601 date-time with offset in the future, or absent/null for a link that lasts until revoked.
 */
export const DisplayCreate = z.object({
  name: Text(TEXT_MAX.name).min(1),
  valid_until: DateTime.nullish(),
})
export type DisplayCreate = z.infer<typeof DisplayCreate>

/** A display link as listed: never its key (only its hash is stored). Times ISO 8601. */
export const Display = z.object({
  id: z.number().int(),
  installation_id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  valid_until: z.string().nullable(),
})
export type Display = z.infer<typeof Display>

/** The answer to creating a link: the only time its `url` (with the key in its fragment) is shown. */
export const DisplayCreated = Display.extend({ url: z.string() })
export type DisplayCreated = z.infer<typeof DisplayCreated>

/**
 * GET /api/display/ with a display key: which link it is and the installation it shows (only what the
 * view needs: no operator, payment or role fields).
 */
export const DisplaySelf = z.object({
  id: z.number().int(),
  name: z.string(),
  installation: Installation.pick({ id: true, name: true, timezone: true, currency: true }),
})
export type DisplaySelf = z.infer<typeof DisplaySelf>

/** Display keys start with this, so the API tells them from access JWTs at a glance. */
export const DISPLAY_KEY_PREFIX = 'cdk_'
