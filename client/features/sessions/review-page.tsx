import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { ChargingSession, SessionReviewInput } from '../../../shared/schemas/session.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { readLocaleNumber } from '../../components/parse-number.ts'
import { TextField } from '../../components/text-field.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { paths } from '../../app/paths.ts'
import { HELD_LIMIT, listHeldSessions, reviewSession, sessionKeys } from './api.ts'

type Action = SessionReviewInput['action']

/** The most energy an admin may set (shared/schemas/session.ts SessionReviewInput, kWh). */
const MAX_KWH = 100_000

/**
 * Charging sessions → Review (admins; docs/decisions.md "Charging: plausible charger figures and debit
 * ceilings"): the installation's sessions held because a charger figure broke a rule or a debit ceiling
 * held them, each with why (in the user's language), station, card and who charged, the energy recorded and
 * its times. An admin corrects its energy (priced at the tariff of its start), releases it as recorded, or
 * voids it, each after a confirmation that asks for the reason recorded with it; the session then leaves
 * the list and is billed (or not) like any other. One card per session, so that a phone shows it all
 * without sideways scrolling.
 */
export default function SessionReviewPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('review.title'))
  const f = useFormats(installation.timezone)
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: sessionKeys.held(installation.id), queryFn: ({ signal }) => listHeldSessions(installation.id, signal) })
  const [open, setOpen] = useState<{ session: ChargingSession; action: Action } | null>(null)
  const [done, setDone] = useState<{ session: ChargingSession; action: Action } | null>(null)
  const sessions = query.data?.results ?? null

  function reviewed(session: ChargingSession, action: Action) {
    setOpen(null)
    setDone({ session, action })
    // The list, the sessions screen and the session's page all show it differently now.
    void queryClient.invalidateQueries({ queryKey: sessionKeys.all(installation.id) })
  }

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <Link href={paths.sessions(installation.id)} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('review.back')}
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('review.title')}</h1>
      <p className="text-sm text-slate-600">{t('review.intro')}</p>
      <div role="status">
        {done ? (
          <Notice tone="info" role="note">
            {t(`review.done.${done.action}`, { energy: f.kwh(done.session.energy_kwh), price: done.session.price === null ? '—' : f.money(done.session.price) })}{' '}
            <Link href={`/facility/${installation.id}/sessions/${done.session.id}`} className="font-semibold underline">
              {t('review.openSession')}
            </Link>
          </Notice>
        ) : null}
      </div>
      <Card titleId="held-title" title={t('review.listTitle')} aside={query.data ? t('review.count', { count: query.data.count }) : undefined}>
        {sessions === null ? (
          query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
        ) : sessions.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-500">{t('review.empty')}</p>
        ) : (
          <>
            <ul className="space-y-3" aria-labelledby="held-title">
              {sessions.map((s) => (
                <li key={s.id}>
                  <HeldSession session={s} installation={installation} onAction={(action) => { setDone(null); setOpen({ session: s, action }) }} />
                </li>
              ))}
            </ul>
            {query.data && query.data.count > HELD_LIMIT ? <p className="mt-3 text-sm text-slate-600">{t('review.more', { shown: HELD_LIMIT, count: query.data.count })}</p> : null}
          </>
        )}
      </Card>
      {open ? <ReviewDialog key={`${open.session.id}-${open.action}`} installation={installation} session={open.session} action={open.action} onCancel={() => setOpen(null)} onDone={reviewed} /> : null}
    </div>
  )
}

/** One held session: why, where, who, how much and when, and its three actions. */
function HeldSession({ session: s, installation, onAction }: { session: ChargingSession; installation: Installation; onAction: (action: Action) => void }) {
  const { t } = useTranslation('charging')
  const f = useFormats(installation.timezone)
  const headingId = useId()
  const who = s.user_name ?? t('review.unknownPerson')
  return (
    <article aria-labelledby={headingId} className="rounded-xl border border-red-200 bg-red-50/40 p-3 sm:p-4">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        <Link href={`/facility/${installation.id}/sessions/${s.id}`} className="text-brand-700 hover:underline">
          {t('review.sessionName', { station: s.station_name, start: f.dateTime(s.start) })}
        </Link>
      </h3>
      <p className="mt-1 text-sm font-medium text-red-800">{s.hold_reason ? t(`sessions.holdReason.${s.hold_reason}`, { defaultValue: s.hold_reason }) : t('sessions.status.held')}</p>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <Item label={t('sessions.user')} value={who} />
        <Item label={t('sessions.rfid')} value={s.rfid_tag ?? t('sessions.noRfid')} />
        <Item label={t('review.reported')} value={f.kwh(s.energy_kwh)} />
        <Item label={t('sessions.price')} value={s.price === null ? '—' : f.money(s.price)} />
        <Item label={t('sessions.start')} value={f.dateTime(s.start)} />
        <Item label={t('sessions.endDate')} value={s.end ? f.dateTime(s.end) : t('sessions.running')} />
      </dl>
      <div className="mt-3 flex flex-wrap gap-2" role="group" aria-label={t('review.actionsFor', { name: t('review.sessionName', { station: s.station_name, start: f.dateTime(s.start) }) })}>
        <button type="button" className="btn-primary" onClick={() => onAction('correct')}>{t('review.actions.correct')}</button>
        <button type="button" className="btn-secondary" onClick={() => onAction('approve')}>{t('review.actions.approve')}</button>
        <button type="button" className="btn-secondary text-red-700" onClick={() => onAction('void')}>{t('review.actions.void')}</button>
      </div>
    </article>
  )
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-slate-500">{label}:</dt>
      <dd className="break-all text-slate-900">{value}</dd>
    </div>
  )
}

