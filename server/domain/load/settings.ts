import type { Db } from '../../db/connection.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Lang } from '../../lib/messages.ts'
import { Forbidden, Invalid, type FieldMessage } from '../../lib/errors.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import { MIN_CURRENT_A, type LoadCircuit, type LoadManagement, type LoadManagementPut } from '../../../shared/schemas/load-management.ts'
import { recordAudit } from '../audit/service.ts'
import { stationReason } from './station-reason.ts'

/** The controller's battery command of peak shaving (migration 0183 `battery_command`): see LoadManagement in shared/schemas/load-management.ts. */
export interface BatteryCommand {
  peak_kw: number
  discharge_kw: number
  at: string
}

/** Volts per phase and phases of a grid connection: kW ↔ A per phase (3 × 230 V). */
const VOLTS = 230
const GRID_PHASES = 3

/** A station's highest current, A per phase: its capacity (kW) over its phases at 230 V, one decimal down. */
export function maxCurrentA(capacityKw: number, phases: number): number {
  return Math.floor((capacityKw * 1000 * 10) / (VOLTS * phases)) / 10
}

/**
 * The connection's limit in A per phase in force: the tighter of `grid_limit_a` and `grid_limit_kw` at
 * 3 × 230 V (one decimal, down); null when neither is set.
 */
export function effectiveGridLimitA(s: { grid_limit_a: number | null; grid_limit_kw: number | null }): number | null {
  const fromKw = s.grid_limit_kw !== null ? Math.floor((s.grid_limit_kw * 1000 * 10) / (VOLTS * GRID_PHASES)) / 10 : null
  if (s.grid_limit_a === null) return fromKw
  return fromKw === null ? s.grid_limit_a : Math.min(s.grid_limit_a, fromKw)
}

/**
 * Check a circuit tree against the installation's stations; field errors keyed like the body
 * (`circuits.2.parent_id`): duplicate ids, a parent that is not in the tree, a cycle, a station that is
 * not one of the installation's live stations or is on two circuits; `grid_limit_a` required when enabled
 * without either limit; `peak_shaving.peak_kw` required when peak shaving is on.
 */
export function checkLoadManagement(body: LoadManagementPut, stationIds: Set<number>): Record<string, FieldMessage[]> {
  const errors: Record<string, FieldMessage[]> = {}
  const add = (field: string, key: FieldMessage) => (errors[field] ??= []).push(key)
  if (body.enabled && body.grid_limit_a === null && body.grid_limit_kw === null) add('grid_limit_a', 'required')
  if (body.peak_shaving.enabled && body.peak_shaving.peak_kw === null) add('peak_shaving.peak_kw', 'required')
  const index = new Map<string, number>()
  body.circuits.forEach((c, i) => {
    if (index.has(c.id)) add(`circuits.${i}.id`, 'loadCircuitDuplicate')
    else index.set(c.id, i)
  })
  body.circuits.forEach((c, i) => {
    if (c.parent_id === null) return
    if (!index.has(c.parent_id)) return add(`circuits.${i}.parent_id`, 'loadCircuitUnknownParent')
    // Follow the parents: reaching this circuit again is a cycle.
    const seen = new Set<string>([c.id])
    let p: string | null = c.parent_id
    while (p !== null) {
      if (seen.has(p)) return add(`circuits.${i}.parent_id`, 'loadCircuitCycle')
      seen.add(p)
      const at = index.get(p)
      p = at === undefined ? null : body.circuits[at].parent_id
    }
  })
  const placed = new Map<number, number>()
  body.circuits.forEach((c, i) => {
    for (const id of c.station_ids) {
      if (!stationIds.has(id)) add(`circuits.${i}.station_ids`, { key: 'loadStationUnknown', params: { id } })
      else if (placed.has(id) && placed.get(id) !== i) add(`circuits.${i}.station_ids`, { key: 'loadStationTwice', params: { id } })
      else placed.set(id, i)
    }
  })
  return errors
}

/**
 * An installation's load-management settings (docs/decisions.md "Load management: model, controller and
 * reasons"): GET and PUT …/installations/{id}/load_management, for that installation's admins and
 * superusers (403 for residents and admins of other installations; 404 unknown installation). A PUT
 * replaces the switch, the connection's limits and the whole circuit tree in one transaction with its
 * audit event (entity `load_management`); 400 naming the field for a bad tree (see
 * {@link checkLoadManagement}); 409 installationArchived.
 */
