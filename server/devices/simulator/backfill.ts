import type { Domain } from '../../domain/index.ts'
import type { Aggregate } from '../../domain/measurements/service.ts'
import { priceRappen } from '../../domain/sessions/service.ts'
import { bucketOf } from '../../domain/measurements/service.ts'
import { step, type SimState } from './physics.ts'

const BUCKET_S = 900

/**
 * Fill 15-minute aggregates and charging sessions from `from` to `to` (issue 2 §6: the last 30 days on
 * first start, or the gap since the last run), running the same physics in 15-minute steps from `state`.
 * A car whose session is still open (the server stopped during a charge) continues that session: its
 * energy is added and it ends when the car leaves (issue 12 §1). A car still plugged in at `to` keeps
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
  const lastYearPaid = new Date(to.getTime() - 7 * 86_400_000)
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
          const paid = end < lastYearPaid
          sessions.push({
            installation_id: installationId, station_id: o.stationId, rfid_id: s.rfid?.id ?? null, user_id: s.rfid?.user_id ?? null,
            start: s.start, end, high_kwh: s.high, low_kwh: s.low, price_rappen: priceRappen(s.high, s.low, tariff),
            status: paid ? 'paid' : 'unpaid', paid_on: paid ? new Date(end.getTime() + 86_400_000) : null,
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
  // Cars still plugged in at the end stay with the live loop, their session stored from their arrival on.
  for (const [stationId, s] of open) {
    const car = state.cars.get(stationId)
    if (s.sessionId || !car || car.sessionId) continue
    car.sessionId = await domain.sessions.start({ installationId, stationId, rfidId: s.rfid?.id ?? null, userId: s.rfid?.user_id ?? null, at: s.start })
    await domain.sessions.addSplit(car.sessionId, s.high, s.low, installationId, tz)
  }
  return { buckets, sessions: sessions.length }
}
