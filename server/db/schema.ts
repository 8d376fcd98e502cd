import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'

/** Kysely table types. Timestamps are timestamptz (Date in, Date out); money is integer Rappen. */
type Ts = ColumnType<Date, Date | string, Date | string>
type TsDefault = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T> = ColumnType<T, string, string>

export interface UsersTable {
  id: Generated<number>
  email: string
  password_hash: string
  first_name: string
  last_name: string
  title: string | null
  is_superuser: boolean
  is_active: boolean
  /** Internal accounts (the relay's upstream account): never listed, never shown. */
  is_service: Generated<boolean>
  deactivation_datetime: Ts | null
  ietf_lang_tag: string
  last_login: Ts | null
  previous_login: Ts | null
  /** Sessions end: tokens issued and streams opened before this are refused. */
  sessions_valid_after: Generated<Date | null>
  created_at: TsDefault
  /** SPEC §3 user details (migration 0011); '' when not given. country is one of SPEC §9's list. */
  address: Generated<string>
  zip_code: Generated<string>
  city: Generated<string>
  country: Generated<string>
  telephone: Generated<string>
  company: Generated<string>
  comment: Generated<string>
  /** SPEC §3 description, shown in brackets after the name (migration 0120); '' when not given. */
  description: Generated<string>
}

export interface InstallationsTable {
  id: Generated<number>
  name: string
  timezone: string
  currency: string
  latitude: number
  longitude: number
  pay_enabled: boolean
  online: boolean
  offline_since: Ts | null
  alerts: Json<{ code: string; since: string | null }[]>
  created_at: TsDefault
  /** Self-registration allowed (migration 0012, GET /api/users/can-register); off by default. */
  registration_enabled: Generated<boolean>
  /** The operator billing charging here (migration 0046); null until an admin sets it. */
  operator: ColumnType<import('../../shared/schemas/installation.ts').Operator | null, string | null | undefined, string | null>
  /** The last device heartbeat (migration 0110); null while no device ever reported. */
  last_heartbeat_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  /** ZEV billing model and flat-rate percentage (migration 0080, docs/zev-method.md). */
  zev_model: Generated<'flat_rate' | 'actual_costs'>
  /** Debit ceilings of the payment job (migration 0171), Rappen; null: config/defaults.ts DEBIT_CEILING. */
  session_debit_ceiling_rappen: Generated<number | null>
  monthly_debit_ceiling_rappen: Generated<number | null>
  zev_flat_percent: ColumnType<number, number | undefined, number>
  /** Postal address (migration 0169); '' on installations made before it. country is CH or LI. */
  street: Generated<string>
  building_number: Generated<string>
  zip: Generated<string>
  city: Generated<string>
  country: Generated<'CH' | 'LI'>
  /** When the installation was archived (migration 0169): read-only from then on; null while active. */
  archived_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
}

/** Migration 0172: an installation's device keys (the key itself is shown once; only its SHA-256 is kept). */
export interface DeviceKeysTable {
  id: Generated<number>
  installation_id: number
  name: string
  key_hash: string
  created_at: Ts
  created_by: number | null
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
}

/** Migration 0172: each ingested reading once per (meter, measurand, ts); value in the stored unit. */
export interface MeterReadingsTable {
  meter_id: number
  ts: Ts
  measurand: string
  value: number
  /** A register's rise booked into measurements (0: baseline or went down); null for other measurands. */
  delta_value: number | null
  /** Why the reading was set aside (a register that went down), else null. */
  flag: string | null
  via: string
}

/** Migration 0172: the newest register value per meter and measurand (the baseline of the next delta). */
export interface MeterRegistersTable {
  meter_id: number
  measurand: string
  ts: Ts
  value: number
}

/** Migration 0172: a meter's newest reading time and newest data-quality finding. */
export interface MeterStatusTable {
  meter_id: number
  last_reading_at: Ts | null
  quality_reason: string | null
  quality_at: Ts | null
}

