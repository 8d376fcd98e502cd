import { isHighTariff, minutesOf, type ScheduleEntry } from '../../../shared/rules/tariff.ts'
import { localParts } from '../../../shared/rules/formats.ts'

/** Mains voltage and phases a station's capacity is converted with: 11 kW → 15.9 A per phase. */
const VOLTS = 230
const PHASES = 3
/** IEC 61851: below 6 A a car does not charge; a lower limit is sent as 0. */
export const MIN_AMPS = 6
const WEEK_MINUTES = 7 * 1440
const STEP = 15

/** Per-phase current (A, one decimal, rounded down) for `kw` at 3 × 230 V. */
export function ampsOf(kw: number): number {
  return Math.max(0, Math.floor((kw * 1000 * 10) / (VOLTS * PHASES)) / 10)
}

/** A surplus (kW) as a charging limit: its current, or 0 below {@link MIN_AMPS}; never above `maxAmps`. */
export function surplusAmps(surplusKw: number, maxAmps: number): number {
  const a = Math.min(maxAmps, ampsOf(surplusKw))
  return a < MIN_AMPS ? 0 : a
}

/** OCPP 1.6 SetChargingProfile.req (§7.48, §7.7 ChargingProfile) for the bound connector. */
export interface SetChargingProfile {
  connectorId: number
  csChargingProfiles: {
    chargingProfileId: number
    stackLevel: number
    chargingProfilePurpose: 'TxDefaultProfile'
    chargingProfileKind: 'Absolute' | 'Recurring'
    recurrencyKind?: 'Weekly'
    chargingSchedule: { duration?: number; startSchedule?: string; chargingRateUnit: 'A'; chargingSchedulePeriod: { startPeriod: number; limit: number }[] }
  }
}

/** What a mode's profile is built from: the station, the tariff schedule, the station's timers and the current PV surplus. */
export interface ProfileInput {
  connectorId: number
  capacityKw: number
  mode: string
  tz: string
  now: Date
  /** High-tariff schedule in force (null: no tariff or flat: all low). */
  highSchedule: ScheduleEntry[] | null
  timers: { days: boolean[]; start_time: string; charging_mode: string }[]
  /** PV surplus available to the station, kW (solar). */
  surplusKw: number
}

/** The profile id Cockpit uses for its TxDefaultProfile: one profile per connector, replaced on each change. */
export const PROFILE_ID = 1

/**
 * The TxDefaultProfile for a charging mode (SPEC §4 modes): locked → 0 A; instant and rfid →
 * the station's full current; solar → the PV surplus now (re-sent every minute as it moves); optimized →
 * a weekly schedule, full current in low tariff and 0 A in high tariff; timer → a weekly schedule that
 * follows the stored timers (each timer's mode from its start until the next one: instant/rfid/optimized
 * full, solar and locked 0 A, since a schedule cannot follow the sun). Weekly schedules start at the
 * local Monday 00:00 of `now`, in 15-minute steps.
 */
export function chargingProfile(p: ProfileInput): SetChargingProfile {
  const full = ampsOf(p.capacityKw)
  const absolute = (limit: number): SetChargingProfile => ({
    connectorId: p.connectorId,
    csChargingProfiles: { chargingProfileId: PROFILE_ID, stackLevel: 0, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute', chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit }] } },
  })
  const weekly = (limitAt: (weekday: number, minute: number) => number): SetChargingProfile => {
    const periods: { startPeriod: number; limit: number }[] = []
    for (let m = 0; m < WEEK_MINUTES; m += STEP) {
      const limit = limitAt(Math.floor(m / 1440), m % 1440)
      if (!periods.length || periods[periods.length - 1].limit !== limit) periods.push({ startPeriod: m * 60, limit })
    }
    const local = localParts(p.now, p.tz)
    const monday = new Date(Math.floor(p.now.getTime() / 60_000) * 60_000 - (local.weekday * 1440 + local.minute) * 60_000)
    return {
      connectorId: p.connectorId,
      csChargingProfiles: {
        chargingProfileId: PROFILE_ID, stackLevel: 0, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Recurring', recurrencyKind: 'Weekly',
        chargingSchedule: { duration: WEEK_MINUTES * 60, startSchedule: monday.toISOString(), chargingRateUnit: 'A', chargingSchedulePeriod: periods },
      },
    }
  }
  const modeLimit = (mode: string) => (mode === 'locked' || mode === 'solar' ? 0 : full)
  switch (p.mode) {
    case 'locked':
      return absolute(0)
    case 'solar':
      return absolute(surplusAmps(p.surplusKw, full))
    case 'optimized':
      return weekly((d, m) => (p.highSchedule && isHighTariff(p.highSchedule, d, m) ? 0 : full))
    case 'timer': {
      const starts = p.timers.flatMap((t) => t.days.flatMap((on, d) => (on ? [{ at: d * 1440 + minutesOf(t.start_time), mode: t.charging_mode }] : [])))
      if (!starts.length) return weekly((d, m) => (p.highSchedule && isHighTariff(p.highSchedule, d, m) ? 0 : full))
      return weekly((d, m) => {
        const now = d * 1440 + m
        // The timer that started most recently, going back over the week's end.
        let best = starts[0]
        let bestAgo = Infinity
        for (const s of starts) {
          const ago = (now - s.at + WEEK_MINUTES) % WEEK_MINUTES
          if (ago < bestAgo) {
            bestAgo = ago
            best = s
          }
        }
        return modeLimit(best.mode)
      })
    }
    default:
      return absolute(full)
  }
}
