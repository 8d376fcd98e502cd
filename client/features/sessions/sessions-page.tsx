import { useId, useMemo, useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { ChargingSession } from '../../../shared/schemas/session.ts'
import { errorMessage } from '../../api/errors.ts'
import { useFormats } from '../../components/use-formats.ts'
import { Badge, Card, Loading, Notice, ScrollArea, useDocumentTitle } from '../../components/ui.tsx'
import { useRights } from '../../app/use-rights.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { paths } from '../../app/paths.ts'
import { exportSessions, fetchSessionPeople, fetchSessionStations, listHeldSessions, listSessions, sessionKeys, type SessionFilters } from './api.ts'
import { useDuration } from './duration.ts'
import { periodRange, recentYears, type Period } from './periods.ts'

type PeriodKind = Period['kind']

/** Sessions per page of the list. */
export const PAGE_SIZE = 20

/** "CHF 12.50" by the one formatting source (SPEC §9 currency CHF). */
export function useChf() {
  return useFormats().money
}

/**
 * The status badge of a session (SPEC §3): paid, unpaid, charging — or plugged in, not charging (`idle`) —
 * held for review, void, or empty (0 kWh, never billed).
 */
export function SessionStatus({ status, idle, wrap }: { status: ChargingSession['status']; idle?: boolean; wrap?: boolean }) {
  const { t } = useTranslation('charging')
  // `wrap`: a long state ("Plugged in, not charging", "Held for review") may break onto two lines (phones).
  const className = wrap ? '!whitespace-normal' : undefined
  if (status === 'charging' && idle) return <Badge tone="gray" className={className}>{t('sessions.status.idle')}</Badge>
  const tone = status === 'paid' ? 'green' : status === 'unpaid' ? 'amber' : status === 'held' ? 'red' : status === 'charging' ? 'blue' : 'gray'
  return <Badge tone={tone} className={className}>{t(`sessions.status.${status}`)}</Badge>
}

/**
 * Charging sessions (SPEC §2): period filter (current month, quarter, year, a given year) in the
 * installation's time zone; columns end date, price, status, energy, and who charged for admins; each row
 * opens its details. On a phone (below `sm`) who and the status move under the date and the price under the
 * energy, so both amounts are on screen without sideways scrolling and never wrap. Running sessions come first, marked running; the list pages by PAGE_SIZE with the
 * period's totals (kWh, CHF) and exports the period as CSV or XLSX. A station filter (and for admins a person filter) narrows
 * the list, its totals and the export alike; each session shows its solar share, a running one its effective charging time.
 */
export default function SessionsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('sessions.title'))
  const f = useFormats(installation.timezone)
  const chf = useChf()
  const ids = { period: useId(), year: useId(), station: useId(), person: useId() }
  const years = useMemo(() => recentYears(), [])
  const [kind, setKind] = useState<PeriodKind>('month')
  const [year, setYear] = useState(years[0])
  const [paging, setPaging] = useState({ period: '', page: 0 })
  const [exportError, setExportError] = useState<string | null>(null)
  const { rights } = useRights(installation)
  const admin = rights?.admin ?? false
  const who = (s: ChargingSession) => s.user_name ?? (s.rfid_tag ? s.rfid_tag : '—')
  const duration = useDuration()
  const [stationId, setStationId] = useState('')
  const [personId, setPersonId] = useState('')
  const filters: SessionFilters = { ...(stationId ? { station_id: Number(stationId) } : {}), ...(admin && personId ? { user_id: Number(personId) } : {}) }
  const stations = useQuery({ queryKey: sessionKeys.stations(installation.id), queryFn: ({ signal }) => fetchSessionStations(installation.id, signal) })
  const people = useQuery({ queryKey: sessionKeys.people(installation.id), queryFn: ({ signal }) => fetchSessionPeople(installation.id, signal), enabled: admin })

  const period: Period = kind === 'given' ? { kind, year } : { kind }
  const range = periodRange(period, installation.timezone)
  // Another period starts at its first page.
  const periodKey = `${range.start}/${range.end}/${filters.station_id ?? ''}/${filters.user_id ?? ''}`
  const page = paging.period === periodKey ? paging.page : 0
  const setPage = (next: (p: number) => number) => setPaging({ period: periodKey, page: next(page) })
  const query = useQuery({
    queryKey: sessionKeys.page(installation.id, range, page * PAGE_SIZE, PAGE_SIZE, filters),
    queryFn: ({ signal }) => listSessions(installation.id, range, { limit: PAGE_SIZE, offset: page * PAGE_SIZE }, signal, filters),
  })
  // Admins: how many sessions wait for their review, with the way to the review screen.
  const held = useQuery({ queryKey: sessionKeys.held(installation.id), queryFn: ({ signal }) => listHeldSessions(installation.id, signal), enabled: admin })
  const heldCount = admin ? (held.data?.count ?? 0) : 0
  const data = query.data
  const sessions: ChargingSession[] | null = data?.results ?? null

  async function download(format: 'csv' | 'xlsx') {
    setExportError(null)
    try {
      await exportSessions(installation.id, range, format, `${t('sessions.exportFile')}.${format}`, filters)
    } catch (err) {
      if (!(err as { loggedOut?: boolean }).loggedOut) setExportError(errorMessage(err, tc))
    }
  }

  return (
    <div className="mx-auto max-w-5xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('sessions.title')}</h1>
      {admin ? (
        <Notice tone={heldCount ? 'warning' : 'info'} role="note">
          <Link href={paths.sessionReview(installation.id)} className="font-semibold underline">
            {t('review.link')}
          </Link>{' '}
          {held.data ? <Badge tone={heldCount ? 'red' : 'gray'}>{t('review.count', { count: heldCount })}</Badge> : null}
        </Notice>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={ids.period} className="block text-sm font-medium text-slate-700">
            {t('sessions.period')}
          </label>
          <select id={ids.period} value={kind} onChange={(e) => setKind(e.target.value as PeriodKind)} className="mt-1 rounded-lg border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm">
            <option value="month">{t('sessions.periods.month')}</option>
            <option value="quarter">{t('sessions.periods.quarter')}</option>
            <option value="year">{t('sessions.periods.year')}</option>
            <option value="given">{t('sessions.periods.given')}</option>
          </select>
        </div>
        {kind === 'given' ? (
          <div>
            <label htmlFor={ids.year} className="block text-sm font-medium text-slate-700">
              {t('sessions.year')}
            </label>
            <select id={ids.year} value={year} onChange={(e) => setYear(Number(e.target.value))} className="mt-1 rounded-lg border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm">
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div>
          <label htmlFor={ids.station} className="block text-sm font-medium text-slate-700">
            {t('sessions.stationFilter')}
          </label>
          <select id={ids.station} value={stationId} onChange={(e) => setStationId(e.target.value)} className="mt-1 max-w-[14rem] rounded-lg border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm">
            <option value="">{t('sessions.allStations')}</option>
            {(stations.data ?? []).map((st) => (
              <option key={st.id} value={st.id}>
                {st.name}
              </option>
            ))}
          </select>
        </div>
        {admin ? (
          <div>
            <label htmlFor={ids.person} className="block text-sm font-medium text-slate-700">
              {t('sessions.personFilter')}
            </label>
            <select id={ids.person} value={personId} onChange={(e) => setPersonId(e.target.value)} className="mt-1 max-w-[14rem] rounded-lg border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm">
              <option value="">{t('sessions.allPeople')}</option>
              {[...(people.data ?? [])].sort((a, b) => f.compareNames(a.full_name || a.email, b.full_name || b.email)).map((u) => (
                <option key={u.id} value={u.id}>
                  {u.full_name || u.email}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="ml-auto flex gap-2">
          <button type="button" className="btn-secondary" onClick={() => void download('csv')}>
            {t('sessions.exportCsv')}
          </button>
          <button type="button" className="btn-secondary" onClick={() => void download('xlsx')}>
            {t('sessions.exportXlsx')}
          </button>
        </div>
      </div>
      {exportError ? (
        <Notice tone="error" role="alert">
          {exportError}
        </Notice>
      ) : null}
      <Card titleId="sessions-list-title" title={t('sessions.listTitle')}>
        {sessions === null ? (
          query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
        ) : sessions.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-500">{t('sessions.empty')}</p>
        ) : (
          <>
            <ScrollArea labelledBy="sessions-list-title" className="-mx-4 sm:mx-0">
              <table className="w-full min-w-[20rem] text-left text-sm" aria-labelledby="sessions-list-title">
                <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-4 py-2 sm:px-2">{t('sessions.endDate')}</th>
                    {admin ? <th scope="col" className="hidden px-2 py-2 sm:table-cell">{t('sessions.user')}</th> : null}
                    <th scope="col" className="py-2 pl-2 pr-4 text-right sm:pr-2">
                      {t('sessions.energyColumn')}
                      <span className="block sm:hidden">{t('sessions.price')}</span>
                    </th>
                    <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">{t('sessions.price')}</th>
                    <th scope="col" className="hidden px-2 py-2 sm:table-cell">{t('sessions.statusLabel')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {sessions.map((s) => (
                    <tr key={s.id} className={s.end ? undefined : 'bg-sky-50/60'}>
                      <td className="px-4 py-2 sm:px-2">
                        <Link href={`/facility/${installation.id}/sessions/${s.id}`} className="font-medium text-brand-700 hover:underline">
                          {s.end ? f.dateTime(s.end) : s.idle ? t('sessions.status.idle') : t('sessions.running')}
                        </Link>
                        <span className="block text-xs text-slate-500">
                          {s.station_name}
                          {s.end ? '' : ` · ${t('sessions.startedAt', { date: f.dateTime(s.start) })}`}
                          {s.end === null && s.effective_s != null ? ` · ${t('sessions.effectiveShort', { duration: duration(s.effective_s) })}` : ''}
                          {s.solar_share != null ? ` · ${t('sessions.solarShort', { share: f.percent(s.solar_share) })}` : ''}
                        </span>
                        {/* A phone shows who and the status here and the price under the energy, so that both stay on screen. */}
                        {admin ? <span className="block break-all text-xs text-slate-700 sm:hidden">{who(s)}</span> : null}
                        <span className="mt-1 block sm:hidden">
                          <SessionStatus status={s.status} idle={s.idle} wrap />
                        </span>
                      </td>
                      {admin ? <td className="hidden px-2 py-2 sm:table-cell">{who(s)}</td> : null}
                      <td className="whitespace-nowrap py-2 pl-2 pr-4 text-right tabular-nums sm:pr-2">
                        {f.kwh(s.energy_kwh)}
                        <span className="block font-medium text-slate-900 sm:hidden">{s.price === null ? '—' : chf(s.price)}</span>
                      </td>
                      <td className="hidden whitespace-nowrap px-2 py-2 text-right tabular-nums sm:table-cell">{s.price === null ? '—' : chf(s.price)}</td>
                      <td className="hidden px-2 py-2 sm:table-cell">
                        <SessionStatus status={s.status} idle={s.idle} />
                      </td>
                    </tr>
                  ))}
                </tbody>
                {data ? (
                  <tfoot className="border-t-2 border-slate-200 font-semibold text-slate-900">
                    <tr>
                      <th scope="row" className="px-4 py-2 text-left sm:px-2">{t('sessions.totals')}</th>
                      {admin ? <td className="hidden sm:table-cell" /> : null}
                      <td className="whitespace-nowrap py-2 pl-2 pr-4 text-right tabular-nums sm:pr-2">
                        {f.kwh(data.totals.energy_kwh)}
                        <span className="block sm:hidden">{data.totals.price === null ? '—' : chf(data.totals.price)}</span>
                      </td>
                      <td className="hidden whitespace-nowrap px-2 py-2 text-right tabular-nums sm:table-cell">{data.totals.price === null ? '—' : chf(data.totals.price)}</td>
                      <td className="hidden sm:table-cell" />
                    </tr>
                  </tfoot>
                ) : null}
              </table>
            </ScrollArea>
            {data && data.count > PAGE_SIZE ? (
              <nav aria-label={t('sessions.pages')} className="mt-3 flex items-center justify-between gap-3 text-sm">
                <button type="button" className="btn-secondary" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                  {t('sessions.previous')}
                </button>
                <p role="status">{t('sessions.pageInfo', { from: page * PAGE_SIZE + 1, to: Math.min(data.count, (page + 1) * PAGE_SIZE), count: data.count })}</p>
                <button type="button" className="btn-secondary" disabled={(page + 1) * PAGE_SIZE >= data.count} onClick={() => setPage((p) => p + 1)}>
                  {t('sessions.next')}
                </button>
              </nav>
            ) : null}
          </>
        )}
      </Card>
    </div>
  )
}