export interface InstallationUsersTable {
  user_id: number
  installation_id: number
  role: 'installation_admin' | 'installation_user'
}

export interface ObjectsTable {
  id: Generated<number>
  installation_id: number
  parent_object_id: number | null
  description: string
  object_type: string
}

export interface PermissionsTable {
  id: Generated<number>
  user_id: number
  installation_id: number
  object_type: 'object' | 'charging_station' | 'rfid'
  object_id: number
  level: 'none' | 'read' | 'read_and_write' | 'inherit'
  cost: boolean
  overview: boolean
}

/** `power`: a participant's own electricity meter, e.g. a flat's (docs/decisions.md). */
export type MeterType = 'main_power' | 'pv' | 'battery' | 'cold_water' | 'hot_water' | 'heat' | 'charging_station' | 'power'

export interface MetersTable {
  id: Generated<number>
  installation_id: number
  object_id: number | null
  meter_type: MeterType
  name: string
  /** kWp for PV, kWh for a battery, kW for a station; null otherwise. */
  capacity: number | null
  /** Migration 0170: the device's serial number (unique among the installation's live meters). */
  serial: ColumnType<string | null, string | null | undefined, string | null>
  /** kWh, or m3 for water; filled from the type when not written. */
  unit: ColumnType<MeterUnit, MeterUnit | undefined, MeterUnit>
  /** Where readings come from; only 'simulator' meters are simulated. */
  source: ColumnType<MeterSource, MeterSource | undefined, MeterSource>
  /** Deleted by an admin: out of lists, live data and the simulator; measurements kept. */
  archived_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  /** Migration 0172: the meter's maximum power in kW (an admin's bound for ingested power), null: none. */
  max_power_kw: ColumnType<number | null, number | null | undefined, number | null>
  /**
   * Migration 0173: the settings of `source` (a Modbus device for 'modbus', shared/schemas/meters.ts
   * ModbusSourceConfig); null for the other sources. Written as JSON text.
   */
  source_config: ColumnType<import('../../shared/schemas/meters.ts').ModbusSourceConfig | null, string | null | undefined, string | null>
}

export type MeterUnit = 'kWh' | 'm3'
export type MeterSource = 'simulator' | 'ingest' | 'mqtt' | 'modbus'

export interface ChargingStationsTable {
  id: Generated<number>
  installation_id: number
  object_id: number | null
  meter_id: number
  device_id: string
  name: string
  description: string
  capacity_kw: number
  charging_mode: string
  status: string | null
  status_code: number
  alerts: Json<string[]>
  rfid_lernmodus: number
  /** Learning mode (migration 0020): the unknown tag detected while learning, waiting for an admin. */
  pending_rfid_tag: ColumnType<string | null, string | null | undefined, string | null>
  pending_rfid_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  power_kw: number
  current_session_id: number | null
  updated_at: TsDefault
  /** Migration 0170: 1 or 3 phases. */
  phases: ColumnType<number, number | undefined, number>
  /** Deleted by an admin (a soft delete: its sessions stay). */
  archived_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  /** Migration 0174: the load-management circuit the station hangs on (null: the grid connection). */
  load_circuit_id: ColumnType<string | null, string | null | undefined, string | null>
}

/** Migration 0174: an installation's load management (grid connection limit, on/off). */
export interface LoadManagementTable {
  installation_id: number
  enabled: boolean
  /** The connection's limit in A per phase, or null. */
  grid_limit_a: number | null
  /** The connection's limit in kW, or null. */
  grid_limit_kw: number | null
  /** The allocator's state after the last run (server/control/allocate.ts AllocationState). */
  state: ColumnType<unknown | null, string | null | undefined, string | null>
  updated_at: Ts
  /** Migration 0183: peak shaving with the battery is on. */
  peak_shaving: ColumnType<boolean, boolean | undefined, boolean>
  /** Migration 0183: the grid import to stay under, kW; null: none set. */
  peak_kw: ColumnType<number | null, number | null | undefined, number | null>
  /** Migration 0183: the controller's last battery command ({peak_kw, discharge_kw, at}), null: none. */
  battery_command: ColumnType<unknown | null, string | null | undefined, string | null>
}

