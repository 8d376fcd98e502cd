import { useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { ChargingSession } from '../../../shared/schemas/session.ts'
import { ApiError, errorMessage } from '../../api/errors.ts'
import { useFormats } from '../../components/use-formats.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { downloadInvoice, getSession, sessionKeys } from './api.ts'
import { SessionStatus, useChf } from './sessions-page.tsx'
import { useRights } from '../../app/use-rights.ts'
import { paths } from '../../app/paths.ts'
import { useNow } from '../../components/use-now.ts'
import { useDuration } from './duration.ts'
import { EndSessionDialog } from './end-session-dialog.tsx'

/**
 * Session details (SPEC §2): station, RFID, times, energy (high/low), price, transaction fee, total, paid-on
 * or unpaid, and the invoice download; the solar share and average price per kWh, and while it charges the
 * elapsed, effective and (with a known target) remaining charging time. An unknown id shows "Session is not found" (SPEC §8).
 * Admins end an open session by hand (a charger that never stopped it), with a reason, after a confirmation.
 */
export default function SessionDetailPage({ installation, sessionId }: { installation: Installation; sessionId: string }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('sessions.detailTitle'))
  const f = useFormats(installation.timezone)
  const chf = useChf()
  // Only digits can be a session id: anything else is "not found" without asking.
  const valid = /^\d+$/.test(sessionId)
  const query = useQuery({
    queryKey: sessionKeys.detail(installation.id, sessionId),
    queryFn: ({ signal }) => getSession(sessionId, signal),
    enabled: valid,
  })
  const session = query.data ?? null
  const notFound = !valid || (query.error instanceof ApiError && query.error.status === 404)
  // Admins reach a held session from the mail that says it is held: the way to correct, release or void it.
  const admin = useRights(installation).rights?.admin ?? false
  const queryClient = useQueryClient()
  const [ending, setEnding] = useState(false)
  const [ended, setEnded] = useState<ChargingSession | null>(null)
  const [downloading, setDownloading] = useState(false)
  const [downloadError, setDownloadError] = useState<string | null>(null)

  async function download(s: ChargingSession) {
    if (!s.invoice_url) return
    setDownloading(true)
    setDownloadError(null)
    try {
      await downloadInvoice(s.invoice_url, `${t('sessions.invoiceFile')}-${s.id}.pdf`)
    } catch (err) {
      setDownloadError(errorMessage(err, tc))
    } finally {
      setDownloading(false)
    }
  }

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <Link href={`/facility/${installation.id}/sessions`} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('sessions.back')}
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('sessions.detailTitle')}</h1>
      {notFound ? (
        <Notice tone="warning" role="alert">
          {t('sessions.notFound')}
        </Notice>
      ) : !session ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : (
        <Card titleId="session-title" title={session.station_name} aside={<SessionStatus status={session.status} idle={session.idle} />}>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <Field label={t('sessions.start')} value={f.dateTime(session.start)} />
            <Field label={t('sessions.endDate')} value={session.end ? f.dateTime(session.end) : session.idle ? t('sessions.status.idle') : t('sessions.running')} />
            <Field label={t('sessions.rfid')} value={session.rfid_tag ?? t('sessions.noRfid')} />
            <Field label={t('sessions.energy')} value={f.kwh(session.energy_kwh)} />
            <Field label={t('sessions.high')} value={f.kwh(session.high_kwh)} />
            <Field label={t('sessions.low')} value={f.kwh(session.low_kwh)} />
            {session.solar_share != null ? <Field label={t('sessions.solarShare')} value={t('sessions.solarValue', { share: f.percent(session.solar_share), kwh: f.kwh(session.solar_kwh ?? 0) })} /> : null}
            {session.price_per_kwh != null ? <Field label={t('sessions.pricePerKwh')} value={f.unit(session.price_per_kwh, 'CHF/kWh', 4)} /> : null}
            {session.end === null ? <RunningTimes session={session} /> : null}
            {/* SPEC §3 as the invoice prints it: the energy price, the card fee, and their total. */}
            {session.price !== null ? <Field label={t('sessions.price')} value={chf(session.price)} /> : null}
            {session.transaction_fee !== null ? <Field label={t('sessions.fee')} value={chf(session.transaction_fee)} /> : null}
            {session.total != null ? <Field label={t('sessions.total')} value={chf(session.total)} strong /> : null}
            <Field
              label={t('sessions.payment')}
              value={session.status === 'paid' && session.paid_on ? t('sessions.paidOn', { date: f.date(session.paid_on) }) : session.status === 'unpaid' ? t('sessions.unpaid') : t(`sessions.status.${session.status}`)}
            />
            {session.status === 'held' && session.hold_reason ? <Field label={t('sessions.status.held')} value={t(`sessions.holdReason.${session.hold_reason}`, { defaultValue: session.hold_reason })} /> : null}
          </dl>
          {admin && session.end === null ? (
            <div className="mt-4">
              <button type="button" className="btn-secondary text-red-700" onClick={() => { setEnded(null); setEnding(true) }}>
                {t('end.action')}
              </button>
            </div>
          ) : null}
          <div role="status">
            {ended ? (
              <Notice tone="info" role="note">
                {t('end.done', { end: ended.end ? f.dateTime(ended.end) : '', energy: f.kwh(ended.energy_kwh) })}
              </Notice>
            ) : null}
          </div>
          {ending ? (
            <EndSessionDialog
              installation={installation}
              session={session}
              onCancel={() => setEnding(false)}
              onDone={(s) => {
                setEnding(false)
                setEnded(s)
                queryClient.setQueryData(sessionKeys.detail(installation.id, sessionId), s)
                // The list and its totals show it ended too.
                void queryClient.invalidateQueries({ queryKey: sessionKeys.all(installation.id) })
              }}
            />
          ) : null}
          {admin && session.status === 'held' ? (
            <p className="mt-3 text-sm">
              <Link href={paths.sessionReview(installation.id)} className="font-semibold text-brand-700 underline">{t('review.link')}</Link>
            </p>
          ) : null}
          {session.price_lines?.length ? (
            <table className="mt-4 w-full text-left text-sm">
              <caption className="mb-1 text-left text-xs font-medium uppercase tracking-wide text-slate-500">{t('sessions.lines')}</caption>
              <tbody>
                {session.price_lines.map((l) => (
                  <tr key={l.label} className="border-t border-slate-100">
                    <th scope="row" className="py-1.5 pr-3 font-normal">{t(`sessions.${l.label}`)}</th>
                    <td className="py-1.5 pr-3 tabular-nums">{f.kwh(l.kwh)} × {f.unit(l.unit_price, 'CHF/kWh', 4)}</td>
                    <td className="whitespace-nowrap py-1.5 text-right tabular-nums">{chf(l.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {session.invoice_url ? (
            <div className="mt-4">
              <button type="button" className="btn-primary" disabled={downloading} onClick={() => void download(session)}>
                {t('sessions.download')}
              </button>
              {downloadError ? (
                <p role="alert" className="mt-2 text-sm text-red-700">
                  {downloadError}
                </p>
              ) : null}
            </div>
          ) : null}
        </Card>
      )}
    </div>
  )
}

/** A running session's elapsed time, the time the car drew power and, when a target is known, the time still needed. */
function RunningTimes({ session }: { session: ChargingSession }) {
  const { t } = useTranslation('charging')
  const duration = useDuration()
  const now = useNow()
  const elapsed = Math.max(0, (now - new Date(session.start).getTime()) / 1000)
  return (
    <>
      <Field label={t('sessions.elapsed')} value={duration(elapsed)} />
      {session.effective_s != null ? <Field label={t('sessions.effective')} value={duration(session.effective_s)} /> : null}
      {session.remaining_s != null ? <Field label={t('sessions.remaining')} value={duration(session.remaining_s)} /> : null}
    </>
  )
}

function Field({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className={strong ? 'text-base font-semibold text-slate-900' : 'text-slate-800'}>{value}</dd>
    </div>
  )
}
