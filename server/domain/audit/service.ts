import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Forbidden } from '../../lib/errors.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import type { AuditEvent } from '../../../shared/schemas/audit.ts'
import type { AUDIT_ENTITY_TYPES } from '../../../shared/schemas/audit.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'

/**
 * One change for the audit trail (docs/decisions.md "Provisioning: the audit trail").
 * - `at`: when, from the one clock (`clock.now()`, ARCHITECTURE §1 "Time");
 * - `actor`: who: the signed-in Actor (a display link never changes anything), or null for the system
 *   (demo seed, CLI);
 * - `installation_id`: the installation the entity belongs to (null for none);
 * - `action`: what was done, a verb: 'create', 'update', 'delete', 'archive', 'unarchive', 'rotate_password', …;
 * - `entity_type` / `entity_id`: what it was done to (the id as text, so composite keys fit: a permission
 *   entry is "user:object_type:object_id");
 * - `before` / `after`: the entity's JSON before and after (omit or null: create has no before, delete no
 *   after). Keys that name a secret (password, secret, token, hash, key) are dropped by recordAudit all
 *   the same, but callers must not pass secrets in the first place.
 */
export interface AuditEntry {
  at: Date
  actor: Pick<Actor, 'id'> | null
  installation_id: number | null
  action: string
  entity_type: (typeof AUDIT_ENTITY_TYPES)[number]
  entity_id: string | number
  before?: unknown
  after?: unknown
}

const SECRET = /password|secret|token|hash|(^|_)key$/i

/** `value` as JSON with every property whose name says "secret" (SECRET) left out, at any depth. */
function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value instanceof Date) return value.toISOString()
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET.test(k)).map(([k, v]) => [k, redact(v)]))
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(redact(v)))

/**
 * Record one audit event. Call it with the transaction (`tx`) that makes the change, so the change and
 * its record commit or roll back together: no change without its record, no record of a change that
 * did not happen. `tx` may be the plain database for a change that is one statement already. Never
 * throws for the content (before/after are stored as given, secrets dropped); a database error rolls
 * the whole transaction back.
 *
 * ```ts
 * await db.transaction().execute(async (tx) => {
 *   const row = await tx.insertInto('objects').values(v).returningAll().executeTakeFirstOrThrow()
 *   await recordAudit(tx, { at: clock.now(), actor, installation_id: row.installation_id, action: 'create', entity_type: 'object', entity_id: row.id, after: row })
 * })
 * ```
 */
export async function recordAudit(tx: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await recordAudits(tx, [entry])
}

/**
 * Record several audit events, one per change, in one statement (in the order given): for a service
 * that makes many entities of one kind at once (MeterProvisioning.createMany). As recordAudit otherwise;
 * nothing for an empty list.
 */
export async function recordAudits(tx: Kysely<Database>, entries: AuditEntry[]): Promise<void> {
  if (!entries.length) return
  await tx
    .insertInto('audit_events')
    .values(entries.map((entry) => ({
      at: entry.at,
      // A display link's id is negative (auth/service.ts Actor) and names no user.
      actor_user_id: entry.actor && entry.actor.id > 0 ? entry.actor.id : null,
      installation_id: entry.installation_id,
      action: entry.action,
      entity_type: entry.entity_type,
      entity_id: String(entry.entity_id),
      before: json(entry.before),
      after: json(entry.after),
    })))
    .execute()
}

/**
 * Reading the audit trail: superusers read all of it; an installation's admins read that installation's
 * events only (they must name it); anyone else 403. Newest first.
 */
export function createAuditService({ db, installations }: { db: Db; installations: InstallationService }) {
  return {
    /**
     * GET /api/cockpit/audit/ (installation_id, entity_type, limit, offset) and GET
     * /api/cockpit/installations/{id}/audit/. Without installation_id: superusers only (403 otherwise).
     * With it: superusers, or that installation's admins (404 unknown installation for them, 403 not
     * their admin role). A superuser also reads the events of a deleted installation by its id.
     */
    async list(actor: Actor, q: { installation_id?: number; entity_type?: string; limit: number; offset: number }): Promise<PageOf<AuditEvent>> {
      if (!actor.is_superuser) {
        if (q.installation_id === undefined) throw Forbidden()
        if (!isAdmin(await installations.requireRole(actor, q.installation_id))) throw Forbidden()
      }
      let base = db.selectFrom('audit_events')
      if (q.installation_id !== undefined) base = base.where('audit_events.installation_id', '=', q.installation_id)
      if (q.entity_type !== undefined) base = base.where('audit_events.entity_type', '=', q.entity_type)
      const [{ count }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
        base
          .leftJoin('users', 'users.id', 'audit_events.actor_user_id')
          .selectAll('audit_events')
          .select('users.email as actor_email')
          .orderBy('audit_events.id', 'desc')
          .limit(q.limit)
          .offset(q.offset)
          .execute(),
      ])
      const results = rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        actor_user_id: r.actor_user_id,
        actor_email: r.actor_email ?? null,
        installation_id: r.installation_id,
        action: r.action,
        entity_type: r.entity_type,
        entity_id: r.entity_id,
        before: r.before ?? null,
        after: r.after ?? null,
      }))
      return { count: Number(count), next: null, previous: null, results }
    },
  }
}
export type AuditService = ReturnType<typeof createAuditService>
