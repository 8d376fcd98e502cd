import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { ChargingSession } from '../../../shared/schemas/session.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { TextField } from '../../components/text-field.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { Notice } from '../../components/ui.tsx'
import { endSession } from './api.ts'

/**
 * The confirmation that ends an open charging session by hand (admins; docs/decisions.md "Charging:
 * plausible charger figures and debit ceilings": a charger that never stopped it), on the native <dialog>
 * like the review's (focus inside, Escape cancels, the page behind inert): what happens (ended now, billed
 * with the energy recorded so far) and the reason recorded with it. The API's refusal of the reason shows at
 * the field; a session that ended meanwhile (409) or any other failure above the buttons, with what to do.
 */
export function EndSessionDialog({ installation, session, onCancel, onDone }: {
  installation: Installation
  session: ChargingSession
  onCancel: () => void
  onDone: (session: ChargingSession) => void
}) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  const f = useFormats(installation.timezone)
  const titleId = useId()
  const textId = useId()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFailure(null)
    if (reason.trim().length < 3) {
      setError(t('review.reasonRequired'))
      return
    }
    setBusy(true)
    try {
      onDone(await endSession(installation.id, session.id, reason.trim()))
    } catch (err) {
      const fields = fieldErrors(err)
      setError(fields.reason)
      setFailure(fields.reason ? null : `${errorMessage(err, tc)} ${t('review.reload')}`)
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
        <h2 id={titleId} className="text-base font-semibold text-slate-900">{t('end.title')}</h2>
        <p id={textId} className="text-sm text-slate-600">
          {t('end.text', { station: session.station_name, start: f.dateTime(session.start), energy: f.kwh(session.energy_kwh) })}
        </p>
        <TextField label={t('review.reasonLabel')} value={reason} maxLength={500} error={error} onChange={(e) => { setReason(e.target.value); setError(undefined) }} autoFocus />
        {failure ? <Notice tone="error" role="alert">{failure}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onCancel}>{t('review.cancel')}</button>
          <button type="submit" className="btn-primary bg-red-600 hover:bg-red-700" disabled={busy}>{t('end.button')}</button>
        </div>
      </form>
    </dialog>
  )
}
