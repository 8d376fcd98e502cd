import { CHARGER_TRUST } from '../../../config/defaults.ts'

/**
 * Why a session is held for an admin's review (docs/decisions.md "Charging: plausible charger figures and
 * debit ceilings"): energy or power beyond what the station can deliver, a meter register that went down,
 * or a price above the installation's debit ceilings (domain/payments).
 */
export const SESSION_HOLD_REASONS = ['energyImplausible', 'powerImplausible', 'registerBackwards', 'sessionCeiling', 'monthCeiling'] as const
export type SessionHoldReason = (typeof SESSION_HOLD_REASONS)[number]

/** What was corrected on a session without holding it: a charger clock replaced by the server's receive time. */
export const SESSION_FLAGS = ['clockCorrected', ...SESSION_HOLD_REASONS] as const
export type SessionFlag = (typeof SESSION_FLAGS)[number]

/**
 * The most energy a station of `capacityKw` can deliver in `ms`, kWh: capacity × duration × 1.1 + 0.1 kWh
 * (CHARGER_TRUST; the slack covers meter rounding and a transaction of a few seconds).
 */
export function maxEnergyKwh(capacityKw: number, ms: number): number {
  return capacityKw * (Math.max(0, ms) / 3_600_000) * CHARGER_TRUST.energyFactor + CHARGER_TRUST.energySlackKwh
}

/** Whether a power figure (kW) can come from a station of `capacityKw`: finite, at most capacity × 1.2. */
export function powerPlausible(capacityKw: number, kw: number): boolean {
  return Number.isFinite(kw) && kw <= capacityKw * CHARGER_TRUST.powerFactor
}

/** A transaction as the rules need it: its start, its first and last register (Wh) and the last register's time. */
export interface RegisterState {
  startedAt: Date
  meterStartWh: number
  lastWh: number
  lastAt: Date
}

/**
 * Judge an energy register `energyWh` read at `at` (OCPP 1.6 §7.43 SampledValue,
 * Energy.Active.Import.Register, and StopTransaction.req meterStop): `add` the kWh above the last register;
 * `stale` for a repeated value or an older sample arriving late (nothing to add); `registerBackwards` for a
 * register below the last one at a later time (a register never goes down); `energyImplausible` when the
 * transaction's energy would exceed {@link maxEnergyKwh} for its duration so far.
 */
export function judgeRegister(tx: RegisterState, capacityKw: number, energyWh: number, at: Date): { kind: 'add'; kwh: number } | { kind: 'stale' } | { kind: 'hold'; reason: SessionHoldReason } {
  if (!Number.isFinite(energyWh)) return { kind: 'hold', reason: 'energyImplausible' }
  if (energyWh === tx.lastWh) return { kind: 'stale' }
  if (energyWh < tx.lastWh) return at >= tx.lastAt ? { kind: 'hold', reason: 'registerBackwards' } : { kind: 'stale' }
  if ((energyWh - tx.meterStartWh) / 1000 > maxEnergyKwh(capacityKw, at.getTime() - tx.startedAt.getTime())) return { kind: 'hold', reason: 'energyImplausible' }
  return { kind: 'add', kwh: (energyWh - tx.lastWh) / 1000 }
}

/** The time between a charge point's last message before a reconnection and the reconnection. */
export interface OfflineGap {
  from: Date | null
  to: Date
}

/**
 * The time to store for a charger's timestamp `stamp` received at the server's `now` (OCPP 1.6 §4.2
 * Heartbeat: the central system's clock is the reference). Kept when within 15 minutes of `now`
 * (CHARGER_TRUST.clockToleranceMs), or when it lies in the charger's real offline `gap` (a transaction
 * queued while offline, OCPP 1.6 §3.5 "Offline behaviour"); otherwise — an unreadable date, a clock in 1970
 * or a day ahead — the server's receive time, `corrected`.
 */
export function chargerTime(stamp: string | Date, now: Date, gap: OfflineGap | null): { at: Date; corrected: boolean } {
  const t = new Date(stamp)
  const ms = t.getTime()
  if (Number.isFinite(ms)) {
    if (Math.abs(ms - now.getTime()) <= CHARGER_TRUST.clockToleranceMs) return { at: t, corrected: false }
    if (gap?.from && ms >= gap.from.getTime() && ms <= gap.to.getTime()) return { at: t, corrected: false }
  }
  return { at: now, corrected: true }
}
