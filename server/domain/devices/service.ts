import type { Db } from '../../db/connection.ts'
import type { MeterType } from '../../db/schema.ts'
import type { Clock } from '../../lib/clock.ts'

/** What a device gateway (the simulator, later OCPP) needs to know of an installation's equipment. */
export interface Equipment {
  installation: { id: number; timezone: string; latitude: number; longitude: number }
  meters: { id: number; meter_type: MeterType; object_id: number | null; capacity: number | null }[]
  apartments: number[]
  /** `limit_a`: the load controller's limit, A per phase (migration 0174; null: none). */
  stations: { id: number; meter_id: number; capacity_kw: number; phases?: number; charging_mode: string; status: string | null; current_session_id: number | null; limit_a?: number | null }[]
  /** Active, ready cards; `station_ids` set when a card may charge only at those stations. */
  rfids: { id: number; user_id: number | null; station_ids?: number[]; tag?: string }[]
  timers: { object_id: number; days: boolean[]; start_time: string; charging_mode: string }[]
  /**
   * Peak shaving's battery command (migration 0183): keep grid import at most `peak_kw` (kW) by
   * discharging; absent while there is none or it is more than {@link BATTERY_COMMAND_MAX_AGE_MS} old.
   */
  battery_command?: { peak_kw: number }
}

/** A battery command older than this is void: the battery returns to its own operation (a lost controller). */
export const BATTERY_COMMAND_MAX_AGE_MS = 60_000

/**
 * The device side's read model: equipment of every installation, reread on every simulator step so a
 * changed charging mode or timer takes effect within 5 s. `clock` is the process clock (ARCHITECTURE §1
 * "Time").
 */