/** Migration 0174: a sub-distribution below the grid connection (parent_id null: fed by the connection). */
export interface LoadCircuitsTable {
  installation_id: number
  id: string
  name: string
  parent_id: string | null
  /** A per phase. */
  limit_a: number
}

/** Migration 0174: the load controller's last decision per station (limit, reason, status code, alerts). */
export interface LoadLimitsTable {
  station_id: number
  installation_id: number
  /** A per phase; 0 paused; null not limited. */
  limit_a: number | null
  reason: string
  params: Json<Record<string, string | number>>
  until: Ts | null
  /** A SPEC §4 load-management status code (13–15, 19, 20, 22–25) or null. */
  status_code: number | null
  alerts: Json<string[]>
  /** The TxProfile last queued for the station's charge point. */
  sent: ColumnType<{ limit_a: number; transaction_id: number; at: string } | null, string | null | undefined, string | null>
  /** What the fail-safe TxDefaultProfile was last sent for (charge point, boot, mode, share). */
  failsafe: ColumnType<string | null, string | null | undefined, string | null>
  updated_at: Ts
}

/** Migration 0181: a resident's charge plan for their RFID card or a running session (docs/decisions.md "Load management: charge plans"). */
export interface ChargePlansTable {
  id: Generated<number>
  installation_id: number
  /** A plan for the session running at this station (exactly one of station_id and rfid_id). */
  station_id: number | null
  /** A plan for every session of this card. */
  rfid_id: number | null
  /** The station plan's session (the plan ends with it). */
  session_id: number | null
  /** kWh to charge; null: "full". */
  energy_kwh: number | null
  /** "HH:mm", installation-local. */
  deadline_time: string
  /** A once-plan's deadline; null: the plan repeats on its weekdays. */
  deadline_at: Ts | null
  repeat_monday: ColumnType<boolean, boolean | undefined, boolean>
  repeat_tuesday: ColumnType<boolean, boolean | undefined, boolean>
  repeat_wednesday: ColumnType<boolean, boolean | undefined, boolean>
  repeat_thursday: ColumnType<boolean, boolean | undefined, boolean>
  repeat_friday: ColumnType<boolean, boolean | undefined, boolean>
  repeat_saturday: ColumnType<boolean, boolean | undefined, boolean>
  repeat_sunday: ColumnType<boolean, boolean | undefined, boolean>
  /** The session and deadline the plan's energy is counted for, and the session's kWh when it began. */
  window_session_id: ColumnType<number | null, number | null | undefined, number | null>
  window_deadline: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  window_base_kwh: ColumnType<number | null, number | null | undefined, number | null>
  /** The controller's last planned slots: {start, end (ISO), kw, source}. */
  slots: ColumnType<{ start: string; end: string; kw: number; source: 'solar' | 'low_tariff' | 'grid' }[], string | undefined, string>
  reachable: ColumnType<boolean | null, boolean | null | undefined, boolean | null>
  remaining_kwh: ColumnType<number | null, number | null | undefined, number | null>
  planned_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  created_by: number | null
  updated_at: Ts
}

export interface RfidsTable {
  id: Generated<number>
  installation_id: number
  user_id: number | null
  tag: string
  description: string
  active: boolean
  all_stations: boolean
  /** A learned card is usable from here (about 3 minutes after registering, SPEC §9); null: at once. */
  ready_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  created_at: TsDefault
}

export interface RfidStationsTable {
  rfid_id: number
  station_id: number
}

export interface TimersTable {
  id: Generated<number>
  installation_id: number
  object_type: 'charging_station' | 'rfid'
  object_id: number
  repeat_monday: boolean
  repeat_tuesday: boolean
  repeat_wednesday: boolean
  repeat_thursday: boolean
  repeat_friday: boolean
  repeat_saturday: boolean
  repeat_sunday: boolean
  /** "HH:mm", installation-local. */
  start_time: string
  description: string
  charging_mode: string
}

