import crypto from 'node:crypto'
import type { Db } from '../../db/connection.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { OcppCredentialStore } from '../ocpp/credentials.ts'
import type { StationService } from './service.ts'
import { recordAudit, recordAudits, type AuditEntry } from '../audit/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, Invalid, NotFound } from '../../lib/errors.ts'
import type { Station, StationCreate, StationSetup } from '../../../shared/schemas/station.ts'

/** The OCPP credentials shown once: the charge point id, its password and the URL the electrician enters in the wallbox. */
export interface OcppCredentials {
  charge_point_id: string
  password: string
  url: string
}

/** A unique violation (SQLSTATE 23505) on `constraint`. */
function isUnique(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string }
  return e?.code === '23505' && (e.constraint === constraint || !!e.message?.includes(constraint))
}

const ocppIdTaken = () => new Invalid({ ocpp_charge_point_id: ['ocppIdTaken'] }, {}, 409)

/**
 * Charging stations as an installation's admins (and superusers) provision them: create (with the
 * station's own 'charging_station' meter and, given an OCPP id, its charge point binding and password),
 * rotate the OCPP password, delete. The OCPP binding and password hashing are the OCPP service's
 * (server/domain/ocpp/service.ts), so a password set here is checked like one set with PUT …/ocpp.
 * A deleted station is archived (a soft delete: charging_sessions, journal_events and
 * ocpp_transactions cascade from it): it leaves lists, live data, the simulator and the relay's
 * topics; its sessions and its meter's measurements stay in statistics, invoices and reports. Its
 * charge point is unbound (the id is free again). Each change is one transaction with its audit events (the caller's, when made on a transaction).
 * Every change refuses an archived installation (409 installationArchived, requireWritable).
 */
