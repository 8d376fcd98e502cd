import type { Domain } from '../../domain/index.ts'
import type { Aggregate } from '../../domain/measurements/service.ts'
import { priceRappen } from '../../domain/sessions/service.ts'
import { bucketOf } from '../../domain/measurements/service.ts'
import { step, type SimState } from './physics.ts'
import { localParts } from '../../../shared/rules/formats.ts'

const BUCKET_S = 900

/**
 * The backfilled history is paid through the payment job itself (payments.chargeDue), run
 * at the times the job would have run: the quarter hour after each session of a user ended (the job
 * runs every 15 minutes) and the first quarter hour of every installation-local month in the window
 * (the monthly app fee). So fees, payment_charges rows and app fees exist as they would live, and
 * sessions without a user stay unpaid (no card to charge).
 */
async function replayPayments(domain: Domain, installationId: number, tz: string, from: Date, to: Date, sessions: { user_id: number | null; end: Date }[]): Promise<void> {
  const inst = await domain.db.selectFrom('installations').select('pay_enabled').where('id', '=', installationId).executeTakeFirst()
  if (!inst?.pay_enabled) return
  const quarter = BUCKET_S * 1000
  const times = new Set<number>([Math.ceil(from.getTime() / quarter) * quarter])
  for (const s of sessions) if (s.user_id != null) times.add(Math.ceil((s.end.getTime() + 1) / quarter) * quarter)
  for (let t = Math.ceil(from.getTime() / quarter) * quarter; t <= to.getTime(); t += quarter) {
    const local = localParts(new Date(t), tz)
    if (local.date.endsWith('-01') && local.minute < 15) times.add(t)
  }
  for (const t of [...times].filter((x) => x <= to.getTime()).sort((a, b) => a - b)) await domain.payments.chargeDue(new Date(t))
}

/**
 * Fill 15-minute aggregates and charging sessions from `from` to `to` (the last 30 days on
 * first start, or the gap since the last run), running the same physics in 15-minute steps from `state`.
 * A car whose session is still open (the server stopped during a charge) continues that session: its
 * energy is added and it ends when the car leaves. A car still plugged in at `to` keeps
 * its place in `state` for the live loop, with its session stored (opened at its arrival) so the live
 * loop continues it rather than starting another one.
 */
export async function backfill(domain: Domain, installationId: number, from: Date, to: Date, seed: number, state: SimState): Promise<{ buckets: number; sessions: number }> {
  const eq = await domain.devices.equipment(installationId)
  const tz = eq.installation.timezone
  const aggregates: Aggregate[] = []
  const sessions: Parameters<Domain['sessions']['insertFinished']>[0] = []
  const open = new Map<number, { start: Date; high: number; low: number; rfid: { id: number; user_id: number | null } | null; sessionId: number | null }>()
  for (const [stationId, car] of state.cars) {
    if (car?.sessionId && !car.refused) open.set(stationId, { start: car.visit.arrive, high: 0, low: 0, rfid: car.rfid, sessionId: car.sessionId })
  }
  let buckets = 0
  for (let b = bucketOf(from).getTime(); b + BUCKET_S * 1000 <= to.getTime(); b += BUCKET_S * 1000) {
    const bucket = new Date(b)
    const mid = new Date(b + (BUCKET_S * 1000) / 2)
    const highTariff = await domain.tariffs.isHigh(installationId, mid, tz)
    const r = step(eq, state, mid, BUCKET_S, { seed, highTariff, window: [bucket, new Date(b + BUCKET_S * 1000)] })
    buckets++
    for (const x of r.readings) {
      aggregates.push({ meter_id: x.meter_id, bucket, energy_in_kwh: x.energy_in_kwh, energy_out_kwh: x.energy_out_kwh, volume_m3: x.volume_m3, power_avg_kw: x.power_kw, soc_last: x.soc })
    }
    for (const o of r.stations) {
      if (o.departed) {
        const s = open.get(o.stationId)
        open.delete(o.stationId)
        if (s?.sessionId) await domain.sessions.finish(s.sessionId, o.departed.visit.depart)
        else if (s && s.high + s.low > 0.05) {
          const end = o.departed.visit.depart
          const tariff = await domain.tariffs.inForce(installationId, s.start, tz)
          sessions.push({
            installation_id: installationId, station_id: o.stationId, rfid_id: s.rfid?.id ?? null, user_id: s.rfid?.user_id ?? null,
            start: s.start, end, high_kwh: s.high, low_kwh: s.low, price_rappen: priceRappen(s.high, s.low, tariff),
          })
        }
      }
      if (o.car && !o.car.refused && !open.has(o.stationId)) open.set(o.stationId, { start: o.car.visit.arrive, high: 0, low: 0, rfid: o.car.rfid, sessionId: null })
      const s = open.get(o.stationId)
      if (s && o.energyKwh > 0) {
        if (s.sessionId) await domain.sessions.addEnergy(s.sessionId, o.energyKwh, mid, installationId, tz)
        else if (highTariff) s.high += o.energyKwh
        else s.low += o.energyKwh
      }
    }
  }
  await domain.measurements.recordAggregates(aggregates)
  await domain.sessions.insertFinished(sessions)
  await replayPayments(domain, installationId, tz, from, to, sessions)
  // Cars still plugged in at the end stay with the live loop, their session stored from their arrival on.
  for (const [stationId, s] of open) {
    const car = state.cars.get(stationId)
    if (s.sessionId || !car || car.sessionId) continue
    car.sessionId = await domain.sessions.start({ installationId, stationId, rfidId: s.rfid?.id ?? null, userId: s.rfid?.user_id ?? null, at: s.start })
    await domain.sessions.addSplit(car.sessionId, s.high, s.low, installationId, tz)
  }
  return { buckets, sessions: sessions.length }
}