/**
 * The confirmation of one review action, on the native <dialog> like the shared ConfirmDialog (focus
 * inside, Escape cancels, the page behind inert): what will happen, the corrected energy for `correct`
 * (read in the user's number format, showing what will be saved), and the reason recorded with it. The
 * API's refusals show at their field, anything else above the buttons with what to do.
 */
function ReviewDialog({ installation, session, action, onCancel, onDone }: {
  installation: Installation
  session: ChargingSession
  action: Action
  onCancel: () => void
  onDone: (session: ChargingSession, action: Action) => void
}) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  const f = useFormats(installation.timezone)
  const titleId = useId()
  const textId = useId()
  const [energy, setEnergy] = useState('')
  const [reason, setReason] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const read = readLocaleNumber(energy, f.locale)
  // A field's refusal goes once it is edited: the hint then shows what will be saved.
  const edit = (field: string, set: (v: string) => void) => (v: string) => {
    set(v)
    if (errors[field]) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== field)))
  }
  const name = t('review.sessionName', { station: session.station_name, start: f.dateTime(session.start) })

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFailure(null)
    const found: Record<string, string> = {}
    if (action === 'correct') {
      if (!read.ok) found.energy_kwh = read.reason === 'ambiguous' ? t('review.energyAmbiguous') : t('review.energyInvalid')
      else if (read.value < 0 || read.value > MAX_KWH) found.energy_kwh = t('review.energyRange', { max: f.number(MAX_KWH, 0) })
    }
    if (reason.trim().length < 3) found.reason = t('review.reasonRequired')
    setErrors(found)
    if (Object.keys(found).length) return
    const body: SessionReviewInput = action === 'correct' && read.ok
      ? { action, energy_kwh: read.value, reason: reason.trim() }
      : { action: action === 'correct' ? 'approve' : action, reason: reason.trim() }
    setBusy(true)
    try {
      onDone(await reviewSession(installation.id, session.id, body), action)
    } catch (err) {
      const fields = fieldErrors(err)
      setErrors(fields)
      setFailure(Object.keys(fields).length ? t('review.checkFields') : `${errorMessage(err, tc)} ${t('review.reload')}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <dialog
      ref={(d) => {
        if (d && !d.open) d.showModal?.()
      }}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
      className="w-[min(30rem,calc(100vw-2rem))] rounded-2xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <form noValidate onSubmit={submit} aria-busy={busy} className="space-y-4 p-5">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">{t(`review.confirm.${action}.title`)}</h2>
        <p id={textId} className="text-sm text-slate-600">
          {t(`review.confirm.${action}.text`, { name, energy: f.kwh(session.energy_kwh) })}
        </p>
        {action === 'correct' ? (
          <div>
            <TextField label={t('review.energyLabel')} inputMode="decimal" autoComplete="off" value={energy} error={errors.energy_kwh} onChange={(e) => edit('energy_kwh', setEnergy)(e.target.value)} autoFocus />
            {read.ok && !errors.energy_kwh ? <p className="mt-1 text-xs text-slate-500">{t('review.willSave', { energy: f.kwh(read.value) })}</p> : null}
          </div>
        ) : null}
        <TextField label={t('review.reasonLabel')} value={reason} maxLength={500} error={errors.reason} onChange={(e) => edit('reason', setReason)(e.target.value)} autoFocus={action !== 'correct'} />
        {failure ? <Notice tone="error" role="alert">{failure}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onCancel}>{t('review.cancel')}</button>
          <button type="submit" className={action === 'void' ? 'btn-primary bg-red-600 hover:bg-red-700' : 'btn-primary'} disabled={busy}>
            {t(`review.confirm.${action}.button`)}
          </button>
        </div>
      </form>
    </dialog>
  )
}
