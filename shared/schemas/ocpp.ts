import { z } from 'zod'

/**
 * An OCPP charge point id (OCPP 1.6J §3.1: the last path segment of the endpoint URL, CiString20 as the
 * chargeBoxIdentity): 1–48 characters of letters, digits and `-_.:`, so it is safe in a URL path.
 */
export const ChargePointId = z.string().regex(/^[A-Za-z0-9._:-]{1,48}$/)

/**
 * Binding a station to an OCPP charge point (PUT …/charging_stations/{id}/ocpp, admins). `password`: the
 * HTTP Basic password of security profile 1 (OCPP 1.6 security whitepaper: 16–40 characters); omitted →
 * one is generated. Either way it is shown once, in the answer, and stored only as an argon2id hash.
 */
export const OcppBindingInput = z.object({
  charge_point_id: ChargePointId,
  connector_id: z.number().int().min(1).max(10).default(1),
  password: z.string().min(16).max(40).regex(/^[\x21-\x7e]+$/).optional(),
})

/**
 * A station's OCPP binding and what the central system knows of its charge point: what
 * its BootNotification said, whether it is connected to this server, when it was last heard from, its
 * last connector status as sent, and message counts since the binding. Times ISO 8601.
 */
export const OcppBinding = z.object({
  station_id: z.number().int(),
  charge_point_id: z.string(),
  connector_id: z.number().int(),
  vendor: z.string().nullable(),
  model: z.string().nullable(),
  firmware: z.string().nullable(),
  last_status: z.string().nullable(),
  last_boot_at: z.string().nullable(),
  last_message_at: z.string().nullable(),
  connected: z.boolean(),
  messages_in: z.number().int(),
  messages_out: z.number().int(),
})
export type OcppBinding = z.infer<typeof OcppBinding>

/** The answer to a binding: the binding and, this once, the password. */
export const OcppBindingCreated = OcppBinding.extend({ password: z.string() })