export interface TariffsTable {
  id: Generated<number>
  installation_id: number
  name: string
  /** Monthly basic tariff, Rappen. */
  basic_rappen: number
  /** Energy prices, Rappen per kWh (fractional). */
  high_rappen_per_kwh: number
  low_rappen_per_kwh: number
  flat_rappen_per_kwh: number | null
  flat: boolean
  valid_from: string
  valid_to: string | null
  schedule: Json<import('../../shared/rules/tariff.ts').ScheduleEntry[]>
}

export interface RatesTable {
  id: Generated<number>
  installation_id: number
  kind: 'power' | 'water' | 'heat'
  name: string
  start_date: string | null
  end_date: string | null
  /** Kind-specific prices in Rappen (per kWh or per m3). */
  prices: Json<Record<string, number>>
  /** Power rates: high-price time spans, installation-local "HH:mm", weekdays they repeat on (0030). */
  time_spans: ColumnType<{ start: string; end: string; repetition: string[] }[], string | undefined, string>
  /** Power rates: whether the flat price applies (only settable in a future rate, SPEC §4) (0030). */
  flat_enabled: Generated<boolean>
}

export interface ChargingSessionsTable {
  id: Generated<number>
  installation_id: number
  station_id: number
  rfid_id: number | null
  user_id: number | null
  start: Ts
  end: Ts | null
  energy_kwh: number
  high_kwh: number
  low_kwh: number
  price_rappen: number
  fee_rappen: number
  /** held: waits for an admin's review (migration 0171); void: set aside by an admin; empty: ended with 0 kWh. */
  status: 'charging' | 'unpaid' | 'paid' | 'held' | 'void' | 'empty'
  paid_on: Ts | null
  set_by_timer: boolean
  /** The payment job's lease while it debits the session (migration 0071); null when free. */
  charge_claimed_until: Generated<Date | null>
  /** Why it is held for review (migration 0171, a SESSION_HOLD_REASONS code); null when not held. */
  hold_reason: Generated<string | null>
  /** What was corrected or found on the way (SESSION_FLAGS codes, migration 0171). */
  flags: ColumnType<string[], string | undefined, string>
  /** Why it ended other than by its charger (newTransaction, reboot, admin; migration 0171). */
  end_reason: Generated<string | null>
  /** When energy last came in (migration 0171); null before the first kWh. */
  last_energy_at: Generated<Date | null>
  /** An admin released it after review (migration 0171): the debit ceilings no longer hold it. */
  reviewed_at: Generated<Date | null>
  /** Whose series its invoice number is in and the number (migration 0176); null until its invoice is issued. */
  invoice_operator: Generated<string | null>
  invoice_number: Generated<number | null>
}

/** The last invoice number each operator issued (migration 0176): numbers without gaps, per operator. */
export interface InvoiceCountersTable {
  operator_key: string
  last_number: number
}

/** A user's customer at a payment provider (migration 0176), e.g. a Stripe Customer id. */
export interface PaymentCustomersTable {
  user_id: number
  provider: string
  customer_id: string
}

/** Admin reviews of sessions (migration 0171): corrections, releases, voidings and manual ends, with their reason. */
export interface SessionReviewsTable {
  id: Generated<number>
  session_id: number
  user_id: number | null
  action: 'correct' | 'approve' | 'void' | 'end'
  reason: string
  energy_before_kwh: number
  energy_after_kwh: number
  at: Ts
}

export interface MeasurementsTable {
  meter_id: number
  ts: Ts
  power_kw: number
  energy_in_kwh: number
  energy_out_kwh: number
  soc: number | null
  volume_m3: number
}

export interface Measurements15mTable {
  meter_id: number
  bucket: Ts
  energy_in_kwh: number
  energy_out_kwh: number
  volume_m3: number
  /** Sum of power_kw over samples and their count: average = power_sum / samples. */
  power_sum: number
  samples: number
  soc_last: number | null
}

