import { z } from 'zod'
import { ListQuery, MAX_ID } from './common.ts'

/** Kinds of entity the audit trail records (server/domain/audit/service.ts). */
export const AUDIT_ENTITY_TYPES = ['installation', 'object', 'meter', 'charging_station', 'ocpp_credentials', 'device_key', 'permission', 'installation_user', 'user', 'tariff', 'rate', 'load_management', 'charge_plan'] as const
export const AuditEntityType = z.enum(AUDIT_ENTITY_TYPES)

/**
 * One audit event (docs/decisions.md "Provisioning: the audit trail"): when (ISO), who (the user id and
 * e-mail, null for the system, e.g. the demo seed), the installation, what was done (`create`, `update`,
 * `delete`, `archive`, …) to which entity, and the entity's JSON before and after (null on create and
 * delete). Never a password or secret.
 */
export const AuditEvent = z.object({
  id: z.number().int(),
  at: z.string(),
  actor_user_id: z.number().int().nullable(),
  actor_email: z.string().nullable(),
  installation_id: z.number().int().nullable(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
})
export type AuditEvent = z.infer<typeof AuditEvent>

/** GET /api/cockpit/audit/: filters and paging (newest first). */
export const AuditQuery = ListQuery.extend({
  installation_id: z.coerce.number().int().min(1).max(MAX_ID).optional(),
  entity_type: AuditEntityType.optional(),
})
/** GET /api/cockpit/installations/{id}/audit/: the same without the installation filter (the path names it). */
export const InstallationAuditQuery = AuditQuery.omit({ installation_id: true })
