import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { AppError, Invalid, NotFound } from '../../lib/errors.ts'
import { mayReadStation } from '../../../shared/rules/permissions.ts'
import type { OcppBinding } from '../../../shared/schemas/ocpp.ts'
import { hashPassword } from '../auth/passwords.ts'
import { recordAudit } from '../audit/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { createOcppCredentials } from './credentials.ts'

/**
 * Bindings of stations to OCPP charge points (service.ts spreads them into the OCPP service): admins bind
 * a station (and connector) to a charge point id with a password shown once and stored as argon2id; the
 * simulator binds its own charge points under SIM_OCPP.
 */
export function createBindings({ db, clock, installations, requireAdmin, stationIn }: {
  db: Db
  clock: Clock
  installations: InstallationService
  requireAdmin: (actor: Actor, installationId: number) => Promise<void>
  stationIn: (installationId: number, stationId: number) => Promise<unknown>
}) {
  function toBinding(r: { station_id: number; id: string; connector_id: number; vendor: string | null; model: string | null; firmware: string | null; last_status: string | null; last_boot_at: Date | null; last_message_at: Date | null; connected: boolean; messages_in: number; messages_out: number }): OcppBinding {
    return {
      station_id: r.station_id, charge_point_id: r.id, connector_id: r.connector_id, vendor: r.vendor, model: r.model, firmware: r.firmware,
      last_status: r.last_status, last_boot_at: r.last_boot_at?.toISOString() ?? null, last_message_at: r.last_message_at?.toISOString() ?? null,
      connected: r.connected, messages_in: Number(r.messages_in), messages_out: Number(r.messages_out),
    }
  }

  const bindings = {
    /**
     * GET …/charging_stations/{id}/ocpp: the binding for whoever may read the station (the charge point id
     * and its state are no secret; the password is never shown again); 404 unreadable, 404 ocppNotBound.
     */
    async binding(actor: Actor, installationId: number, stationId: number): Promise<OcppBinding> {
      const access = await installations.access(actor, installationId)
      await stationIn(installationId, stationId)
      if (!mayReadStation(access, stationId)) throw NotFound()
      const r = await db.selectFrom('ocpp_charge_points').selectAll().where('station_id', '=', stationId).executeTakeFirst()
      if (!r) throw new AppError(404, 'ocppNotBound')
      return toBinding(r)
    },

    /**
     * PUT …/charging_stations/{id}/ocpp (admins): bind the station to `charge_point_id` (replacing an
     * earlier binding of this station) with `password` or a generated one (24 random bytes, base64url),
     * returned this once and stored as argon2id. 400 `charge_point_id: ocppIdTaken` when another station
     * has the id; 403 for non-admins, 404 unknown station. Recorded in the audit trail (without the password).
     */
    async bind(actor: Actor, installationId: number, stationId: number, input: { charge_point_id: string; connector_id: number; password?: string }): Promise<OcppBinding & { password: string }> {
      await requireAdmin(actor, installationId)
      await stationIn(installationId, stationId)
      if (await bindings.idTaken(input.charge_point_id, stationId)) throw new Invalid({ charge_point_id: ['ocppIdTaken'] })
      const { password, password_hash } = await bindings.newCredentials(input.password)
      await db.transaction().execute(async (tx) => {
        await bindings.writeBinding(tx, { id: input.charge_point_id, installationId, stationId, connectorId: input.connector_id, password_hash })
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'bind', entity_type: 'ocpp_credentials', entity_id: input.charge_point_id, after: { charge_point_id: input.charge_point_id, station_id: stationId, connector_id: input.connector_id } })
      })
      const r = await db.selectFrom('ocpp_charge_points').selectAll().where('station_id', '=', stationId).executeTakeFirstOrThrow()
      return { ...toBinding(r), password }
    },

    // idTaken, newCredentials, writeBinding, writePassword (credentials.ts, shared with the demo seed).
    ...createOcppCredentials({ db, clock }),

    /** DELETE …/charging_stations/{id}/ocpp (admins): unbind; the simulator runs the station again. 404 when not bound. */
    async unbind(actor: Actor, installationId: number, stationId: number): Promise<void> {
      await requireAdmin(actor, installationId)
      await stationIn(installationId, stationId)
      await db.transaction().execute(async (tx) => {
        const r = await tx.deleteFrom('ocpp_charge_points').where('station_id', '=', stationId).returning(['id', 'connector_id']).executeTakeFirst()
        if (!r) throw new AppError(404, 'ocppNotBound')
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'unbind', entity_type: 'ocpp_credentials', entity_id: r.id, before: { charge_point_id: r.id, station_id: stationId, connector_id: r.connector_id } })
      })
    },

    /**
     * SIM_OCPP: bind `stationId` to the simulator's own charge point `id` with `password`
     * (replacing an earlier simulated binding of the station). A station bound to a real charge point is
     * left alone: false.
     */
    async bindSimulated(stationId: number, id: string, password: string): Promise<boolean> {
      const s = await db.selectFrom('charging_stations').select(['id', 'installation_id']).where('id', '=', stationId).executeTakeFirstOrThrow()
      const real = await db.selectFrom('ocpp_charge_points').select('id').where('station_id', '=', stationId).where('simulated', '=', false).executeTakeFirst()
      if (real) return false
      const password_hash = await hashPassword(password)
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('ocpp_charge_points').where((eb) => eb.or([eb('station_id', '=', stationId), eb('id', '=', id)])).execute()
        await tx.insertInto('ocpp_charge_points').values({ id, installation_id: s.installation_id, station_id: stationId, connector_id: 1, password_hash, vendor: null, model: null, firmware: null, serial: null, last_status: null, last_boot_at: null, last_message_at: null, simulated: true, created_at: clock.now() }).execute()
      })
      return true
    },

    /** The simulator runs without SIM_OCPP: its charge points' bindings go (their stations are simulated directly again). */
    async unbindSimulated(): Promise<void> {
      await db.deleteFrom('ocpp_charge_points').where('simulated', '=', true).execute()
    },
  }
  return bindings
}
