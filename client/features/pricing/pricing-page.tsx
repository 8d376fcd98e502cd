import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { WEEKDAYS } from '../../../shared/rules/tariff.ts'
import { ApiError } from '../../api/errors.ts'
import { Card, Loading, Notice, ScrollArea, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { localDate } from '../../../shared/rules/granularity.ts'
import { fetchPricing, fetchTariffVersions, pricingKeys, tariffSaved, type Pricing } from './api.ts'
import { daySpans, hhmm, type Span } from './schedule.ts'
import { TariffForm } from './tariff-form.tsx'
import { OperatorCard } from './operator-card.tsx'
import { ZevCard } from './zev-card.tsx'
import { session } from '../../session/session.ts'
import { useRights } from '../../app/use-rights.ts'
import { clientDate } from '../../api/clock.ts'

/**
 * Pricing (SPEC §2): basic, high, low and flat tariff, the validity period and the weekday
 * schedule, where low tariff is the complement of high tariff; "Pricing is not found" when the
 * installation has no tariff in force. Every version is listed; admins add a version
 * from a day after today or change the upcoming one.
 */
/** The calendar day after "YYYY-MM-DD". */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

export default function PricingPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('pricing')
  useDocumentTitle(t('title'))
  const f = useFormats(installation.timezone)
  const queryClient = useQueryClient()
  const pricingQuery = useQuery({ queryKey: pricingKeys.current(installation.id), queryFn: ({ signal }) => fetchPricing(installation.id, signal) })
  // The version list is extra: without it the page still shows the tariff in force.
  const versionsQuery = useQuery({ queryKey: pricingKeys.versions(installation.id), queryFn: ({ signal }) => fetchTariffVersions(installation.id, signal) })
  const versions = versionsQuery.data ?? []
  // "Pricing is not found" (404) is an answer: shown as information, not as a failure to retry.
  const missing = pricingQuery.error instanceof ApiError && pricingQuery.error.status === 404
  const pricing = missing ? null : (pricingQuery.data ?? null)
  const failed = !pricing && !missing && pricingQuery.isError && !pricingQuery.isFetching
  const [editing, setEditing] = useState(false)
  const [saved, setSaved] = useState<Pricing | null>(null)
  const isAdmin = useRights(installation).rights?.managePricing ?? false
  const tomorrow = nextDay(localDate(clientDate(), installation.timezone))

  // Versions come newest first: the next one to start is the last that has not started.
  const upcoming = versions.filter((v) => v.editable).at(-1) ?? null

  const perKwh = (v: number) => f.unit(v, 'CHF/kWh', 4)
  const spans = (list: Span[]) => (list.length ? list.map(([s, e]) => `${hhmm(s)}–${hhmm(e)}`).join(', ') : t('none'))
  const day = (d: string) => f.date(`${d}T12:00:00Z`)
  // A phone has the unit in the column heading, so that both prices fit beside the name.
  const price = (v: number) => (
    <>
      <span className="sm:hidden">{f.number(v, 4)}</span>
      <span className="hidden sm:inline">{perKwh(v)}</span>
    </>
  )
  const validity = (v: Pricing) => `${day(v.valid_from)} – ${v.valid_to ? day(v.valid_to) : t('open')}`
  const state = (v: Pricing) => t(v.editable ? 'state.upcoming' : v.id === pricing?.id ? 'state.inForce' : 'state.ended')

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        {isAdmin && !editing ? (
          <button type="button" onClick={() => { setSaved(null); setEditing(true) }} className="min-h-11 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
            {upcoming ? t('editUpcoming') : t('newVersion')}
          </button>
        ) : null}
      </div>
      {saved ? <Notice tone="info" role="status">{t('savedNotice', { date: f.date(`${saved.valid_from}T12:00:00Z`) })}</Notice> : null}
      {editing ? (
        <TariffForm
          installationId={installation.id}
          from={upcoming ?? pricing}
          tomorrow={tomorrow}
          onSaved={(p) => { setSaved(p); setEditing(false); void tariffSaved(queryClient, installation.id) }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
      {missing ? (
        <Notice tone="info" role="status">
          {t('notFound')}
        </Notice>
      ) : failed ? (
        <QueryProblem error={pricingQuery.error} onRetry={pricingQuery.refetch} />
      ) : !pricing ? (
        <Loading label={t('loading')} />
      ) : (
        <>
          <Card titleId="pricing-tariffs" title={pricing.name}>
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              {[
                ['basic', f.unit(pricing.basic_tariff, `CHF/${t('month')}`)],
                ['high', perKwh(pricing.high_tariff)],
                ['low', perKwh(pricing.low_tariff)],
                ['flat', pricing.flat_tariff == null ? t('none') : perKwh(pricing.flat_tariff) + (pricing.flat ? ` (${t('flatActive')})` : '')],
              ].map(([k, v]) => (
                <div key={k} className="rounded-xl bg-slate-50 p-3">
                  <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{t(`tariff.${k}`)}</dt>
                  <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{v}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 text-sm text-slate-600">
              {t('validity')}: {day(pricing.valid_from)} – {pricing.valid_to ? day(pricing.valid_to) : t('open')}
            </p>
          </Card>
          <Card titleId="pricing-schedule" title={t('schedule')}>
            <ScrollArea labelledBy="pricing-schedule">
              <table className="w-full text-left text-sm">
                <thead>
                  <tr>
                    <th scope="col" className="py-1 pr-3 font-medium">{t('weekday')}</th>
                    <th scope="col" className="py-1 pr-3 font-medium">{t('tariff.high')}</th>
                    <th scope="col" className="py-1 pr-3 font-medium">{t('tariff.low')}</th>
                    <th scope="col" className="hidden py-1 font-medium sm:table-cell">
                      <span className="sr-only">{t('dayBar')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {WEEKDAYS.map((d, i) => {
                    const s = daySpans(pricing.schedule, i)
                    return (
                      <tr key={d} className="border-t border-slate-100">
                        <th scope="row" className="py-1.5 pr-3 font-normal">{t(`weekdays.${d}`)}</th>
                        <td className="py-1.5 pr-3 tabular-nums">{spans(s.high)}</td>
                        <td className="py-1.5 pr-3 tabular-nums">{spans(s.low)}</td>
                        <td className="hidden w-1/3 py-1.5 sm:table-cell" aria-hidden="true">
                          <div className="relative h-3 rounded bg-sky-100">
                            {s.high.map(([a, b]) => (
                              <div key={a} className="absolute top-0 h-3 rounded bg-amber-400" style={{ left: `${(a / 1440) * 100}%`, width: `${((b - a) / 1440) * 100}%` }} />
                            ))}
                          </div>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </ScrollArea>
          </Card>
        </>
      )}
      {isAdmin ? (
        <OperatorCard
          installation={installation}
          onSaved={(saved) => {
            // Keep the session's copy current, so the card shows the saved operator after navigating away and back.
            if (session.installations) session.installations = session.installations.map((i) => (i.id === saved.id ? { ...i, operator: saved.operator } : i))
          }}
        />
      ) : null}
      {isAdmin ? <ZevCard installationId={installation.id} /> : null}
      {versions.length ? (
        <Card titleId="pricing-versions" title={t('versions')}>
          <ScrollArea labelledBy="pricing-versions">
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">{t('versionName')}</th>
                  <th scope="col" className="hidden py-1 pr-3 font-medium sm:table-cell">{t('validity')}</th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium sm:text-left">
                    {t('tariff.high')}
                    <span className="block text-xs font-normal sm:hidden">CHF/kWh</span>
                  </th>
                  <th scope="col" className="py-1 text-right font-medium sm:pr-3 sm:text-left">
                    {t('tariff.low')}
                    <span className="block text-xs font-normal sm:hidden">CHF/kWh</span>
                  </th>
                  <th scope="col" className="hidden py-1 font-medium sm:table-cell">{t('versionState')}</th>
                </tr>
              </thead>
              <tbody>
                {versions.map((v) => (
                  <tr key={v.id} className="border-t border-slate-100">
                    <th scope="row" className="py-1.5 pr-3 font-normal">
                      {v.name}
                      {/* A phone shows validity and state here, so that both prices stay on screen. */}
                      <span className="block text-xs text-slate-500 sm:hidden">{validity(v)} · {state(v)}</span>
                    </th>
                    <td className="hidden whitespace-nowrap py-1.5 pr-3 tabular-nums sm:table-cell">{validity(v)}</td>
                    <td className="whitespace-nowrap py-1.5 pr-3 text-right tabular-nums sm:text-left">{price(v.high_tariff)}</td>
                    <td className="whitespace-nowrap py-1.5 text-right tabular-nums sm:pr-3 sm:text-left">{price(v.low_tariff)}</td>
                    <td className="hidden py-1.5 sm:table-cell">{state(v)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollArea>
        </Card>
      ) : null}
    </div>
  )
}