/**
 * Hourly (measurements_1h) and daily (measurements_1d) rollups of measurements_15m per meter, kept by
 * triggers (migration 0060): `bucket` is the installation-local hour or midnight; soc_last the last
 * non-null state of charge in it.
 */
export interface MeasurementsRollupTable {
  meter_id: number
  bucket: Ts
  energy_in_kwh: number
  energy_out_kwh: number
  volume_m3: number
  soc_last: number | null
  /** The part of energy_in_kwh in high-tariff quarter hours of the tariff in force that day (0061). */
  energy_in_high_kwh: Generated<number>
}

/**
 * Rollups per installation and meter type (migration 0167): the sums of measurements_15m
 * (measurements_type_15m, no high-tariff share) or measurements_1d (measurements_type_1d) over the
 * installation's meters of `meter_type`, kept by triggers; whole-installation statistics read these.
 */
export interface MeasurementsTypeRollupTable extends Omit<MeasurementsRollupTable, 'meter_id'> {
  installation_id: number
  meter_type: string
}

export interface RefreshTokensTable {
  id: string
  user_id: number
  family_id: string
  token_hash: string
  expires_at: Ts
  used_at: Ts | null
  revoked_at: Ts | null
  created_at: TsDefault
  /** The access token issued with this refresh token: its jti and expiry (migration 0180), so logout can deny it. */
  access_jti: string | null
  access_expires_at: Ts | null
}

/** Access JWT ids refused until their expiry (migration 0180): written at logout, read by every process. */
export interface RevokedAccessTokensTable {
  jti: string
  expires_at: Ts
}

/** A single-use link to restore the previous sign-in address (migration 0180), mailed to that address. */
export interface EmailChangeUndoTable {
  id: Generated<number>
  user_id: number
  old_email: string
  new_email: string
  token_hash: string
  expires_at: Ts
  used_at: Ts | null
}

/** A sign-in address change waiting for the new address's confirmation (migration 0185). */
export interface EmailChangeRequestsTable {
  id: Generated<number>
  user_id: number
  requested_by: number | null
  old_email: string
  new_email: string
  address_taken: boolean
  token_hash: string
  created_at: Ts
  expires_at: Ts
  used_at: Ts | null
}

export interface MailOutboxTable {
  id: Generated<number>
  kind: string
  recipient: string
  subject: string
  body_text: string
  body_html: string | null
  /** [{ filename, content_type, content_base64 }] */
  attachments: Json<{ filename: string; content_type: string; content_base64: string }[]>
  status: Generated<'pending' | 'sent'>
  attempts: Generated<number>
  next_attempt_at: TsDefault
  last_error: string | null
  created_at: TsDefault
  sent_at: Ts | null
  /** Reply-To (migration 0100): a support ticket's reply address; null for other mail. */
  reply_to: Generated<string | null>
}

/** Support tickets (migration 0100): the owner's, with the secret of their reply address. */
export interface SupportTicketsTable {
  id: Generated<number>
  user_id: number
  installation_id: number | null
  topic: string
  status: Generated<'open' | 'closed'>
  reply_token: string
  created_at: TsDefault
  updated_at: TsDefault
}

/** The conversation of a ticket (migration 0100): from the owner ('user') or from support. */
export interface SupportMessagesTable {
  id: Generated<number>
  ticket_id: number
  author: 'user' | 'support'
  author_user_id: number | null
  body: string
  via: 'portal' | 'email'
  /** File names of the attachments refused (attachments are not kept). */
  refused_attachments: ColumnType<string[], string | undefined, string>
  created_at: TsDefault
}

/** One person's pinned app path in one installation (migration 0100). */
export interface ShortcutsTable {
  id: Generated<number>
  user_id: number
  installation_id: number
  name: string
  url: string
  created_at: TsDefault
}

