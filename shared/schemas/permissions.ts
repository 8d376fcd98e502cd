import { z } from 'zod'
import { Id, IdOrZero } from './common.ts'

/** Permission object types (SPEC §3): object, charging_station, rfid; object_id 0 with the latter two means all. */
export const PermissionObjectType = z.enum(['object', 'charging_station', 'rfid'])

/**
 * A permission entry as the API answers it (SPEC §3, ARCHITECTURE §4): one user, one object, a level
 * (none, read, read_and_write, inherit), the cost switch and the overview switch.
 */
export const Permission = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  installation_id: z.number().int(),
  object_type: PermissionObjectType,
  object_id: z.number().int().min(0),
  level: z.enum(['none', 'read', 'read_and_write', 'inherit']),
  cost: z.boolean(),
  overview: z.boolean(),
})
export type Permission = z.infer<typeof Permission>

/**
 * PUT/PATCH …/permissions body: which entry (user_id, object_type, object_id) and its new state. `level`
 * accepts r/read, rw/read_and_write, inherit and none; anything else counts as none (SPEC §6), and none
 * deletes the entry (SPEC §5). PATCH may leave out cost/overview (kept, or false for a new entry).
 */
export const PermissionSet = z.object({
  user_id: Id,
  object_type: PermissionObjectType,
  object_id: IdOrZero,
  level: z.string().min(1).max(30),
  cost: z.boolean().optional(),
  overview: z.boolean().optional(),
})
export type PermissionSet = z.infer<typeof PermissionSet>

/** DELETE …/permissions (query or body) and GET filters: the entry's key; GET takes any subset. */
export const PermissionKey = z.object({
  user_id: Id,
  object_type: PermissionObjectType,
  object_id: IdOrZero,
})
export const PermissionFilter = PermissionKey.partial()
