import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Bucket } from './api.ts'

/**
 * The charts' figures as a table behind a "Table" disclosure (SPEC §2 Charts; the accessible
 * alternative to the bars and lines): one row per bucket of the longest series, one column per series.
 * A series without a bucket at that time (a state series where nothing was read) shows a dash, not 0.
 * Buckets in `incomplete` (their meters sent no readings for part of them, kinds.ts incompleteBuckets)
 * say so beside their time.
 */
export function SeriesTable({ series, label, bucketLabel, value, incomplete, className = 'text-sm' }: {
  series: Record<string, Bucket[]>
  label: (series: string) => string
  bucketLabel: (start: string) => string
  value: (series: string, v: number) => string
  incomplete?: ReadonlySet<string>
  className?: string
}) {
  const { t } = useTranslation('charts')
  const names = Object.keys(series)
  const { rows, byStart } = useMemo(() => ({
    rows: Object.values(series).reduce<Bucket[]>((a, b) => (b.length > a.length ? b : a), []),
    byStart: Object.fromEntries(Object.entries(series).map(([s, bs]) => [s, new Map(bs.map((b) => [b.start, b.value]))])),
  }), [series])
  return (
    <details className={className}>
      <summary className="cursor-pointer text-brand-700">{t('table')}</summary>
      <div className="mt-2 max-h-80 overflow-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">{t('bucket')}</th>
              {names.map((s) => (
                <th key={s} scope="col" className="py-1 pr-3 font-medium">{label(s)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.start} className="border-t border-slate-100">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {bucketLabel(b.start)}
                  {incomplete?.has(b.start) ? <span className="ml-2 text-xs font-medium text-amber-700">{t('dataQuality.incomplete')}</span> : null}
                </th>
                {names.map((s) => {
                  const x = byStart[s].get(b.start)
                  return <td key={s} className="py-1 pr-3 tabular-nums">{x !== undefined ? value(s, x) : '–'}</td>
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}
