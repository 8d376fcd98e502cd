import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import type { Job } from '../jobs/runner.ts'
import type { DisplayReason } from '../lib/reasons.ts'
import { effectiveGridLimitA, maxCurrentA } from '../domain/load/settings.ts'
import { MIN_CURRENT_A } from '../../shared/schemas/load-management.ts'
import { localParts } from '../../shared/rules/formats.ts'
import { allocate, type AllocationState, type Circuit, type ReasonCode, type StationDemand, type StationLimit } from './allocate.ts'
import { allocationMode, nextLowTariff, timerModeAt } from './modes.ts'
import { createOcppLimits, safeShareA, type BoundCharger, type SentProfile } from './ocpp-limits.ts'
import { LOAD_STATUS, loadStatus, loadAlerts } from './status.ts'
import { activePlans, planMaxKw, planRound, planSteps, savePlan } from './plans.ts'
import { DEFAULT_BATTERY_KW, peakShaving } from './peak.ts'
import { VOLTS } from './circuits.ts'

/** Every allocator reason has a sentence (server/lib/reasons.ts): a new code without one fails to compile. */
const REASONS_COVERED: ReasonCode extends DisplayReason ? true : never = true
void REASONS_COVERED

/** How often the controller runs, clock seconds (at least every 10 s). */
export const CONTROL_INTERVAL_S = 10
/** A grid or battery reading older than this is no reading (the controller falls back to static shares). */
export const READING_MAX_AGE_MS = 60_000
/** The id of the grid connection in the allocator's circuit tree (admins' ids start with a letter or digit). */
export const CONNECTION = '_connection'
/** Phases of a grid connection (its kW ↔ A per phase at 3 × 230 V). */
const GRID_PHASES = 3

interface StationRow {
  id: number
  name: string
  capacity_kw: number
  phases: number
  charging_mode: string
  status: string | null
  power_kw: number
  load_circuit_id: string | null
  cp_id: string | null
  connector_id: number | null
  connected: boolean | null
  last_boot_at: Date | null
  current_session_id: number | null
}

/**
 * The load controller (ARCHITECTURE §1 "control", docs/decisions.md "Load management: model, controller
 * and reasons"): every {@link CONTROL_INTERVAL_S} s of the one clock, for each installation with load
 * management, it reads the grid meter (the building's own load included), the battery, the stations'
 * modes and draw, asks the allocator (server/control/allocate.ts) for a limit per station, and applies
 * them: to OCPP charge points as SetChargingProfile (server/control/ocpp-limits.ts), to simulated stations
 * through `load_limits` (the simulator obeys it). Each station's reason, SPEC §4 load-management status
 * code and alerts go to `load_limits`; a changed limit of a station with a car is journaled
 * (`load_limit:<A>:<reason>`). Switched off, stations are released (status code 24).
 */