/** Failed sign-ins for throttling (migration 0014); scope 'account' or 'ip'. */
export interface AuthFailuresTable {
  id: Generated<string>
  scope: string
  key: string
  at: TsDefault
}

/** A published version of a legal document (migration 0125): its text per UI language. */
export interface LegalVersionsTable {
  id: Generated<number>
  document: string
  version: string
  texts: Json<Record<'en' | 'de' | 'fr' | 'it', string>>
  published_at: TsDefault
  published_by: number | null
}

/** Legal acceptance (migration 0012): one row per user, document and version. */
export interface LegalAcceptancesTable {
  id: Generated<number>
  user_id: number
  document: string
  version: string
  accepted_at: TsDefault
}

/** Password reset tokens (migration 0010): SHA-256 of the token, single use, 60 minutes. */
export interface PasswordResetTokensTable {
  id: Generated<number>
  user_id: number
  token_hash: string
  expires_at: Ts
  used_at: Ts | null
  created_at: TsDefault
  /** 'reset' (reset and welcome links) or 'verify' (registration), migration 0013. */
  purpose: Generated<'reset' | 'verify'>
}

/** Invitations of an existing account to an installation (migration 0184): SHA-256 of the token, single use, 7 days. */
export interface UserInvitationsTable {
  id: Generated<number>
  installation_id: number
  user_id: number
  role: 'installation_admin' | 'installation_user'
  invited_by: number | null
  token_hash: string
  created_at: Ts
  expires_at: Ts
  accepted_at: Ts | null
  /** The address the inviting admin typed (migration 0186), shown in their list of pending invitations. */
  email: string
}

/** Setup links of the first start (migration 0168): SHA-256 of the token, single use, one hour. */
export interface SetupTokensTable {
  id: Generated<number>
  token_hash: string
  expires_at: Ts
  used_at: Ts | null
}

/** A change made while the installation was offline (migration 0110), sent on reconnect. */
export interface DeviceChangesTable {
  id: Generated<number>
  installation_id: number
  target_type: string
  target_id: number
  field: string
  value: Json<unknown>
  user_id: number | null
  requested_at: Ts
  state: ColumnType<'pending' | 'sending' | 'applied' | 'failed' | 'superseded', string | undefined, string>
  settled_at: Ts | null
  outcome: string | null
}

/** Journal events (migration 0021): mode changes (journal_entry) and RFID events (rfid_session_journal_entry). */
export interface JournalEventsTable {
  id: Generated<number>
  installation_id: number
  station_id: number
  rfid_id: number | null
  kind: 'journal_entry' | 'rfid_session_journal_entry'
  charging_mode: string
  at: Ts
  set_by_timer: Generated<boolean>
  /** What happened: 'mode_changed', or 'rfid_learned' / 'rfid_ignored' (a tag registered / ignored in learning mode, with the tag after a colon). */
  detail: Generated<string>
}

/**
 * The audit trail (migration 0169, server/domain/audit/service.ts): one row per provisioning or permission
 * change. before/after are the entity's JSON (null on create/delete respectively); never a secret.
 */
export interface AuditEventsTable {
  id: Generated<number>
  at: Ts
  actor_user_id: number | null
  installation_id: number | null
  action: string
  entity_type: string
  entity_id: string
  before: ColumnType<unknown, string | null, string | null>
  after: ColumnType<unknown, string | null, string | null>
}

/** Display links (migration 0140): a wall display's read-only key, stored as its SHA-256. */
export interface DisplaysTable {
  id: Generated<number>
  installation_id: number
  name: string
  key_hash: string
  created_by: number | null
  created_at: TsDefault
  valid_until: Ts | null
  revoked_at: Ts | null
}

export interface RightsRevisionTable {
  id: number
  revision: string | number
}

export interface AppSettingsTable {
  key: string
  value: string
}