export function createStationProvisioning({ db, clock, installations, stations, ocpp, publicUrl }: {
  db: Db
  clock: Clock
  installations: InstallationService
  stations: StationService
  /** The OCPP service's charge point credentials (server/domain/ocpp/credentials.ts). */
  ocpp: OcppCredentialStore
  /** PUBLIC_URL: its ws(s) form + /ocpp/{id} is the charge point's endpoint (OCPP 1.6J §3.1). */
  publicUrl: string
}) {
  const endpoint = (id: string) => `${publicUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/ocpp/${encodeURIComponent(id)}`


  async function liveStation(installationId: number, stationId: number) {
    const s = await db.selectFrom('charging_stations').selectAll().where('id', '=', stationId).where('installation_id', '=', installationId).where('archived_at', 'is', null).executeTakeFirst()
    if (!s) throw NotFound()
    return s
  }

  /**
   * The checks and writes of new stations (create, add, addMany), each as create describes it, in one
   * transaction: one insert of their meters, one of the stations, a binding per OCPP id, one insert of
   * their audit events (in the order one by one would make them). The checks run in the order given as
   * if each station were made after the ones before it (an OCPP id given twice is taken the second time);
   * the first refused entry's error is thrown as `refused(index, error)` answers it, and none is made.
   * Their ids and OCPP credentials (shown once), in the order given.
   */
  async function insert(actor: Actor, installationId: number, inputs: StationCreate[], refused: (index: number, err: unknown) => unknown = (_i, err) => err): Promise<{ id: number; ocpp: OcppCredentials | null }[]> {
    await installations.requireWritable(actor, installationId)
    if (!inputs.length) return []
    const known = new Set((await db.selectFrom('objects').select('id').where('id', 'in', [...new Set(inputs.map((i) => i.object_id))]).where('installation_id', '=', installationId).execute()).map((o) => o.id))
    const bound = new Set<string>()
    const creds: ({ password: string; password_hash: string } | null)[] = []
    for (const [i, input] of inputs.entries()) {
      try {
        if (!known.has(input.object_id)) throw new Invalid({ object_id: ['notFound'] }, {}, 404)
        const cpId = input.ocpp_charge_point_id
        if (cpId && (bound.has(cpId.toLowerCase()) || (await ocpp.idTaken(cpId, undefined, db)))) throw ocppIdTaken()
        if (cpId) bound.add(cpId.toLowerCase())
        creds.push(cpId ? await ocpp.newCredentials() : null)
      } catch (err) {
        throw refused(i, err)
      }
    }
    const at = clock.now()
    try {
      return await inTransaction(db, async (tx) => {
        const made: { id: number; ocpp: OcppCredentials | null }[] = []
        const audit: AuditEntry[] = []
        // At most 65,535 parameters a statement (PostgreSQL frontend/backend protocol, Bind): 1,000 rows fit.
        for (let k = 0; k < inputs.length; k += 1000) {
          const part = inputs.slice(k, k + 1000)
          // A station's meter is fed by the station: by the simulator without a charge point, else by OCPP meter values.
          // A multi-row insert takes its ids in the order of its rows: by id, the meters and stations are in the order given.
          const meters = (await tx.insertInto('meters').values(part.map((input) => ({ installation_id: installationId, object_id: input.object_id, meter_type: 'charging_station' as const, name: input.name, capacity: input.capacity_kw, unit: 'kWh' as const, source: input.ocpp_charge_point_id ? 'ingest' as const : 'simulator' as const })))
            .returning('id').execute()).sort((a, b) => a.id - b.id)
          const stations = (await tx.insertInto('charging_stations').values(part.map((input, n) => ({
            installation_id: installationId, object_id: input.object_id, meter_id: meters[n].id, device_id: `ST-${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
            name: input.name, description: input.description ?? '', capacity_kw: input.capacity_kw, phases: input.phases, charging_mode: 'instant',
            status: 'noCar', status_code: 0, alerts: '[]', rfid_lernmodus: 0, power_kw: 0, current_session_id: null, updated_at: at,
          }))).returning(['id', 'device_id']).execute()).sort((a, b) => a.id - b.id)
          for (const [n, input] of part.entries()) {
            const s = stations[n]
            const cpId = input.ocpp_charge_point_id
            const c = creds[k + n]
            audit.push({ at, actor, installation_id: installationId, action: 'create', entity_type: 'charging_station', entity_id: s.id, after: { id: s.id, device_id: s.device_id, name: input.name, description: input.description ?? '', object_id: input.object_id, capacity_kw: input.capacity_kw, phases: input.phases, meter_id: meters[n].id, ocpp_charge_point_id: cpId ?? null } })
            if (cpId && c) {
              await ocpp.writeBinding(tx, { id: cpId, installationId, stationId: s.id, connectorId: 1, password_hash: c.password_hash })
              audit.push({ at, actor, installation_id: installationId, action: 'create', entity_type: 'ocpp_credentials', entity_id: cpId, after: { charge_point_id: cpId, station_id: s.id } })
            }
            made.push({ id: s.id, ocpp: cpId && c ? { charge_point_id: cpId, password: c.password, url: endpoint(cpId) } : null })
          }
        }
        await recordAudits(tx, audit)
        return made
      })
    } catch (err) {
      // Another request bound the id between the check and the insert.
      if (isUnique(err, 'ocpp_charge_points_pkey')) throw ocppIdTaken()
      throw err
    }
  }

  return {
    /**
     * POST …/charging_stations/ (admins): the station on `object_id` of the installation (404 naming
     * object_id otherwise), in instant mode, with its meter (capacity = capacity_kw). With an
     * `ocpp_charge_point_id` (409 naming it when any installation's station has it) it is bound to that
     * charge point and waits offline until it connects; the password is in the answer only. Without one
     * the simulator runs it like the demo's stations.
     */
    async create(actor: Actor, installationId: number, input: StationCreate): Promise<Station & { ocpp: OcppCredentials | null }> {
      const [made] = await insert(actor, installationId, [input])
      return { ...(await stations.get(actor, installationId, made.id)), ocpp: made.ocpp }
    },

    /**
     * Create as `create` does (same checks, errors and audit events), answering only the new station's
     * id and OCPP credentials: for a caller that needs no station back (a configuration import, the demo
     * seed), without the station read's rights and live-state queries.
     */
    async add(actor: Actor, installationId: number, input: StationCreate): Promise<{ id: number; ocpp: OcppCredentials | null }> {
      return (await insert(actor, installationId, [input]))[0]
    },

    /**
     * Create `inputs` as `add` does each (the same checks, errors and audit events) in one transaction
     * with one insert per kind of row: for a configuration import's stations of an installation
     * (docs/performance.md "Performance: importing 200 installations from a configuration file"). The
     * first refused entry's error is thrown as `refused(index, error)` answers it, and none is made.
     */
    addMany: insert,

    /**
     * PATCH …/charging_stations/{id}/ with setup fields (admins; docs/decisions.md "Provisioning: a
     * station's capacity and phases"): name, place (`object_id`, 404 naming it when not of this
     * installation), capacity in kW (1–350) and phases (1 or 3), description. The station's own meter
     * follows (name, place, capacity), as when it was made. One transaction with its audit event
     * (before and after); nothing recorded when nothing changes. 404 unknown or deleted station.
     */
    async update(actor: Actor, installationId: number, stationId: number, patch: StationSetup): Promise<Station> {
      await installations.requireWritable(actor, installationId)
      await liveStation(installationId, stationId)
      if (patch.object_id !== undefined) {
        const o = await db.selectFrom('objects').select('id').where('id', '=', patch.object_id).where('installation_id', '=', installationId).executeTakeFirst()
        if (!o) throw new Invalid({ object_id: ['notFound'] }, {}, 404)
      }
      const at = clock.now()
      await inTransaction(db, async (tx) => {
        const s = await tx.selectFrom('charging_stations').select(['name', 'object_id', 'capacity_kw', 'phases', 'description', 'meter_id']).where('id', '=', stationId).forUpdate().executeTakeFirstOrThrow()
        const before = { name: s.name, object_id: s.object_id, capacity_kw: s.capacity_kw, phases: s.phases, description: s.description }
        const after = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) }
        if (JSON.stringify(after) === JSON.stringify(before)) return
        await tx.updateTable('charging_stations').set({ ...after, updated_at: at }).where('id', '=', stationId).execute()
        await tx.updateTable('meters').set({ name: after.name, object_id: after.object_id, capacity: after.capacity_kw }).where('id', '=', s.meter_id).execute()
        await recordAudit(tx, { at, actor, installation_id: installationId, action: 'update', entity_type: 'charging_station', entity_id: stationId, before: { ...before, meter_id: s.meter_id }, after: { ...after, meter_id: s.meter_id } })
      })
      return stations.get(actor, installationId, stationId)
    },

    /**
     * POST …/charging_stations/{id}/ocpp/password (admins): a new generated password for the station's
     * charge point, shown this once; the old one is refused from now on. 404 ocppNotBound.
     */
    async rotatePassword(actor: Actor, installationId: number, stationId: number): Promise<OcppCredentials> {
      await installations.requireWritable(actor, installationId)
      await liveStation(installationId, stationId)
      const creds = await ocpp.newCredentials()
      const id = await inTransaction(db, async (tx) => {
        const cp = await ocpp.writePassword(tx, stationId, creds.password_hash)
        if (!cp) throw new AppError(404, 'ocppNotBound')
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'rotate_password', entity_type: 'ocpp_credentials', entity_id: cp, after: { charge_point_id: cp, station_id: stationId } })
        return cp
      })
      return { charge_point_id: id, password: creds.password, url: endpoint(id) }
    },

    /**
     * DELETE …/charging_stations/{id}/ (admins): archive the station and its meter, unbind its charge point,
     * drop its timers and learning state. 409 while a charging session (or OCPP transaction) is open there.
     * Returns the charge point id that was unbound (its connection is to be closed), or null.
     */
    async remove(actor: Actor, installationId: number, stationId: number): Promise<string | null> {
      await installations.requireWritable(actor, installationId)
      await liveStation(installationId, stationId)
      const at = clock.now()
      return inTransaction(db, async (tx) => {
        // The row lock makes a session start (which sets current_session_id) wait for this decision.
        const s = await tx.selectFrom('charging_stations').selectAll().where('id', '=', stationId).forUpdate().executeTakeFirstOrThrow()
        const [session, transaction] = await Promise.all([
          tx.selectFrom('charging_sessions').select('id').where('station_id', '=', stationId).where('end', 'is', null).executeTakeFirst(),
          tx.selectFrom('ocpp_transactions').select('id').where('station_id', '=', stationId).where('stopped_at', 'is', null).executeTakeFirst(),
        ])
        if (s.current_session_id !== null || session || transaction) throw new AppError(409, 'stationSessionOpen')
        await tx.updateTable('charging_stations').set({ archived_at: at, rfid_lernmodus: 0, pending_rfid_tag: null, pending_rfid_at: null, power_kw: 0, updated_at: at }).where('id', '=', stationId).execute()
        await tx.updateTable('meters').set({ archived_at: at }).where('id', '=', s.meter_id).execute()
        await tx.deleteFrom('timers').where('installation_id', '=', installationId).where('object_type', '=', 'charging_station').where('object_id', '=', stationId).execute()
        const cp = await tx.deleteFrom('ocpp_charge_points').where('station_id', '=', stationId).returning('id').executeTakeFirst()
        const before = { id: s.id, device_id: s.device_id, name: s.name, description: s.description, object_id: s.object_id, capacity_kw: s.capacity_kw, phases: s.phases, meter_id: s.meter_id, ocpp_charge_point_id: cp?.id ?? null }
        await recordAudit(tx, { at, actor, installation_id: installationId, action: 'archive', entity_type: 'charging_station', entity_id: stationId, before })
        if (cp) await recordAudit(tx, { at, actor, installation_id: installationId, action: 'delete', entity_type: 'ocpp_credentials', entity_id: cp.id, before: { charge_point_id: cp.id, station_id: stationId } })
        return cp?.id ?? null
      })
    },
  }
}
export type StationProvisioning = ReturnType<typeof createStationProvisioning>
