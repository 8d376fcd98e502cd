import dayjs from 'dayjs'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { MeasurementService } from './service.ts'
import { Forbidden } from '../../lib/errors.ts'
import type { Lang } from '../../lib/messages.ts'
import { projectEnergyReturn, projectMetrics } from '../../../shared/rules/visibility.ts'
import { startOfLocalDay } from '../../../shared/rules/formats.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { EnergyReturn } from '../../../shared/schemas/installation.ts'
import type { Clock } from '../../lib/clock.ts'
import type { MeterDataState } from '../../../shared/schemas/statistics.ts'
import { meterDataStates } from './coverage.ts'

const r2 = (x: number) => Math.round(x * 100) / 100

/**
 * The live power flow (GET /api/metrics/) and energy return, from the newest readings and today's
 * 15-minute aggregates. Building consumption is the balance: grid + PV − battery − charging stations.
 * e_sourced_today = grid import + PV production + battery discharge; consumption_today = building +
 * charging stations (kWh, installation-local day of `clock`'s now, ARCHITECTURE §1 "Time").
 */
export function createMetricsService({ db, clock, installations, measurements }: { db: Db; clock: Clock; installations: InstallationService; measurements: MeasurementService }) {
  return {
    async live(actor: Actor, installationId: number): Promise<Metrics> {
      const access = await installations.access(actor, installationId)
      const inst = await installations.describe(installationId)
      const [latest, stations, meters, today] = await Promise.all([
        measurements.latest(installationId),
        db.selectFrom('charging_stations').select(['id', 'power_kw']).where('installation_id', '=', installationId).where('archived_at', 'is', null).orderBy('id').execute(),
        db.selectFrom('meters').select(['meter_type', 'capacity']).where('installation_id', '=', installationId).where('meter_type', 'in', ['pv', 'battery']).where('archived_at', 'is', null).execute(),
        measurements.totalsSince(installationId, startOfLocalDay(clock.now(), inst.timezone)),
      ])
      const sum = (type: string) => latest.filter((l) => l.meter_type === type).reduce((a, l) => a + l.power_kw, 0)
      const grid = sum('main_power')
      const pv = sum('pv')
      const battery = sum('battery')
      const soc = latest.find((l) => l.meter_type === 'battery')?.soc ?? 0
      const perStation: Record<string, number> = {}
      let charging = 0
      for (const s of stations) {
        perStation[s.id] = r2(s.power_kw)
        charging += s.power_kw
      }
      const building = Math.max(0, grid + pv - battery - charging)
      const t = (type: 'main_power' | 'pv' | 'battery' | 'charging_station' | 'cold_water' | 'hot_water') =>
        today.get(type) ?? { energy_in_kwh: 0, energy_out_kwh: 0, volume_m3: 0 }
      const sourced = t('main_power').energy_in_kwh + t('pv').energy_in_kwh + t('battery').energy_out_kwh
      const consumed = sourced - t('main_power').energy_out_kwh - t('battery').energy_in_kwh
      const newest = latest.reduce<Date | null>((a, l) => (!a || l.ts > a ? l.ts : a), null)
      const full: Metrics = {
        installation_id: installationId,
        timestamp: newest?.toISOString() ?? null,
        grid: { power_kw: r2(grid), import_kw: r2(Math.max(0, grid)), export_kw: r2(Math.max(0, -grid)) },
        pv: { power_kw: r2(pv), peak_kw: meters.find((m) => m.meter_type === 'pv')?.capacity ?? 0 },
        battery: { power_kw: r2(battery), soc: r2(soc), capacity_kwh: meters.find((m) => m.meter_type === 'battery')?.capacity ?? 0 },
        building: { power_kw: r2(building) },
        charging_stations: { power_kw: r2(charging), stations: perStation },
        e_sourced_today: r2(sourced),
        consumption_today: r2(Math.max(0, consumed)),
        water: { today_m3: r2(t('cold_water').volume_m3 + t('hot_water').volume_m3) },
      }
      return projectMetrics(full, access)
    },

    /**
     * GET …/{id}/energy_return: PV energy exported to the grid today, this month, this year (kWh), with the
     * day each of the month and year figures counts from (`month_since`, `year_since`: the first day with
     * data when the records begin inside the period). Today, this month and this year are those of
     * `clock`'s now in the installation's zone (ARCHITECTURE §1 "Time"), not of the machine's clock.
     */
    async energyReturn(actor: Actor, installationId: number): Promise<EnergyReturn> {
      const access = await installations.access(actor, installationId)
      const inst = await installations.describe(installationId)
      const now = dayjs(clock.now()).tz(inst.timezone)
      const exported = async (since: Date) => (await measurements.totalsSince(installationId, since)).get('main_power')?.energy_out_kwh ?? 0
      const first = await db.selectFrom('measurements_15m as a').innerJoin('meters as mt', 'mt.id', 'a.meter_id')
        .where('mt.installation_id', '=', installationId).where('mt.meter_type', '=', 'main_power')
        .select((eb) => eb.fn.min('a.bucket').as('first')).executeTakeFirst()
      const firstDay = first?.first ? dayjs(first.first as unknown as string | Date).tz(inst.timezone).startOf('day') : null
      const since = (start: dayjs.Dayjs) => (firstDay && firstDay.isAfter(start) ? firstDay : start).format('YYYY-MM-DD')
      const [today_kwh, month_kwh, year_kwh] = await Promise.all([
        exported(now.startOf('day').toDate()),
        exported(now.startOf('month').toDate()),
        exported(now.startOf('year').toDate()),
      ])
      const full = { today_kwh: r2(today_kwh), month_kwh: r2(month_kwh), year_kwh: r2(year_kwh), month_since: since(now.startOf('month')), year_since: since(now.startOf('year')) }
      const shown = projectEnergyReturn(full, access)
      if (!shown) throw Forbidden()
      return shown
    },

    /**
     * GET …/{id}/meter_data: each live meter's data state (coverage.ts meterDataStates: source, newest
     * reading and its age, stale, data quality) for the Power page's meter tile (SPEC §2). Needs the
     * overview switch, as the main meters' figures do (SPEC §6): 403 without it, 404 for an unknown installation.
     */
    async meterData(actor: Actor, installationId: number, lang: Lang = 'en'): Promise<MeterDataState[]> {
      const access = await installations.access(actor, installationId)
      if (!access.overview) throw Forbidden()
      return meterDataStates(db, installationId, clock.ms(), lang)
    },
  }
}
export type MetricsService = ReturnType<typeof createMetricsService>
