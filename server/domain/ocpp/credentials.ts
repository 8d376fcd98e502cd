import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import { hashPassword } from '../auth/passwords.ts'

import { OCPP_STATUS_CODE } from './status.ts'

/**
 * A charge point's identity and password (OCPP 1.6J §3.1, Basic authentication of the WebSocket): whether
 * an id is taken, new credentials, binding a station to a charge point and a new password. Part of the
 * OCPP service; on its own for whoever binds stations without the rest of it (the demo seed,
 * server/db/demo-seed.ts).
 */
export function createOcppCredentials({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /**
     * Whether charge point id `id` is bound to a station other than `exceptStationId`, in any installation
     * (ids compare without case: a charge point's identity is CiString, OCPP 1.6 §3.1). Read on `on`, the
     * caller's transaction when it binds in one.
     */
    async idTaken(id: string, exceptStationId?: number, on: Db = db): Promise<boolean> {
      const taken = await on.selectFrom('ocpp_charge_points').select('station_id').where(sql<boolean>`lower(id) = lower(${id})`).executeTakeFirst()
      return !!taken && taken.station_id !== exceptStationId
    },

    /** `password` or a generated one (24 random bytes, base64url) with its argon2id hash; only the hash is stored. */
    async newCredentials(password?: string): Promise<{ password: string; password_hash: string }> {
      const pw = password ?? crypto.randomBytes(24).toString('base64url')
      return { password: pw, password_hash: await hashPassword(pw) }
    },

    /**
     * In the caller's transaction `tx`: bind `stationId` to charge point `id` (replacing an earlier binding
     * of the station); the station waits offline until the charge point is heard from (SPEC §4 "no OCPP
     * heartbeat"). A unique violation means another station took the id meanwhile.
     */
    async writeBinding(tx: Db, b: { id: string; installationId: number; stationId: number; connectorId: number; password_hash: string }): Promise<void> {
      await tx.deleteFrom('ocpp_charge_points').where('station_id', '=', b.stationId).execute()
      await tx.insertInto('ocpp_charge_points').values({ id: b.id, installation_id: b.installationId, station_id: b.stationId, connector_id: b.connectorId, password_hash: b.password_hash, vendor: null, model: null, firmware: null, serial: null, last_status: null, last_boot_at: null, last_message_at: null, created_at: clock.now() }).execute()
      await tx.updateTable('charging_stations').set({ status: 'unknown', status_code: OCPP_STATUS_CODE.noHeartbeat, alerts: JSON.stringify(['offline']), power_kw: 0, updated_at: clock.now() }).where('id', '=', b.stationId).execute()
    },

    /** In `tx`: a new password hash for the charge point bound to `stationId`; its id, or null when none is bound. */
    async writePassword(tx: Db, stationId: number, password_hash: string): Promise<string | null> {
      const r = await tx.updateTable('ocpp_charge_points').set({ password_hash }).where('station_id', '=', stationId).returning('id').executeTakeFirst()
      return r?.id ?? null
    },
  }
}
export type OcppCredentialStore = ReturnType<typeof createOcppCredentials>
