import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import type { ZevRow } from '../../../shared/schemas/zev.ts'
import { Card, Notice, ScrollArea } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import type { ZevData } from './api.ts'

/**
 * The ZEV report on screen, the same figures as the PDF: the model and its cap (EnV Art. 16),
 * a warning when the period misses meter data, the participants in the server's stable order (flats,
 * building, stations billed per charging session) and a total row. CHF columns only under the cost switch.
 * A phone (below `sm`) gets one block per participant instead of the eight-column table, whose CHF
 * columns were 430 px off-screen at 360 px.
 */
export function ZevReport({ data, tz }: { data: ZevData; tz: string }) {
  const { t } = useTranslation('charts')
  const f = useFormats(tz)
  const { allocation: rows, zev: s } = data
  const money = s.total.cost_chf != null
  const name = (r: ZevRow) => (r.kind === 'building' ? t('zev.building') : r.kind === 'station' ? t('zev.sessions', { name: r.name }) : r.name)
  const cells = (r: ZevRow) => (
    <>
      <td className="py-1 pr-3 tabular-nums">{f.kwh(r.consumption_kwh)}</td>
      <td className="py-1 pr-3 tabular-nums">{f.kwh(r.pv_kwh)}</td>
      <td className="py-1 pr-3 tabular-nums">{f.kwh(r.battery_kwh)}</td>
      <td className="py-1 pr-3 tabular-nums">{f.kwh(r.grid_kwh)}</td>
      {money ? (
        <>
          <td className="py-1 pr-3 tabular-nums">{f.money(r.grid_chf ?? 0)}</td>
          <td className="py-1 pr-3 tabular-nums">{f.money(r.internal_chf ?? 0)}</td>
          <td className="py-1 pr-3 tabular-nums">{f.money(r.cost_chf ?? 0)}</td>
        </>
      ) : null}
    </>
  )
  const figures = (r: ZevRow): [string, string][] => [
    [t('zev.consumption'), f.kwh(r.consumption_kwh)],
    [t('zev.pv'), f.kwh(r.pv_kwh)],
    [t('zev.battery'), f.kwh(r.battery_kwh)],
    [t('zev.grid'), f.kwh(r.grid_kwh)],
    ...(money
      ? ([
          [t('zev.gridCost'), f.money(r.grid_chf ?? 0)],
          [t('zev.internalCost'), f.money(r.internal_chf ?? 0)],
          [t('zev.cost'), f.money(r.cost_chf ?? 0)],
        ] as [string, string][])
      : []),
  ]
  const block = (label: string, r: ZevRow, total = false) => (
    <li key={total ? 'total' : r.unit} className={total ? 'border-t-2 border-slate-300 pt-2' : 'pt-2'}>
      <p className={total ? 'font-semibold text-slate-900' : 'font-medium text-slate-900'}>{label}</p>
      <dl className="mt-1 grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 text-sm">
        {figures(r).map(([l, v]) => (
          <Fragment key={l}>
            <dt className="text-slate-600">{l}</dt>
            <dd className={total ? 'whitespace-nowrap text-right font-semibold tabular-nums' : 'whitespace-nowrap text-right tabular-nums'}>{v}</dd>
          </Fragment>
        ))}
      </dl>
    </li>
  )
  return (
    <Card titleId="charts-zev" title={t('zev.title')}>
      <div className="space-y-1 text-sm text-slate-700">
        <p>{s.model === 'flat_rate' ? t('zev.modelFlat', { percent: f.percent(s.flat_percent) }) : t('zev.modelActual')}</p>
        <p>{t('zev.cap', { percent: f.percent(s.cap_percent), cap: f.money(s.cap_chf_per_kwh, 4), standard: f.money(s.standard_chf_per_kwh, 4) })}</p>
        {money && s.feed_in_deducted ? <p>{t('zev.feedIn', { amount: f.money(s.feed_in_revenue_chf ?? 0) })}</p> : null}
      </div>
      {s.missing_intervals > 0 ? (
        <Notice tone="warning" role="status" className="mt-2">{t('zev.missing', { missing: s.missing_intervals, expected: s.expected_intervals })}</Notice>
      ) : null}
      {s.unbalanced_intervals > 0 ? (
        <Notice tone="warning" role="status" className="mt-2">{t('zev.unbalanced', { count: s.unbalanced_intervals, energy: f.kwh(s.unbalanced_kwh) })}</Notice>
      ) : null}
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{t('empty')}</p>
      ) : (
        <>
          <ul aria-labelledby="charts-zev" className="mt-2 space-y-2 sm:hidden">
            {rows.map((r) => block(name(r), r))}
            {block(t('zev.total'), s.total, true)}
          </ul>
          <ScrollArea labelledBy="charts-zev" className="mt-2 hidden sm:block">
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">{t('zev.unit')}</th>
                  <th scope="col" className="py-1 pr-3 font-medium">{t('zev.consumption')}</th>
                  <th scope="col" className="py-1 pr-3 font-medium">{t('zev.pv')}</th>
                  <th scope="col" className="py-1 pr-3 font-medium">{t('zev.battery')}</th>
                  <th scope="col" className="py-1 pr-3 font-medium">{t('zev.grid')}</th>
                  {money ? (
                    <>
                      <th scope="col" className="py-1 pr-3 font-medium">{t('zev.gridCost')}</th>
                      <th scope="col" className="py-1 pr-3 font-medium">{t('zev.internalCost')}</th>
                      <th scope="col" className="py-1 pr-3 font-medium">{t('zev.cost')}</th>
                    </>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.unit} className="border-t border-slate-100">
                    <th scope="row" className="py-1 pr-3 font-normal">{name(r)}</th>
                    {cells(r)}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="border-t-2 border-slate-300 font-semibold">
                  <th scope="row" className="py-1 pr-3">{t('zev.total')}</th>
                  {cells(s.total)}
                </tr>
              </tfoot>
            </table>
          </ScrollArea>
        </>
      )}
    </Card>
  )
}
