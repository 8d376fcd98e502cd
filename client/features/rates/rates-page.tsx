import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { localDate } from '../../../shared/rules/granularity.ts'
import { errorMessage } from '../../api/errors.ts'
import { Badge, cx, Loading, Notice, useDocumentTitle, Outcome } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { deleteRate, listRates, RATE_FIELDS, rateKeys, ratesChanged, type Rate, type RateKind } from './api.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { RateForm } from './rate-form.tsx'
import { useRights } from '../../app/use-rights.ts'
import { clientDate } from '../../api/clock.ts'

const KINDS: RateKind[] = ['power', 'water', 'heat']

/**
 * Management → Rates: power, water and heat rates with their validity and prices; create,
 * edit (a started rate only by name, SPEC §4) and delete with confirmation (SPEC §5). Admins only change
 * them; users with the cost switch read them.
 */
export default function RatesPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('rates')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('title'))
  const f = useFormats(installation.timezone)
  const [kind, setKind] = useState<RateKind>('power')
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: rateKeys.list(installation.id, kind), queryFn: ({ signal }) => listRates(installation.id, kind, signal) })
  const rates = query.data ?? null
  // A failed delete; a failed read shows with its retry below.
  const [problem, setProblem] = useState<string | null>(null)
  const [editing, setEditing] = useState<Rate | 'new' | null>(null)
  const [confirming, setConfirming] = useState<number | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const today = localDate(clientDate(), installation.timezone)
  const manage = useRights(installation).rights?.manageRates ?? false

  // A save or delete changes the list of its own kind and the costs in the charts.
  const changed = () => ratesChanged(queryClient, installation.id, kind)

  async function remove(id: number) {
    setProblem(null)
    try {
      await deleteRate(installation.id, kind, id)
      setConfirming(null)
      setMessage(t('deleted'))
      void changed()
    } catch (err) {
      setProblem(errorMessage(err, tc))
    }
  }

  const unit = kind === 'water' ? 'CHF/m3' : 'CHF/kWh'
  const validity = (r: Rate) => `${r.start_date ? f.date(`${r.start_date}T12:00:00Z`) : t('noStart')} – ${r.end_date ? f.date(`${r.end_date}T12:00:00Z`) : t('open')}`

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      <div role="group" aria-label={t('kindLabel')} className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5">
        {KINDS.map((k) => (
          <button
            key={k}
            type="button"
            aria-pressed={kind === k}
            onClick={() => {
              setKind(k)
              setEditing(null)
              setProblem(null)
            }}
            className={cx('rounded-md px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500', kind === k ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100')}
          >
            {t(`kind.${k}`)}
          </button>
        ))}
      </div>
      <Outcome message={message} problem={problem} />
      {!manage ? (
        <Notice tone="info" role="note">
          {t('readOnly')}
        </Notice>
      ) : editing ? (
        <RateForm
          key={editing === 'new' ? `new-${kind}` : editing.id}
          installationId={installation.id}
          kind={kind}
          rate={editing === 'new' ? null : editing}
          today={today}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            setMessage(t('saved'))
            void changed()
          }}
        />
      ) : (
        <button type="button" onClick={() => (setMessage(null), setEditing('new'))} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {t('new')}
        </button>
      )}
      {rates === null ? query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={t('loading')} /> : null}
      {rates && rates.length === 0 ? <p className="text-sm text-slate-600">{t('empty')}</p> : null}
      <ul className="space-y-3">
        {(rates ?? []).map((r) => (
          <li key={r.id}>
            <article aria-labelledby={`rate-${r.id}`} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 id={`rate-${r.id}`} className="text-base font-semibold text-slate-900">
                  {r.name}
                </h2>
                <Badge tone={r.editable ? 'blue' : 'gray'}>{r.editable ? t('future') : t('started')}</Badge>
              </div>
              <p className="mt-1 text-sm text-slate-600">
                {t('validity')}: {validity(r)}
              </p>
              <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
                {RATE_FIELDS[kind].map((k) => (
                  <div key={k} className="flex justify-between gap-2 border-b border-slate-100 py-0.5">
                    <dt className="text-slate-600">{t(`price.${k}`)}</dt>
                    <dd className="tabular-nums">
                      {f.unit(r.prices[k] ?? 0, unit, 4)}
                    </dd>
                  </div>
                ))}
              </dl>
              {r.kind === 'power' && r.time_spans?.length ? (
                <p className="mt-2 text-sm text-slate-600">
                  {t('timeSpans')}: {r.time_spans.map((s) => `${s.start}–${s.end} (${s.repetition.map((d) => t(`weekdayShort.${d}`)).join(', ')})`).join('; ')}
                </p>
              ) : null}
              {manage ? (
                <div className="mt-3 flex flex-wrap gap-2">
                  <button type="button" aria-label={t('editNamed', { name: r.name })} onClick={() => (setMessage(null), setEditing(r))} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
                    {t('edit')}
                  </button>
                  {r.editable ? (
                    confirming === r.id ? (
                      <div role="alertdialog" aria-label={t('confirmDelete', { name: r.name })} className="flex flex-wrap items-center gap-2 text-sm">
                        <span>{t('confirmDelete', { name: r.name })}</span>
                        <button type="button" onClick={() => remove(r.id)} className="rounded-md bg-red-600 px-3 py-1.5 text-white hover:bg-red-700">
                          {t('delete')}
                        </button>
                        <button type="button" onClick={() => setConfirming(null)} className="rounded-md border border-slate-300 px-3 py-1.5">
                          {t('cancel')}
                        </button>
                      </div>
                    ) : (
                      <button type="button" aria-label={t('deleteNamed', { name: r.name })} onClick={() => setConfirming(r.id)} className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50">
                        {t('delete')}
                      </button>
                    )
                  ) : null}
                </div>
              ) : null}
            </article>
          </li>
        ))}
      </ul>
    </div>
  )
}
