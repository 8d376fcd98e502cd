import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../../domain/index.ts'
import { SIMULATOR } from '../../../config/defaults.ts'
import { bucketOf } from '../../domain/measurements/service.ts'
import { backfill } from './backfill.ts'
import { step, type SimState } from './physics.ts'
import { unknownBadge } from './learning.ts'
import { restoreState, saveState } from './state.ts'
import { createOwnership, type Ownership } from './ownership.ts'
import { createSimulatedMeters } from './readings.ts'
import type { SimOcppLink } from './ocpp-link.ts'
import type { ClockTimer } from '../../lib/clock.ts'

/** kW a station draws at `amps` per phase on `phases` phases of 230 V. */
const limitKw = (amps: number, phases: number) => (amps * phases * 230) / 1000

export interface Simulator {
  /** Backfill what is missing up to the clock's now, then step every `stepMs` of the clock's time. */
  start(): Promise<void>
  stop(): Promise<void>
  /** Run one step at `t` (tests drive the clock with this). */
  tick(t: Date): Promise<void>
  /**
   * Demo control: a guest car needing `energyKwh` (default 0: fully charged) plugs in at a station
   * from `at` (default the clock's now) for `minutes`, so learning mode or a charging session can be
   * shown at any hour. Without `rfidId` it presents no badge; with one it badges in with that
   * card (its owner's session, when the card is allowed at the station). Takes effect at the next step.
   */
  plugIn(installationId: number, stationId: number, minutes: number, at?: Date, energyKwh?: number, rfidId?: number): Promise<void>
  /**
   * Demo control: the guest car plugged in by `plugIn` at the station leaves at `at` (default the
   * clock's now); its session ends at the next step. False when no guest car is there.
   */
  unplug(installationId: number, stationId: number, at?: Date): Promise<boolean>
  /**
   * Demo control: cut or restore the simulated facility's connection. While cut its devices
   * neither step nor send heartbeats, and the installation is offline at once (since its last heartbeat);
   * restored, the next step's heartbeat brings it back and sends the changes that waited.
   */
  setConnected(installationId: number, online: boolean, at?: Date): Promise<void>
  /**
   * Resolves once no step is running (at once when none is). A step still at work when the clock
   * reaches the next one makes that one wait for the following multiple of stepMs (see `schedule`).
   */
  idle(): Promise<void>
}

/**
 * The facility simulator, the default source of live data. It writes through the domain
 * services a real device gateway would use: measurements, station state, charging sessions.
 * Deterministic for a seed and a clock: the same ticks give the same readings. Its "now" and its step
 * timer are `domain.clock`'s (ARCHITECTURE §1 "Time"): steps fall on multiples of `stepMs` of the
 * clock's time, so CLOCK_SPEED=60 runs the facility 60× faster and a test clock steps only when advanced.
 */