export function createDeviceService({ db, clock }: { db: Db; clock: Clock }) {
  // Cards limited to some stations (all_stations false) carry their station ids.
  async function withStations(rfids: { id: number; user_id: number | null; all_stations: boolean; tag: string }[]): Promise<Equipment['rfids']> {
    const limited = rfids.filter((r) => !r.all_stations).map((r) => r.id)
    const links = limited.length ? await db.selectFrom('rfid_stations').select(['rfid_id', 'station_id']).where('rfid_id', 'in', limited).execute() : []
    return rfids.map((r) => (r.all_stations ? { id: r.id, user_id: r.user_id, tag: r.tag } : { id: r.id, user_id: r.user_id, tag: r.tag, station_ids: links.filter((l) => l.rfid_id === r.id).map((l) => l.station_id) }))
  }
  return {
    /** The simulator's saved state of an installation (migration 0045), or null before its first step. */
    async loadSimulatorState(installationId: number): Promise<unknown | null> {
      const row = await db.selectFrom('simulator_state').select('state').where('installation_id', '=', installationId).executeTakeFirst()
      return row?.state ?? null
    },
    /** Save the simulator's state of an installation (one row, replaced). */
    async saveSimulatorState(installationId: number, state: unknown, at: Date): Promise<void> {
      const json = JSON.stringify(state)
      await db.insertInto('simulator_state').values({ installation_id: installationId, state: json, saved_at: at })
        .onConflict((oc) => oc.column('installation_id').doUpdateSet({ state: json, saved_at: at })).execute()
    },
    /** The newest battery state of charge measured in an installation, %, or null. */
    async lastBatterySoc(installationId: number): Promise<number | null> {
      const row = await db.selectFrom('measurements_15m as a').innerJoin('meters as m', 'm.id', 'a.meter_id').select('a.soc_last')
        .where('m.installation_id', '=', installationId).where('m.meter_type', '=', 'battery').where('a.soc_last', 'is not', null)
        .orderBy('a.bucket', 'desc').limit(1).executeTakeFirst()
      return row?.soc_last ?? null
    },
    async installationIds(): Promise<number[]> {
      return (await db.selectFrom('installations').select('id').orderBy('id').execute()).map((r) => r.id)
    },
    /**
     * kW drawn now by an installation's stations that report through a real OCPP charge point (not the
     * simulator's own, SIM_OCPP): their live power as the Power page shows it (charging_stations.power_kw,
     * set from MeterValues). The simulated facility carries it as load behind its main meter.
     */
    async externalLoadKw(installationId: number): Promise<number> {
      const row = await db.selectFrom('charging_stations as s').innerJoin('ocpp_charge_points as c', 'c.station_id', 's.id')
        .where('s.installation_id', '=', installationId).where('s.archived_at', 'is', null).where('c.simulated', '=', false)
        .select((eb) => eb.fn.sum<number>('s.power_kw').as('kw')).executeTakeFirst()
      return Math.max(0, Number(row?.kw ?? 0))
    },
    /**
     * An installation's equipment as the simulator runs it at `at` (default the clock's now): stations
     * bound to OCPP charge points are left out, cards learned less than about 3 minutes before `at` too;
     * so are archived meters and stations, and meters whose source is not the simulator.
     */
    async equipment(installationId: number, at: Date = clock.now()): Promise<Equipment> {
      const [installation, meters, objects, stations, rfids, timers, load] = await Promise.all([
        db.selectFrom('installations').select(['id', 'timezone', 'latitude', 'longitude']).where('id', '=', installationId).executeTakeFirstOrThrow(),
        // Only meters the simulator feeds: others wait for their device's readings (migration 0170).
        db.selectFrom('meters').select(['id', 'meter_type', 'object_id', 'capacity']).where('installation_id', '=', installationId)
          .where('source', '=', 'simulator').where('archived_at', 'is', null).orderBy('id').execute(),
        db.selectFrom('objects').select(['id', 'object_type']).where('installation_id', '=', installationId).where('object_type', '=', 'apartment').orderBy('id').execute(),
        // Stations bound to an OCPP charge point report for themselves: the simulator leaves them
        // out, unless the charge point is its own (SIM_OCPP).
        db.selectFrom('charging_stations').leftJoin('load_limits as l', 'l.station_id', 'charging_stations.id')
          .select(['charging_stations.id', 'meter_id', 'capacity_kw', 'phases', 'charging_mode', 'status', 'current_session_id', 'l.limit_a'])
          .where('charging_stations.installation_id', '=', installationId).where('archived_at', 'is', null)
          .where((eb) => eb.not(eb.exists(eb.selectFrom('ocpp_charge_points as c').select('c.id').whereRef('c.station_id', '=', 'charging_stations.id').where('c.simulated', '=', false)))).orderBy('charging_stations.id').execute(),
        // A learned card works only from its ready_at on (SPEC §9: about 3 minutes).
        db.selectFrom('rfids').select(['id', 'user_id', 'all_stations', 'tag']).where('installation_id', '=', installationId).where('active', '=', true)
          .where((eb) => eb.or([eb('ready_at', 'is', null), eb('ready_at', '<=', at)])).orderBy('id').execute(),
        db.selectFrom('timers').selectAll().where('installation_id', '=', installationId).where('object_type', '=', 'charging_station').execute(),
        db.selectFrom('load_management').select(['enabled', 'peak_shaving', 'battery_command']).where('installation_id', '=', installationId).executeTakeFirst(),
      ])
      const command = load?.enabled && load.peak_shaving ? (load.battery_command as { peak_kw: number; at: string } | null) : null
      const fresh = command && at.getTime() - Date.parse(command.at) <= BATTERY_COMMAND_MAX_AGE_MS
      return {
        installation,
        meters,
        apartments: objects.map((o) => o.id),
        stations,
        rfids: await withStations(rfids),
        timers: timers.map((t) => ({
          object_id: t.object_id,
          days: [t.repeat_monday, t.repeat_tuesday, t.repeat_wednesday, t.repeat_thursday, t.repeat_friday, t.repeat_saturday, t.repeat_sunday],
          start_time: t.start_time,
          charging_mode: t.charging_mode,
        })),
        ...(fresh ? { battery_command: { peak_kw: command.peak_kw } } : {}),
      }
    },
  }
}
export type DeviceService = ReturnType<typeof createDeviceService>
