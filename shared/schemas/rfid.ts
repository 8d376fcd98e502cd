import { z } from 'zod'
import { IdNumber, Text } from './common.ts'
import { COUNTRIES } from './accounts.ts'

/**
 * An RFID tag (SPEC §3, §5): no whitespace anywhere, 1–64 characters. Surrounding blanks are trimmed
 * first, so only inner spaces are refused (message key `rfidTagSpaces` on the server, `rfids.tagSpaces`
 * in the client).
 */
export const RfidTag = Text(64).min(1)

/** True when `tag` (already trimmed) contains whitespace: such a tag is refused (SPEC §5). */
export const tagHasSpaces = (tag: string) => /\s/.test(tag)

/**
 * Create an RFID card (POST …/installations/{id}/rfids/ or POST /api/rfids/?installation=…).
 * `description` optional; `user_id` a user of the installation or null; `all_stations` true (default)
 * lets the card charge everywhere, false limits it to `station_ids` (ids in the installation).
 */
export const RfidCreate = z.object({
  tag: RfidTag,
  description: Text(200).default(''),
  user_id: IdNumber.nullable().default(null),
  all_stations: z.boolean().default(true),
  station_ids: z.array(IdNumber).max(1000).default([]),
})

/** PUT/PATCH an RFID card: the fields of {@link RfidCreate}, all optional (PUT is treated as PATCH). */
export const RfidPatch = z
  .object({
    tag: RfidTag,
    description: Text(200),
    user_id: IdNumber.nullable(),
    all_stations: z.boolean(),
    station_ids: z.array(IdNumber).max(1000),
  })
  .partial()

/** Body of POST/PUT /api/rfids/{id}/charging_stations (SPEC §7): station device ids. */
export const DeviceIds = z.object({ device_ids: z.array(Text(100).min(1)).max(1000) })

/**
 * Card fields that reach the stations and so wait while the facility is offline (SPEC §4):
 * `create` (a new card, recorded at once but not yet sent), `tag`, `stations` ({all_stations,
 * station_ids}) and `active` (false: deleted).
 */
export const RFID_PENDING_FIELDS = ['create', 'tag', 'stations', 'active'] as const
export const RfidPendingChange = z.object({
  field: z.enum(RFID_PENDING_FIELDS),
  /** null for `create`; the new tag; the new {all_stations, station_ids}; false for a deletion. */
  value: z.union([z.string(), z.boolean(), z.object({ all_stations: z.boolean(), station_ids: z.array(z.number().int()) }), z.null()]),
  requested_at: z.string(),
})
export type RfidPendingChange = z.infer<typeof RfidPendingChange>

/**
 * An RFID card as the API answers it (SPEC §3). `station_ids` lists the stations it may charge at when
 * `all_stations` is false (empty otherwise). `active` false after DELETE (SPEC §4). `user_name` is the
 * owner's full name or null.
 */
export const Rfid = z.object({
  id: z.number().int(),
  installation_id: z.number().int(),
  tag: z.string(),
  description: z.string(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  active: z.boolean(),
  all_stations: z.boolean(),
  station_ids: z.array(z.number().int()),
  /** ISO time from which a learned card works (about 3 minutes after registering, SPEC §9); null: now. */
  ready_at: z.string().nullable(),
  created_at: z.string(),
  /** Changes made while the facility was offline, waiting to be sent (oldest first; empty when none). */
  pending_changes: z.array(RfidPendingChange),
})
export type Rfid = z.infer<typeof Rfid>

/** POST …/charging_stations/{id}/learned_rfid: register the pending learned tag (SPEC §4). */
export const LearnedRegister = z.object({
  description: Text(200).default(''),
  user_id: IdNumber.nullable().default(null),
})

/** One tag waiting to be registered (GET /api/rfids/new): the station that learned it and when. */
export const PendingRfid = z.object({
  station_id: z.number().int(),
  device_id: z.string(),
  station_name: z.string(),
  tag: z.string(),
  detected_at: z.string(),
})
export type PendingRfid = z.infer<typeof PendingRfid>

/** Price of a new RFID card in Rappen (SPEC §9: CHF 25, charged to the stored card). */
export const RFID_CARD_PRICE_RAPPEN = 2500

/**
 * POST /api/emails/send-ordering-new-rfid/?installation=… (SPEC §7, §9): the delivery address of the
 * new cards. Names, address, zip code and city are required ("The field is required."); country is one
 * of SPEC §9's list (default CH); quantity 1–10 (default 1).
 */
export const RfidOrder = z.object({
  first_name: Text(100).min(1),
  last_name: Text(100).min(1),
  company: Text(100).default(''),
  address: Text(200).min(1),
  zip_code: Text(20).min(1),
  city: Text(100).min(1),
  country: z.enum(COUNTRIES).default('CH'),
  quantity: z.number().int().min(1).max(10).default(1),
  comment: Text(500, { multiline: true }).default(''),
})
export type RfidOrder = z.infer<typeof RfidOrder>

/** GET/POST/PUT /api/rfids/{id}/charging_stations: whether the card charges everywhere, and the stations it may use. */
export const RfidStations = z.object({
  all_stations: z.boolean(),
  results: z.array(z.object({ id: z.number().int(), device_id: z.string(), name: z.string() })),
})

/** 201 answer of an RFID order: the SPEC §8 confirmation, the number of cards and the total price in CHF. */
export const RfidOrdered = z.object({ detail: z.string(), quantity: z.number().int(), price: z.number() })
