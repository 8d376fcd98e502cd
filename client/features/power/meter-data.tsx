import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import type { MeterDataState } from '../../../shared/schemas/statistics.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Badge, Card } from '../../components/ui.tsx'
import { fetchMeterData, powerKeys } from './api.ts'

/** How often the tile asks again (the relay does not carry meter states): a stale meter shows within a minute. */
const REFRESH_MS = 30_000
/** Meters whose power the flow above shows: always listed; the others only while stale or flagged. */
const FLOW_METERS: readonly string[] = ['main_power', 'pv', 'battery']

/** The meters the tile lists: the flow's meters, and any other meter whose data is stale or flagged. */
export function shownMeters(meters: readonly MeterDataState[]): MeterDataState[] {
  return meters.filter((m) => FLOW_METERS.includes(m.meter_type) || m.stale || m.data_quality.state === 'flagged')
}

/**
 * The Power page's meters (SPEC §2; §6 a meter's source, last reading and data-quality state): each with
 * its source and the age of its newest reading, "No current data" once it is older than 5 minutes (the
 * flow above then leaves its power out, it is not 0), "Data flagged" with the reason while a reading was
 * set aside in the last 24 hours.
 */
export function MeterDataList({ meters, f }: { meters: readonly MeterDataState[]; f: Pick<Formats, 'dateTime'> }) {
  const { t } = useTranslation('power')
  const age = (s: number) =>
    s < 60 ? t('meters.age.seconds', { count: s }) : s < 3600 ? t('meters.age.minutes', { count: Math.floor(s / 60) }) : s < 86_400 ? t('meters.age.hours', { count: Math.floor(s / 3600) }) : t('meters.age.days', { count: Math.floor(s / 86_400) })
  return (
    <ul className="divide-y divide-slate-100">
      {meters.map((m) => (
        <li key={m.id} aria-label={m.name} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2 text-sm">
          <div className="min-w-0">
            <p className="font-medium text-slate-900">{m.name}</p>
            <p className="text-xs text-slate-600">
              {t('meters.source', { source: t(`meters.sources.${m.source}`) })} · {m.age_s === null ? t('meters.noReading') : t('meters.lastReading', { age: age(m.age_s) })}
            </p>
            {m.data_quality.state === 'flagged' ? (
              <p className="mt-0.5 break-words text-xs text-amber-800">{t('meters.flaggedAt', { date: m.data_quality.at ? f.dateTime(m.data_quality.at) : '', reason: m.data_quality.reason ?? '' })}</p>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-1.5">
            {m.stale ? <Badge tone="red">{t('meters.stale')}</Badge> : <Badge tone="green">{t('meters.current')}</Badge>}
            {m.data_quality.state === 'flagged' ? <Badge tone="amber">{t('meters.flagged')}</Badge> : null}
          </div>
        </li>
      ))}
    </ul>
  )
}

/** The meters tile, read every 30 s from GET …/meter_data; shown to callers with the overview switch. */
export function MeterDataTile({ installationId, f }: { installationId: number; f: Formats }) {
  const { t } = useTranslation('power')
  const q = useQuery({ queryKey: powerKeys.meterData(installationId), queryFn: ({ signal }) => fetchMeterData(installationId, signal), refetchInterval: REFRESH_MS })
  const meters = q.data ? shownMeters(q.data) : []
  if (!meters.length) return null
  return (
    <Card titleId="meters-title" title={t('meters.title')}>
      <p className="mb-1 text-sm text-slate-600">{t('meters.intro')}</p>
      <MeterDataList meters={meters} f={f} />
    </Card>
  )
}