export function createLoadSettings({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }

  /** The stored settings (defaults before the first PUT): switch, limits, circuits with their stations. */
  async function stored(installationId: number, tx: Db = db): Promise<LoadManagementPut & { updated_at: string | null; battery_command: BatteryCommand | null }> {
    const [row, circuits, stations] = await Promise.all([
      tx.selectFrom('load_management').selectAll().where('installation_id', '=', installationId).executeTakeFirst(),
      tx.selectFrom('load_circuits').selectAll().where('installation_id', '=', installationId).orderBy('id').execute(),
      tx.selectFrom('charging_stations').select(['id', 'load_circuit_id']).where('installation_id', '=', installationId).where('archived_at', 'is', null).where('load_circuit_id', 'is not', null).orderBy('id').execute(),
    ])
    return {
      enabled: row?.enabled ?? false,
      grid_limit_a: row?.grid_limit_a ?? null,
      grid_limit_kw: row?.grid_limit_kw ?? null,
      circuits: circuits.map((c): LoadCircuit => ({ id: c.id, name: c.name, parent_id: c.parent_id, limit_a: c.limit_a, station_ids: stations.filter((s) => s.load_circuit_id === c.id).map((s) => s.id) })),
      peak_shaving: { enabled: row?.peak_shaving ?? false, peak_kw: row?.peak_kw ?? null },
      updated_at: row?.updated_at.toISOString() ?? null,
      battery_command: row?.peak_shaving ? ((row.battery_command as BatteryCommand | null) ?? null) : null,
    }
  }

  const settings = {
    stored,

    /** GET …/load_management: the settings, the limit in force and each station with its limit and reason in `lang`. */
    async get(actor: Actor, installationId: number, lang: Lang = 'en'): Promise<LoadManagement> {
      await requireAdmin(actor, installationId)
      const s = await stored(installationId)
      const tz = (await db.selectFrom('installations').select('timezone').where('id', '=', installationId).executeTakeFirstOrThrow()).timezone
      const rows = await db.selectFrom('charging_stations as s').leftJoin('load_limits as l', 'l.station_id', 's.id')
        .select(['s.id', 's.name', 's.phases', 's.capacity_kw', 's.load_circuit_id', 's.status', 's.alerts', 's.charging_mode', 's.power_kw',
          'l.limit_a', 'l.reason', 'l.params', 'l.until', 'l.status_code', 'l.alerts as load_alerts'])
        .where('s.installation_id', '=', installationId).where('s.archived_at', 'is', null).orderBy('s.id').execute()
      return {
        ...s,
        effective_grid_limit_a: effectiveGridLimitA(s),
        stations: rows.map((r) => {
          const limit = r.reason !== null ? { limit_a: r.limit_a, reason: r.reason, params: r.params ?? {}, until: r.until, status_code: r.status_code, alerts: r.load_alerts ?? [] } : null
          return {
            id: r.id, name: r.name, phases: r.phases, min_current_a: MIN_CURRENT_A, max_current_a: maxCurrentA(r.capacity_kw, r.phases),
            circuit_id: r.load_circuit_id, limit_a: limit?.limit_a ?? null, reason: stationReason(r, limit, tz, lang),
          }
        }),
      }
    },

    /** PUT …/load_management: replace the settings (see {@link createLoadSettings}); answers as GET. */
    async put(actor: Actor, installationId: number, body: LoadManagementPut, lang: Lang = 'en'): Promise<LoadManagement> {
      await installations.requireWritable(actor, installationId)
      const live = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('archived_at', 'is', null).execute()
      const errors = checkLoadManagement(body, new Set(live.map((s) => s.id)))
      if (Object.keys(errors).length) throw new Invalid(errors)
      await inTransaction(db, async (tx) => {
        const before = await stored(installationId, tx)
        const at = clock.now()
        const values = {
          enabled: body.enabled, grid_limit_a: body.grid_limit_a, grid_limit_kw: body.grid_limit_kw, updated_at: at,
          peak_shaving: body.peak_shaving.enabled, peak_kw: body.peak_shaving.peak_kw,
          // The controller gives the battery a new command at its next round (none while switched off).
          ...(body.peak_shaving.enabled && body.enabled ? {} : { battery_command: null }),
        }
        await tx.insertInto('load_management').values({ installation_id: installationId, ...values })
          .onConflict((oc) => oc.column('installation_id').doUpdateSet(values)).execute()
        await tx.deleteFrom('load_circuits').where('installation_id', '=', installationId).execute()
        if (body.circuits.length) {
          await tx.insertInto('load_circuits').values(body.circuits.map((c) => ({ installation_id: installationId, id: c.id, name: c.name, parent_id: c.parent_id, limit_a: c.limit_a }))).execute()
        }
        await tx.updateTable('charging_stations').set({ load_circuit_id: null }).where('installation_id', '=', installationId).where('load_circuit_id', 'is not', null).execute()
        for (const c of body.circuits) {
          if (c.station_ids.length) await tx.updateTable('charging_stations').set({ load_circuit_id: c.id }).where('installation_id', '=', installationId).where('id', 'in', c.station_ids).execute()
        }
        // The audit trail holds the settings, not the controller's last command.
        const { battery_command: _before, ...beforeSettings } = before
        const { battery_command: _after, ...after } = await stored(installationId, tx)
        await recordAudit(tx, { at, actor, installation_id: installationId, action: 'update', entity_type: 'load_management', entity_id: installationId, before: before.updated_at ? beforeSettings : null, after })
      })
      return settings.get(actor, installationId, lang)
    },
  }
  return settings
}
export type LoadSettings = ReturnType<typeof createLoadSettings>
