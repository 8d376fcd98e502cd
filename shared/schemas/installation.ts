import { z } from 'zod'
import { Metrics } from './metrics.ts'

/**
 * The operator who bills charging at an installation, printed on invoices and QR-bills: legal
 * name and address (Swiss QR-bill limits: name and street 70, building number and zip 16, city 35
 * characters), a Swiss or Liechtenstein IBAN or QR-IBAN, the VAT number (CHE-123.456.789 MWST/TVA/IVA, or
 * null when not registered) and the VAT rate in % included in the prices (8.1 is the Swiss standard rate
 * from 2024). The IBAN's checksum is checked by the server.
 */
export const Operator = z.object({
  name: z.string().trim().min(1).max(70),
  street: z.string().trim().min(1).max(70),
  building_number: z.string().trim().max(16).default(''),
  zip: z.string().trim().min(1).max(16),
  city: z.string().trim().min(1).max(35),
  country: z.enum(['CH', 'LI']),
  iban: z.string().trim().min(1).max(34),
  vat_number: z.string().trim().max(30).nullable().default(null),
  vat_rate: z.number().min(0).max(100),
})
export type Operator = z.infer<typeof Operator>

/** GET /api/cockpit/installations/{id} (SPEC §3 Installation). */
export const Installation = z.object({
  id: z.number().int(),
  name: z.string(),
  timezone: z.string(),
  currency: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  pay_enabled: z.boolean(),
  /** Whether residents may register themselves for this installation. */
  registration_enabled: z.boolean(),
  /** The caller's role here: superuser, installation_admin or installation_user. */
  role: z.enum(['superuser', 'installation_admin', 'installation_user']),
  /** Who bills charging here; null until an admin sets it. */
  operator: Operator.nullable(),
})
export type Installation = z.infer<typeof Installation>

/** PATCH /api/cockpit/installations/{id}/: the settings an admin may change (not in SPEC §7, docs/decisions.md). */
export const InstallationPatch = z.object({ registration_enabled: z.boolean(), operator: Operator.nullable() }).partial().strict()

/** GET …/{id}/info: online state, offline since (ISO) and active installation alerts. */
export const InstallationInfo = z.object({
  online: z.boolean(),
  offline_since: z.string().nullable(),
  alerts: z.array(z.object({ code: z.string(), serious: z.boolean(), since: z.string().nullable() })),
})
export type InstallationInfo = z.infer<typeof InstallationInfo>

/** GET …/{id}/energy_return: PV energy fed back to the grid, kWh, for today, this month and this year. */
export const EnergyReturn = z.object({
  today_kwh: z.number(),
  month_kwh: z.number(),
  year_kwh: z.number(),
  /**
   * The installation-local day ("YYYY-MM-DD") the month and year figures count from: the period's first
   * day, or the first day with data when the records start later (a demo holds 30 days, so
   * "this year" says what it covers).
   */
  month_since: z.string(),
  year_since: z.string(),
})
export type EnergyReturn = z.infer<typeof EnergyReturn>

/**
 * What a user may see in an installation (ARCHITECTURE §4, shared/rules/permissions.ts Access): role,
 * the cost and overview switches, the readable stations and RFIDs ("all" or ids), and when the user's
 * sessions were last ended (ISO; streams opened before it must close).
 */
export const Access = z.object({
  user_id: z.number().int(),
  installation_id: z.number().int(),
  role: z.enum(['superuser', 'installation_admin', 'installation_user']),
  cost: z.boolean(),
  overview: z.boolean(),
  stations: z.union([z.literal('all'), z.array(z.number().int())]),
  rfids: z.union([z.literal('all'), z.array(z.number().int())]),
  /** The stations and RFIDs the caller may change ("all" or ids), for the client's guards. */
  writable_stations: z.union([z.literal('all'), z.array(z.number().int())]).optional(),
  writable_rfids: z.union([z.literal('all'), z.array(z.number().int())]).optional(),
  sessions_valid_after: z.string().nullable().optional(),
})

/** GET …/{id}/overview: the live power flow (Metrics) plus today's water, heat, energy return and totals. */
export const Overview = Metrics.extend({
  water: z.object({ today_m3: z.number(), cold_m3: z.number(), hot_m3: z.number() }).nullable(),
  heat: z.object({ today_kwh: z.number() }).nullable(),
  energy_return: EnergyReturn.nullable(),
  /** Today's totals (installation-local day): units by series name (kWh, m3), values by series name. */
  today: z.object({ start: z.string(), end: z.string(), units: z.record(z.string(), z.string()), series: z.record(z.string(), z.number()) }),
})
