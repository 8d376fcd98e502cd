import { z } from 'zod'

/** GET /api/cockpit/installations/{id} (SPEC §3 Installation). */
export const Installation = z.object({
  id: z.number().int(),
  name: z.string(),
  timezone: z.string(),
  currency: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  pay_enabled: z.boolean(),
  /** Whether residents may register themselves for this installation (issue 3 §2). */
  registration_enabled: z.boolean(),
  /** The caller's role here: superuser, installation_admin or installation_user. */
  role: z.enum(['superuser', 'installation_admin', 'installation_user']),
})
export type Installation = z.infer<typeof Installation>

/** PATCH /api/cockpit/installations/{id}/: the settings an admin may change (not in SPEC §7, docs/decisions.md). */
export const InstallationPatch = z.object({ registration_enabled: z.boolean() }).partial().strict()

/** GET …/{id}/info: online state, offline since (ISO) and active installation alerts. */
export const InstallationInfo = z.object({
  online: z.boolean(),
  offline_since: z.string().nullable(),
  alerts: z.array(z.object({ code: z.string(), serious: z.boolean(), since: z.string().nullable() })),
})
export type InstallationInfo = z.infer<typeof InstallationInfo>

/** GET …/{id}/energy_return: PV energy fed back to the grid, kWh, for today, this month and this year. */
export const EnergyReturn = z.object({ today_kwh: z.number(), month_kwh: z.number(), year_kwh: z.number() })
export type EnergyReturn = z.infer<typeof EnergyReturn>