/** Reports (migration 0031): intervals d/w/m/q/s/y; last_runs maps an interval to the end of the last period sent. */
export interface ReportsTable {
  id: Generated<number>
  installation_id: number
  name: string
  report_type: 'zev' | 'electrical' | 'water' | 'heat'
  year: number | null
  recipients: Json<string[]>
  output_directory: string | null
  intervals: Json<('d' | 'w' | 'm' | 'q' | 's' | 'y')[]>
  show_deltas: boolean
  language: string
  last_runs: ColumnType<Record<string, string>, string | undefined, string>
  created_at: TsDefault
}

/** Stored payment methods (migration 0040): masked number, brand, expiry and a provider token only. */
export interface PaymentMethodsTable {
  id: Generated<number>
  user_id: number
  kind: 'credit_card' | 'twint'
  brand: string
  masked: string
  exp_month: number | null
  exp_year: number | null
  alias: Generated<string>
  favourite: Generated<boolean>
  provider: string
  token: string
  created_at: TsDefault
}

/** Hosted-checkout sessions of the payment provider (migration 0040); the id is the random session key. */
export interface PaymentCheckoutsTable {
  id: string
  user_id: number
  success_url: string
  error_url: string
  cancel_url: string
  status: Generated<'pending' | 'completed' | 'failed' | 'cancelled'>
  payment_method_id: number | null
  created_at: TsDefault
  expires_at: Ts
  /** The provider's reference of this checkout, e.g. a Stripe SetupIntent id (migration 0176). */
  provider_ref: Generated<string | null>
}

/**
 * Every charge attempt (migration 0040): sessions, RFID card orders and monthly app fees (migration 0070,
 * `app_fee_id`); declined ones drive the retries. `pending` with its `idempotency_key` is written before
 * the provider debits (migration 0160), so a run that died after the debit resends the same key.
 */
export interface PaymentChargesTable {
  id: Generated<number>
  user_id: number
  payment_method_id: number | null
  session_id: number | null
  app_fee_id: Generated<number | null>
  purpose: 'session' | 'rfid_order' | 'app_fee'
  amount_rappen: number
  fee_rappen: number
  status: 'pending' | 'succeeded' | 'declined'
  reference: string | null
  at: Ts
  idempotency_key: Generated<string | null>
}

/**
 * The monthly app fee (migration 0070, SPEC §9: the installation's basic_tariff), one per user, installation
 * and installation-local month "YYYY-MM"; `claimed_until` is the lease of the run charging it.
 */
export interface AppFeesTable {
  id: Generated<number>
  user_id: number
  installation_id: number
  month: string
  amount_rappen: number
  fee_rappen: Generated<number>
  status: Generated<'unpaid' | 'paid'>
  paid_on: Ts | null
  claimed_until: Ts | null
  created_at: Ts
}

/** The simulator's saved state (migration 0045): see server/devices/simulator/state.ts for its shape. */
export interface SimulatorStateTable {
  installation_id: number
  state: Json<unknown>
  saved_at: Ts
}

/** A station bound to an OCPP 1.6J charge point (migration 0090). */
export interface OcppChargePointsTable {
  id: string
  installation_id: number
  station_id: number
  connector_id: number
  /** argon2id of the HTTP Basic password (security profile 1). */
  password_hash: string
  vendor: string | null
  model: string | null
  firmware: string | null
  serial: string | null
  /** The connector's last OCPP status (Available, SuspendedEV, …), as sent. */
  last_status: string | null
  last_boot_at: Ts | null
  last_message_at: Ts | null
  connected: Generated<boolean>
  messages_in: ColumnType<number, number | undefined, number | import('kysely').RawBuilder<number>>
  messages_out: ColumnType<number, number | undefined, number | import('kysely').RawBuilder<number>>
  created_at: TsDefault
  /** Run by the simulator over OCPP (SIM_OCPP, migration 0130). */
  simulated: Generated<boolean>
  /** The bound connector's last OCPP error code (migration 0175). */
  last_error: ColumnType<string | null, string | null | undefined, string | null>
  /** Connector 0's (the charge point's own) last OCPP status and error code (migration 0175). */
  connector0_status: ColumnType<string | null, string | null | undefined, string | null>
  connector0_error: ColumnType<string | null, string | null | undefined, string | null>
}