export function createLoadController({ domain, log }: { domain: Domain; log: FastifyBaseLogger }) {
  const db = domain.db
  const clock = domain.clock
  const ocppLimits = createOcppLimits(domain)

  /**
   * The newest reading of the installation's live meter of `type` within {@link READING_MAX_AGE_MS}: its
   * power (kW; the grid's: the highest of the control interval up to it), state of charge (%, batteries)
   * and the meter's maximum power (kW); null: none.
   */
  async function reading(installationId: number, type: 'main_power' | 'battery', at: Date): Promise<{ kw: number; soc: number | null; max_kw: number | null } | null> {
    const r = await db.selectFrom('measurements as m').innerJoin('meters as mt', 'mt.id', 'm.meter_id').select(['m.meter_id', 'm.ts', 'm.power_kw', 'm.soc', 'mt.max_power_kw'])
      .where('mt.installation_id', '=', installationId).where('mt.meter_type', '=', type).where('mt.archived_at', 'is', null)
      .where('m.ts', '>=', new Date(at.getTime() - READING_MAX_AGE_MS)).where('m.ts', '<=', at)
      .orderBy('m.ts', 'desc').limit(1).executeTakeFirst()
    if (!r || type !== 'main_power') return r ? { kw: r.power_kw, soc: r.soc, max_kw: r.max_power_kw } : null
    // The grid: the highest import of the last control interval, so a load that came and went between two
    // rounds still counts (docs/performance.md "Load management: a weekday").
    const peak = await db.selectFrom('measurements').select((eb) => eb.fn.max('power_kw').as('kw')).where('meter_id', '=', r.meter_id)
      .where('ts', '>', new Date(new Date(r.ts).getTime() - CONTROL_INTERVAL_S * 1000)).where('ts', '<=', r.ts).executeTakeFirst()
    return { kw: Math.max(r.power_kw, Number(peak?.kw ?? r.power_kw)), soc: r.soc, max_kw: r.max_power_kw }
  }

  async function stationsOf(installationId: number): Promise<StationRow[]> {
    return db.selectFrom('charging_stations as s').leftJoin('ocpp_charge_points as c', 'c.station_id', 's.id')
      .select(['s.id', 's.name', 's.capacity_kw', 's.phases', 's.charging_mode', 's.status', 's.power_kw', 's.load_circuit_id', 'c.id as cp_id', 'c.connector_id', 'c.connected', 'c.last_boot_at', 's.current_session_id'])
      .where('s.installation_id', '=', installationId).where('s.archived_at', 'is', null).orderBy('s.id').execute()
  }

  const charger = (s: StationRow): BoundCharger | null => (s.cp_id ? { id: s.cp_id, connectorId: s.connector_id ?? 1, connected: !!s.connected, lastBootAt: s.last_boot_at } : null)

  async function journal(installationId: number, s: StationRow, limitA: number | null, reason: string, at: Date): Promise<void> {
    await db.insertInto('journal_events').values({ installation_id: installationId, station_id: s.id, rfid_id: null, kind: 'journal_entry', charging_mode: s.charging_mode, at, detail: `load_limit:${limitA ?? 'none'}:${reason}` }).execute()
  }

  /** Switched off: every station released once (no limit, status code 24), OCPP profiles cleared. */
  async function release(installationId: number, at: Date): Promise<void> {
    const rows = new Map((await db.selectFrom('load_limits').select(['station_id', 'limit_a', 'reason', 'sent', 'failsafe']).where('installation_id', '=', installationId).execute()).map((r) => [r.station_id, r]))
    for (const s of await stationsOf(installationId)) {
      const row = rows.get(s.id)
      if (row?.reason === 'load_management_off') continue
      const cp = charger(s)
      if (cp && (row?.sent || row?.failsafe)) await ocppLimits.release(s.id, cp)
      if (row && row.limit_a !== null && s.status === 'charging') await journal(installationId, s, null, 'load_management_off', at)
      const values = { limit_a: null, reason: 'load_management_off', params: '{}', until: null, status_code: LOAD_STATUS.fuseInactive, alerts: '[]', sent: null, failsafe: null, updated_at: at }
      await db.insertInto('load_limits').values({ station_id: s.id, installation_id: installationId, ...values }).onConflict((oc) => oc.column('station_id').doUpdateSet(values)).execute()
    }
    // No battery command while switched off: the battery returns to its own operation.
    await db.updateTable('load_management').set({ battery_command: null }).where('installation_id', '=', installationId).where('battery_command', 'is not', null).execute()
  }

  async function runInstallation(installationId: number, at: Date): Promise<void> {
    const lm = await db.selectFrom('load_management').selectAll().where('installation_id', '=', installationId).executeTakeFirstOrThrow()
    const gridLimitA = effectiveGridLimitA(lm)
    if (!lm.enabled || gridLimitA === null) return release(installationId, at)
    const [inst, circuitRows, stations, previousRows, timerRows] = await Promise.all([
      db.selectFrom('installations').select('timezone').where('id', '=', installationId).executeTakeFirstOrThrow(),
      db.selectFrom('load_circuits').selectAll().where('installation_id', '=', installationId).execute(),
      stationsOf(installationId),
      db.selectFrom('load_limits').selectAll().where('installation_id', '=', installationId).execute(),
      db.selectFrom('timers').selectAll().where('installation_id', '=', installationId).where('object_type', '=', 'charging_station').execute(),
    ])
    const tz = inst.timezone
    const previous = new Map(previousRows.map((r) => [r.station_id, r]))
    const [grid, battery] = await Promise.all([reading(installationId, 'main_power', at), reading(installationId, 'battery', at)])
    const gridKw = grid?.kw ?? null
    const batteryKw = battery?.kw ?? null
    const tariff = await domain.tariffs.inForce(installationId, at, tz)
    const local = localParts(at, tz)
    const highTariff = !!tariff && tariff.flat == null && (await domain.tariffs.isHigh(installationId, at, tz))
    const lowFrom = highTariff && tariff ? nextLowTariff(tariff.schedule, at, tz) : null
    const timers = timerRows.map((t) => ({ object_id: t.object_id, days: [t.repeat_monday, t.repeat_tuesday, t.repeat_wednesday, t.repeat_thursday, t.repeat_friday, t.repeat_saturday, t.repeat_sunday], start_time: t.start_time, charging_mode: t.charging_mode }))

    // Peak shaving (server/control/peak.ts): the battery covers import above the peak; the cars may use
    // the peak plus what the battery can give, and the allocator sees the import without the battery.
    const connectionKw = (gridLimitA * GRID_PHASES * VOLTS) / 1000
    const peak = lm.peak_shaving && lm.peak_kw !== null
      ? peakShaving({ peak_kw: lm.peak_kw, grid_kw: gridKw, battery_kw: batteryKw, battery_soc: battery?.soc ?? null, battery_max_kw: battery ? (battery.max_kw ?? DEFAULT_BATTERY_KW) : null }, connectionKw)
      : null
    const peakBinds = !!peak && peak.cars_limit_kw < connectionKw
    const carsLimitA = peakBinds ? Math.floor((peak.cars_limit_kw * 1000 * 10) / (GRID_PHASES * VOLTS)) / 10 : gridLimitA
    // The circuit tree below the connection; a circuit whose parent is the connection hangs on CONNECTION.
    const circuits: Circuit[] = [{ id: CONNECTION, parent_id: null, limit_a: carsLimitA }, ...circuitRows.map((c) => ({ id: c.id, parent_id: c.parent_id ?? CONNECTION, limit_a: c.limit_a }))]
    const byId = new Map(circuits.map((c) => [c.id, c]))
    const names = new Map(circuitRows.map((c) => [c.id, c.name]))
    const pathOf = (circuitId: string): Circuit[] => {
      const out: Circuit[] = []
      for (let c = byId.get(circuitId); c && !out.includes(c); c = c.parent_id === null ? undefined : byId.get(c.parent_id)) out.push(c)
      return out
    }
    const circuitOf = (s: StationRow) => (s.load_circuit_id && byId.has(s.load_circuit_id) ? s.load_circuit_id : CONNECTION)
    const below = new Map<string, number>()
    for (const s of stations) for (const c of pathOf(circuitOf(s))) below.set(c.id, (below.get(c.id) ?? 0) + 1)

    const demands: StationDemand[] = []
    for (const s of stations) {
      const configured = s.charging_mode === 'timer' ? timerModeAt(timers, s.id, local.weekday, local.minute) : s.charging_mode
      const mode = allocationMode(configured)
      // A station that is off, faulted, offline or not connected has no car the controller can serve.
      const usable = mode && s.status !== 'off' && s.status !== 'failure' && s.status !== 'unknown' && s.status !== null && !(s.cp_id && !s.connected)
      demands.push({
        station_id: s.id, circuit_id: circuitOf(s), phases: s.phases === 1 ? 1 : 3, min_a: MIN_CURRENT_A, max_a: maxCurrentA(s.capacity_kw, s.phases),
        mode: mode ?? 'solar', charging: !!usable && (s.status === 'charging' || s.status === 'carPluggedIn'),
      })
    }
    // Solar power the cars may take: what goes out to the grid, and what the battery is charging with
    // (cars come before the home battery); negative while importing (see AllocationInput.pv_surplus_kw).
    const pvSurplusKw = gridKw === null ? 0 : -gridKw + Math.max(0, batteryKw ?? 0)
    // Charge plans (docs/decisions.md "Load management: charge plans"): solar, then low tariff, then grid.
    const previousState = (lm.state as AllocationState | null) ?? undefined
    const plans = await activePlans(db, installationId, stations, at, tz)
    const planned = []
    for (const d of demands) {
      const active = plans.get(d.station_id)
      if (!active || !d.charging) continue
      const maxKw = planMaxKw(d, pathOf(d.circuit_id), previousState?.building_a ?? 0)
      const steps = planSteps(at, active.deadline, tz, tariff && tariff.flat == null ? tariff.schedule : null, Math.max(0, pvSurplusKw))
      planned.push({ active, plan: planRound(d, active, at, maxKw, steps) })
    }
    const result = allocate({
      now: at.toISOString(), circuits, stations: demands, grid_import_kw: peak ? peak.import_without_battery_kw : gridKw,
      stations_power_kw: Object.fromEntries(stations.map((s) => [s.id, s.power_kw])), pv_surplus_kw: pvSurplusKw,
      previous: previousState,
      // Without a tariff, or with a flat one, optimized charges from the grid (SPEC §4: low tariff or solar).
      tariff: tariff && tariff.flat == null ? { low: !highTariff, ...(lowFrom ? { until: lowFrom.toISOString() } : {}) } : undefined,
    })
    const limits = new Map<number, StationLimit>(result.limits.map((l) => [l.station_id, l]))
    // The kW limit is a power peak too (SPEC §4 peakManagement) when it is the tighter one.
    const kwLimitHolds = lm.grid_limit_kw !== null && (lm.grid_limit_a === null || (lm.grid_limit_kw * 1000) / (GRID_PHASES * VOLTS) < lm.grid_limit_a)

    for (const s of stations) {
      const l = limits.get(s.id)
      if (!l) continue
      const demand = demands.find((d) => d.station_id === s.id)!
      const prev = previous.get(s.id)
      // Held by the connection while the peak is the tighter limit: the peak holds it.
      const reason: string = peakBinds && l.reason === 'grid_limit_shared' ? 'peak_shaving' : l.reason
      const until = l.until ? new Date(l.until) : null
      const params: Record<string, string | number> = {}
      if (l.shared_by !== undefined) params.cars = l.shared_by
      if (l.circuit_id !== undefined && l.circuit_id !== CONNECTION) params.circuit = names.get(l.circuit_id) ?? l.circuit_id
      if (l.missing_kw !== undefined) params.kw = l.missing_kw
      if (reason === 'peak_shaving') params.kw = lm.peak_kw!
      const prevLimit = prev && prev.reason !== 'load_management_off' ? prev.limit_a : null
      const cp = charger(s)
      const lastCommand = cp ? await db.selectFrom('ocpp_commands').select('status').where('charge_point_id', '=', cp.id).where('action', '=', 'SetChargingProfile').orderBy('id', 'desc').limit(1).executeTakeFirst() : undefined
      const statusCode = loadStatus({
        charging: demand.charging, limitA: l.limit_a, previousA: prevLimit, maxA: demand.max_a, reason, noReading: gridKw === null,
        inCircuit: circuitRows.length === 0 || s.load_circuit_id !== null, commandFailed: !!lastCommand && ['failed', 'Rejected', 'NotSupported'].includes(lastCommand.status),
      })
      const alerts = loadAlerts({ charging: demand.charging, limitA: l.limit_a, maxA: demand.max_a, reason, overload: gridKw !== null && gridKw > connectionKw, peak: kwLimitHolds || peakBinds, peakActing: !!peak?.acting })
      let sent = (prev?.sent as SentProfile | null | undefined) ?? null
      let failsafe = prev?.failsafe ?? null
      if (cp) {
        const safe = safeShareA(pathOf(circuitOf(s)).map((c) => ({ limit_a: c.limit_a, stations: below.get(c.id) ?? 1 })), demand.max_a)
        failsafe = await ocppLimits.failsafe(s.id, cp, safe, s.charging_mode, failsafe)
        sent = demand.charging ? await ocppLimits.limit(s.id, cp, l.limit_a, sent, at) : sent
      }
      if (prevLimit !== l.limit_a && demand.charging) await journal(installationId, s, l.limit_a, reason, at)
      const values = {
        limit_a: l.limit_a, reason, params: JSON.stringify(params), until, status_code: statusCode, alerts: JSON.stringify(alerts),
        sent: sent ? JSON.stringify(sent) : null, failsafe, updated_at: at,
      }
      await db.insertInto('load_limits').values({ station_id: s.id, installation_id: installationId, ...values }).onConflict((oc) => oc.column('station_id').doUpdateSet(values)).execute()
    }
    for (const p of planned) await savePlan(db, p.active, p.plan, at)
    const command = peak ? JSON.stringify({ peak_kw: lm.peak_kw, discharge_kw: peak.discharge_kw, at: at.toISOString() }) : null
    const wasActing = ((lm.battery_command as { discharge_kw?: number } | null)?.discharge_kw ?? 0) > 0
    if (peak && (peak.discharge_kw > 0) !== wasActing) log.info({ installation: installationId, discharge_kw: peak.discharge_kw, peak_kw: lm.peak_kw }, peak.discharge_kw > 0 ? 'peak shaving: battery discharging' : 'peak shaving: under the peak')
    await db.updateTable('load_management').set({ state: JSON.stringify(result.state), battery_command: command }).where('installation_id', '=', installationId).execute()
  }

  const controller = {
    /**
     * One control round at `at` (default the clock's now) over every installation with load-management
     * settings; an installation that fails is logged and its stations get status code 25 (configuration
     * error), the others go on.
     */
    async run(at: Date = clock.now()): Promise<void> {
      const ids = (await db.selectFrom('load_management').select('installation_id').orderBy('installation_id').execute()).map((r) => r.installation_id)
      for (const id of ids) {
        try {
          await runInstallation(id, at)
        } catch (err) {
          log.error({ err, installation: id }, 'load control failed')
          await db.updateTable('load_limits').set({ status_code: LOAD_STATUS.configError, updated_at: at }).where('installation_id', '=', id).execute().catch(() => undefined)
        }
      }
    },

    /** The controller as a job of the process (server/jobs/runner.ts): every {@link CONTROL_INTERVAL_S} s, once across processes. */
    job(): Job {
      return { name: 'load-control', schedule: { everySeconds: CONTROL_INTERVAL_S }, runAtStart: true, run: () => controller.run() }
    },
  }
  return controller
}
export type LoadController = ReturnType<typeof createLoadController>
