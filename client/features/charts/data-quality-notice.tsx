import { useTranslation } from 'react-i18next'
import type { PeriodDataQuality } from '../../../shared/schemas/statistics.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Notice } from '../../components/ui.tsx'

/** At most this many gaps and flagged readings are listed one by one; the rest are counted. */
const SHOWN = 5

/**
 * Where the chart's meters sent no readings or had readings set aside over the period (GET
 * /api/statistics data_quality, SPEC §2): each gap with its meter and times, each flagged reading with
 * its reason (in the UI language, as the API gives it), so a period without data is not read as measured 0.
 * Nothing when the period is complete.
 */
export function DataQualityNotice({ quality, f }: { quality: PeriodDataQuality | undefined; f: Pick<Formats, 'dateTime'> }) {
  const { t } = useTranslation('charts')
  if (!quality || (!quality.gaps.length && !quality.flagged.length)) return null
  const more = (n: number) => (n > SHOWN ? <li>{t('dataQuality.more', { count: n - SHOWN })}</li> : null)
  return (
    <Notice tone="warning" role="note" title={t('dataQuality.title')}>
      {quality.gaps.length ? (
        <>
          <p>{t('dataQuality.gapsHint')}</p>
          <ul className="mt-1 list-inside list-disc" aria-label={t('dataQuality.gaps')}>
            {quality.gaps.slice(0, SHOWN).map((g) => (
              <li key={`${g.meter_id}-${g.start}`}>{t('dataQuality.gap', { meter: g.meter_name, from: f.dateTime(g.start), to: f.dateTime(g.end) })}</li>
            ))}
            {more(quality.gaps.length)}
          </ul>
        </>
      ) : null}
      {quality.flagged.length ? (
        <ul className="mt-1 list-inside list-disc" aria-label={t('dataQuality.flaggedList')}>
          {quality.flagged.slice(0, SHOWN).map((x) => (
            <li key={`${x.meter_id}-${x.timestamp}-${x.measurand}`}>{t('dataQuality.flagged', { meter: x.meter_name, date: f.dateTime(x.timestamp), reason: x.reason })}</li>
          ))}
          {more(quality.flagged.length)}
        </ul>
      ) : null}
    </Notice>
  )
}