/** OCPP transactions (migration 0090): meter registers in Wh; the id is the OCPP transactionId. */
export interface OcppTransactionsTable {
  id: Generated<number>
  charge_point_id: string
  station_id: number
  connector_id: number
  id_tag: string
  session_id: number | null
  meter_start_wh: number
  last_meter_wh: number
  last_meter_at: Ts
  meter_stop_wh: number | null
  started_at: Ts
  stopped_at: Ts | null
  /** Why the central system closed it, when the charger did not (migration 0171): newTransaction, reboot, admin. */
  end_reason: Generated<string | null>
}

/** Commands to charge points (migration 0090): queued → sent → answered (status Accepted, Rejected, failed …). */
export interface OcppCommandsTable {
  id: Generated<number>
  charge_point_id: string
  action: string
  payload: Json<Record<string, unknown>>
  status: Generated<string>
  answer: ColumnType<unknown, string | null | undefined, string | null>
  created_at: TsDefault
  sent_at: Ts | null
  answered_at: Ts | null
}

export interface Database {
  ocpp_charge_points: OcppChargePointsTable
  ocpp_transactions: OcppTransactionsTable
  ocpp_commands: OcppCommandsTable
  payment_methods: PaymentMethodsTable
  payment_checkouts: PaymentCheckoutsTable
  payment_customers: PaymentCustomersTable
  invoice_counters: InvoiceCountersTable
  payment_charges: PaymentChargesTable
  app_fees: AppFeesTable
  reports: ReportsTable
  users: UsersTable
  installations: InstallationsTable
  installation_users: InstallationUsersTable
  objects: ObjectsTable
  permissions: PermissionsTable
  meters: MetersTable
  device_keys: DeviceKeysTable
  meter_readings: MeterReadingsTable
  meter_registers: MeterRegistersTable
  meter_status: MeterStatusTable
  charging_stations: ChargingStationsTable
  load_management: LoadManagementTable
  load_circuits: LoadCircuitsTable
  load_limits: LoadLimitsTable
  charge_plans: ChargePlansTable
  rfids: RfidsTable
  rfid_stations: RfidStationsTable
  timers: TimersTable
  tariffs: TariffsTable
  simulator_state: SimulatorStateTable
  rates: RatesTable
  charging_sessions: ChargingSessionsTable
  session_reviews: SessionReviewsTable
  measurements: MeasurementsTable
  measurements_15m: Measurements15mTable
  measurements_1h: MeasurementsRollupTable
  measurements_1d: MeasurementsRollupTable
  measurements_type_15m: Omit<MeasurementsTypeRollupTable, 'energy_in_high_kwh'>
  measurements_type_1d: MeasurementsTypeRollupTable
  refresh_tokens: RefreshTokensTable
  revoked_access_tokens: RevokedAccessTokensTable
  email_change_undo: EmailChangeUndoTable
  email_change_requests: EmailChangeRequestsTable
  app_settings: AppSettingsTable
  rights_revision: RightsRevisionTable
  displays: DisplaysTable
  audit_events: AuditEventsTable
  mail_outbox: MailOutboxTable
  journal_events: JournalEventsTable
  device_changes: DeviceChangesTable
  password_reset_tokens: PasswordResetTokensTable
  user_invitations: UserInvitationsTable
  setup_tokens: SetupTokensTable
  legal_acceptances: LegalAcceptancesTable
  legal_versions: LegalVersionsTable
  auth_failures: AuthFailuresTable
  support_tickets: SupportTicketsTable
  support_messages: SupportMessagesTable
  shortcuts: ShortcutsTable
}

export type UserRow = Selectable<UsersTable>
export type StationRow = Selectable<ChargingStationsTable>
export type SessionRow = Selectable<ChargingSessionsTable>
export type NewMeasurement = Insertable<MeasurementsTable>