export function createSimulator({ domain, seed, log, stepMs = SIMULATOR.stepMs, backfillDays = SIMULATOR.backfillDays, ownership: givenOwnership, ocpp }: {
  domain: Domain
  seed: number
  log: FastifyBaseLogger
  stepMs?: number
  backfillDays?: number
  ownership?: Ownership
  /** SIM_OCPP: the stations report as OCPP charge points through this link instead of the domain. */
  ocpp?: SimOcppLink
}): Simulator {
  const states = new Map<number, SimState>()
  const lastTick = new Map<number, number>()
  const reported = new Map<number, string>()
  // The simulated meters' registers: readings go through the ingestion service like a real meter's.
  const simulatedMeters = createSimulatedMeters(domain)
  // The mode each timer-mode station followed at the last step, to journal the switches its timers make.
  const timerModes = new Map<number, string>()
  // Installations whose connection the demo control cut.
  const cut = new Set<number>()
  const clock = domain.clock
  // Without one given, this process is the only simulator (embedded database).
  const ownership = givenOwnership ?? createOwnership(undefined, { clock })
  let timer: ClockTimer | undefined
  let running: Promise<void> | null = null
  let stopped = false

  // The state is saved every step and resumed on start, so a restart neither splits a
  // charging session nor moves the battery; without a saved state the last measured SoC is used.
  async function stateOf(installationId: number): Promise<SimState> {
    let s = states.get(installationId)
    if (!s) {
      s = restoreState(await domain.devices.loadSimulatorState(installationId)) ?? { soc: (await domain.devices.lastBatterySoc(installationId)) ?? 50, cars: new Map() }
      states.set(installationId, s)
    }
    return s
  }

  async function tickInstallation(installationId: number, t: Date): Promise<void> {
    const eq = await domain.devices.equipment(installationId)
    const state = await stateOf(installationId)
    const prev = lastTick.get(installationId)
    const dt = prev ? Math.min(60, Math.max(1, (t.getTime() - prev) / 1000)) : stepMs / 1000
    lastTick.set(installationId, t.getTime())
    const tz = eq.installation.timezone
    const highTariff = await domain.tariffs.isHigh(installationId, t, tz)
    // Sessions left open by an earlier run whose car is not tracked any more are closed now; the ones whose
    // car is still in the saved state continue.
    if (prev === undefined) {
      const tracked = new Set([...state.cars.values()].map((c) => c?.sessionId).filter((id) => id != null))
      // Only sessions of stations the simulator runs: an OCPP charge point's session is its own.
      const simulated = new Set(eq.stations.map((s) => s.id))
      for (const open of await domain.sessions.open(installationId)) if (simulated.has(open.station_id) && !tracked.has(open.id)) await domain.sessions.finish(open.id, t)
    }
    // SIM_OCPP: stations whose charge point is connected obey its charging profile, and their meter
    // readings, sessions and states reach the portal through the central system, not from here.
    let viaOcpp = new Set<number>()
    if (ocpp) {
      await ocpp.ensure(eq.stations.map((s) => s.id))
      viaOcpp = new Set(eq.stations.filter((s) => ocpp.has(s.id)).map((s) => s.id))
      eq.stations = eq.stations.map((s) => {
        const limit = viaOcpp.has(s.id) ? ocpp.limitKw(s.id, t) : null
        return limit === null ? s : { ...s, capacity_kw: Math.min(s.capacity_kw, limit) }
      })
    }
    // The load controller's limit (A per phase) caps a station's power like a charging profile would.
    eq.stations = eq.stations.map((s) => (s.limit_a == null || viaOcpp.has(s.id) ? s : { ...s, capacity_kw: Math.min(s.capacity_kw, limitKw(s.limit_a, s.phases ?? 3)) }))
    const ocppMeters = new Set(eq.stations.filter((s) => viaOcpp.has(s.id)).map((s) => s.meter_id))
    // Real charge points behind the simulated main meter draw through it (docs/decisions.md "Simulator: real
    // chargers inside the simulated balance").
    const r = step(eq, state, t, dt, { seed, highTariff, externalKw: await domain.devices.externalLoadKw(installationId) })
    // Through the ingestion service, with the checks a real meter's readings get (SPEC §3 meter kinds).
    const sent = await domain.ingest.ingest(installationId, await simulatedMeters.readingsOf(eq, r.readings.filter((x) => !ocppMeters.has(x.meter_id)), t, dt), 'simulator')
    if (sent.rejected.length) log.warn({ installation: installationId, rejected: sent.rejected.slice(0, 5) }, 'simulated readings refused')
    const tagOf = (rfidId: number) => eq.rfids.find((c) => c.id === rfidId)?.tag
    for (const o of r.stations) {
      if (ocpp && viaOcpp.has(o.stationId)) {
        await ocpp.report(o, t, tagOf, new Date(t.getTime() - dt * 1000))
        continue
      }
      if (o.departed?.sessionId) await domain.sessions.finish(o.departed.sessionId, new Date(Math.min(t.getTime(), o.departed.visit.depart.getTime())))
      if (o.car && !o.car.refused && o.car.sessionId === null && o.status !== 'off') {
        o.car.sessionId = await domain.sessions.start({
          installationId, stationId: o.stationId, rfidId: o.car.rfid?.id ?? null, userId: o.car.rfid?.user_id ?? null, at: t,
          setByTimer: eq.stations.find((s) => s.id === o.stationId)?.charging_mode === 'timer',
        })
      }
      if (o.car?.sessionId && o.energyKwh > 0) await domain.sessions.addEnergy(o.car.sessionId, o.energyKwh, t, installationId, tz)
      const report = { status: o.status, status_code: o.statusCode, alerts: o.alerts, power_kw: o.powerKw, current_session_id: o.car?.sessionId ?? null }
      // Like a real gateway, report a station only when its state changed (its energy moves with the session).
      const key = JSON.stringify(report)
      if (reported.get(o.stationId) !== key) {
        reported.set(o.stationId, key)
        await domain.stations.reportState(o.stationId, report)
      }
    }
    for (const o of r.stations) {
      if (eq.stations.find((s) => s.id === o.stationId)?.charging_mode !== 'timer') {
        timerModes.delete(o.stationId)
        continue
      }
      const before = timerModes.get(o.stationId)
      timerModes.set(o.stationId, o.mode)
      if (before !== undefined && before !== o.mode) await domain.stations.recordTimerSwitch(o.stationId, o.mode, t)
    }
    // Learning mode: a car at a learning station presents an unknown card, which the station
    // keeps as the pending new RFID for an admin to register or ignore.
    for (const stationId of await domain.stations.learning(installationId)) {
      const out = r.stations.find((o) => o.stationId === stationId)
      if (out?.car && viaOcpp.has(stationId)) await ocpp!.presentTag(stationId, unknownBadge(seed, stationId, t))
      else if (out?.car) await domain.stations.reportLearnedTag(stationId, unknownBadge(seed, stationId, t), t)
    }
    await domain.devices.saveSimulatorState(installationId, saveState(state), t)
  }

  // An installation taken over from another process resumes from the state that process saved, not
  // from what this process may have cached when it owned it before.
  let lastOwned = new Set<number>()
  async function owned(): Promise<number[]> {
    const ids = await ownership.owned(await domain.devices.installationIds())
    if (ownership.sole) return ids
    for (const id of ids) {
      if (lastOwned.has(id)) continue
      states.delete(id)
      lastTick.delete(id)
      // Station reports are keyed by station: report them all again rather than trust an old copy.
      reported.clear()
    }
    lastOwned = new Set(ids)
    return ids
  }

  async function tick(t: Date): Promise<void> {
    for (const id of await owned()) {
      if (cut.has(id)) continue
      // The facility's devices report in before they step: changes that waited apply first.
      await domain.devices.heartbeat(id, t)
      await tickInstallation(id, t)
    }
  }

  async function catchUp(): Promise<void> {
    const now = clock.now()
    for (const id of await owned()) {
      const newest = await domain.measurements.newestBucket(id)
      const earliest = new Date(now.getTime() - backfillDays * 86_400_000)
      const from = newest && newest > earliest ? new Date(newest.getTime() + 15 * 60_000) : earliest
      // The current bucket fills from live readings; only whole buckets before it are backfilled.
      const to = bucketOf(now)
      if (to.getTime() - from.getTime() < 15 * 60_000) continue
      // How long the backfill took (a log figure, not a time of day).
      const started = performance.now()
      const state = await stateOf(id)
      const r = await backfill(domain, id, from, to, seed, state)
      await domain.devices.saveSimulatorState(id, saveState(state), to)
      log.info({ installation: id, buckets: r.buckets, sessions: r.sessions, ms: Math.round(performance.now() - started) }, 'simulator backfill done')
    }
  }

  function schedule(): void {
    if (stopped) return
    // Steps fall on the clock's multiples of stepMs (a clock timer: CLOCK_SPEED and test clocks apply).
    const wait = stepMs - (clock.ms() % stepMs)
    timer = clock.setTimeout(() => {
      running = tick(clock.now())
        .catch((err) => log.error({ err }, 'simulator step failed'))
        .finally(() => {
          running = null
          schedule()
        })
    }, wait)
  }

  return {
    tick,
    async plugIn(installationId, stationId, minutes, at = clock.now(), energyKwh = 0, rfidId) {
      const state = await stateOf(installationId)
      state.guests ??= new Map()
      const badge = rfidId === undefined ? { badge: 'none' as const } : { badge: 'resident' as const, rfidId }
      state.guests.set(stationId, { arrive: at, depart: new Date(at.getTime() + minutes * 60_000), energyNeededKwh: energyKwh, ...badge })
      // Saved at once: a process that (re)takes the installation over resumes from the stored state.
      await domain.devices.saveSimulatorState(installationId, saveState(state), clock.now())
    },
    async unplug(installationId, stationId, at = clock.now()) {
      const guest = (await stateOf(installationId)).guests?.get(stationId)
      if (!guest || guest.depart <= at) return false
      guest.depart = at < guest.arrive ? guest.arrive : at
      await domain.devices.saveSimulatorState(installationId, saveState(await stateOf(installationId)), clock.now())
      return true
    },
    async setConnected(installationId, online, at = clock.now()) {
      if (online) {
        cut.delete(installationId)
      } else {
        cut.add(installationId)
        await domain.devices.disconnect(installationId, at)
      }
    },
    async idle() {
      while (running) await running
    },
    async start() {
      stopped = false
      await catchUp()
      await tick(clock.now())
      schedule()
    },
    async stop() {
      stopped = true
      clock.clearTimeout(timer)
      await running
      await ocpp?.close()
      // Another process may take the installations over at once.
      await ownership.close()
      lastOwned = new Set()
    },
  }
}
