import { useTranslation } from 'react-i18next'
import { PERIODS, type Period } from '../../../shared/rules/granularity.ts'
import { cx } from '../../components/ui.tsx'

const focusRing = 'focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'

/**
 * The charts' period controls (SPEC §2 Charts): day/week/month/year as pressed buttons, previous and
 * next arrows that call `onStep(-1 | 1)`, and the period's label announced politely to screen readers
 * (`data-testid="period-label"`). Used by the facility charts and a meter's or flat's own charts.
 */
export function PeriodPicker({ period, label, onPeriod, onStep }: { period: Period; label: string; onPeriod: (p: Period) => void; onStep: (offset: -1 | 1) => void }) {
  const { t } = useTranslation('charts')
  const arrow = cx('rounded-md border border-slate-200 bg-white px-2.5 py-1.5 text-sm hover:bg-slate-100', focusRing)
  return (
    <>
      <div role="group" aria-label={t('period.label')} className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5">
        {PERIODS.map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={period === p}
            onClick={() => onPeriod(p)}
            className={cx('rounded-md px-3 py-1.5 text-sm font-medium', focusRing, period === p ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100')}
          >
            {t(`period.${p}`)}
          </button>
        ))}
      </div>
      <div className="inline-flex items-center gap-1">
        <button type="button" onClick={() => onStep(-1)} aria-label={t('previous')} className={arrow}>
          <span aria-hidden="true">‹</span>
        </button>
        <p aria-live="polite" className="min-w-[9rem] px-2 text-center text-sm font-medium text-slate-800" data-testid="period-label">
          {label}
        </p>
        <button type="button" onClick={() => onStep(1)} aria-label={t('next')} className={arrow}>
          <span aria-hidden="true">›</span>
        </button>
      </div>
    </>
  )
}
