import { z } from 'zod'
import { Metrics } from './metrics.ts'
import { ListQuery, Text } from './common.ts'

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

/**
 * An installation's postal address as given (SPEC §3 Installation), within the Swiss QR-bill limits:
 * street 70, building number and zip 16, city 35 characters (street, zip and city required, one line
 * each); country CH or LI.
 */
export const AddressInput = z.object({
  street: Text(70).min(1),
  building_number: Text(16).default(''),
  zip: Text(16).min(1),
  city: Text(35).min(1),
  country: z.enum(['CH', 'LI']),
})

/** An installation's address as answered; installations made before addresses existed answer '' for the texts. */
export const Address = z.object({ street: z.string(), building_number: z.string(), zip: z.string(), city: z.string(), country: z.enum(['CH', 'LI']) })
export type Address = z.infer<typeof Address>

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
  address: Address,
  /** When it was archived (ISO): an archived installation is read-only; null while active. */
  archived_at: z.string().nullable(),
  /**
   * The debit ceilings of this installation's charging sessions, CHF (docs/decisions.md "Charging:
   * plausible charger figures and debit ceilings"): a session priced above `session` or taking a
   * resident's session debits of the installation-local month above `month` is held for an admin's review
   * instead of being debited. `custom` is false while the product's defaults (config/defaults.ts
   * DEBIT_CEILING: 200 and 1,000) apply.
   */
  debit_ceilings: z.object({ session: z.number(), month: z.number(), custom: z.boolean() }),
})
export type Installation = z.infer<typeof Installation>

/** A debit ceiling in CHF: 1 to 100,000, in rappen (two decimals at most); null restores the default. */
const CeilingChf = z.number().min(1).max(100_000).multipleOf(0.01).nullable()

/** The installation's name (SPEC §3, 1..100 characters, one line). */
const Name = Text(100).min(1)
/** An IANA time zone name (e.g. Europe/Zurich); the server checks it with Intl (400 `timezone`). */
const TimeZone = z.string().trim().min(1).max(64)

/**
 * POST /api/cockpit/installations/ (superusers): a new installation. currency CHF or EUR (default CHF);
 * latitude/longitude in degrees (default the geographic centre of Switzerland, 46.8182 / 8.2275), used for
 * the PV forecast; operator as in PATCH (IBAN and VAT number checked, 400 `operator.iban`).
 */
export const InstallationCreate = z
  .object({
    name: Name,
    timezone: TimeZone,
    currency: z.enum(['CHF', 'EUR']).default('CHF'),
    address: AddressInput,
    latitude: z.number().min(-90).max(90).default(46.8182),
    longitude: z.number().min(-180).max(180).default(8.2275),
    operator: Operator.nullable().default(null),
  })
  .strict()
export type InstallationCreate = z.infer<typeof InstallationCreate>

/**
 * PATCH /api/cockpit/installations/{id}/: the settings an admin may change (not in SPEC §7,
 * docs/decisions.md): self-registration, the operator, name, time zone, address and position; a superuser
 * also the debit ceilings. 409 when the installation is archived.
 */
export const InstallationPatch = z
  .object({
    registration_enabled: z.boolean(),
    operator: Operator.nullable(),
    name: Name,
    timezone: TimeZone,
    address: AddressInput,
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    /**
     * Superusers only (403 for an installation admin: the operator decides what a charger may debit from
     * residents' cards): the session and monthly debit ceilings in CHF, null for the default.
     */
    debit_ceilings: z.object({ session: CeilingChf, month: CeilingChf }).partial().strict(),
  })
  .partial()
  .strict()
export type InstallationPatch = z.infer<typeof InstallationPatch>

/** GET /api/cockpit/installations/: paging, and archived installations only when asked for. */
export const InstallationListQuery = ListQuery.extend({
  include_archived: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
})

/** GET /api/cockpit/installations/status/: paging and a search over name and city (case-insensitive). */
/** Rows per page of the operator's Installations list at most (GET …/installations/status/). */
export const STATUS_PAGE_MAX = 500

/**
 * GET …/installations/status/ query: `q` searches name and city; pages of `limit` rows (1–500, default
 * 100) from `offset`, as the project's other lists (ListQuery); `next` and `previous` of the answer link the neighbouring pages.
 */
export const InstallationStatusQuery = ListQuery.extend({
  limit: z.coerce.number().int().min(1).max(STATUS_PAGE_MAX).default(100).describe(`Rows per page, 1–${STATUS_PAGE_MAX} (default 100)`),
  offset: ListQuery.shape.offset.describe('Rows to skip (the page starts after them)'),
  q: Text(100).optional().describe('Search in name and city (case-insensitive)'),
})

/**
 * One row of the operator's Installations list (GET /api/cockpit/installations/status/): online state and
 * since when offline (ISO), the number of active alerts, the last device data (ISO heartbeat, null before
 * any), stations in total and charging now, and archived_at (ISO or null).
 */
export const InstallationStatus = z.object({
  id: z.number().int(),
  name: z.string(),
  city: z.string(),
  online: z.boolean(),
  offline_since: z.string().nullable(),
  alert_count: z.number().int(),
  last_data_at: z.string().nullable(),
  stations_total: z.number().int(),
  stations_charging: z.number().int(),
  archived_at: z.string().nullable(),
})
export type InstallationStatus = z.infer<typeof InstallationStatus>

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
