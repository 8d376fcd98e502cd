import { useId, useState } from 'react'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { Rfid } from '../../../shared/schemas/rfid.ts'
import { tagHasSpaces } from '../../../shared/schemas/rfid.ts'
import { intoFieldErrors, useAction } from '../../components/use-action.ts'
import { cx } from '../../components/ui.tsx'
import type { RfidFields } from './api.ts'

const inputClass = (invalid: boolean) =>
  cx(
    'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2',
    invalid ? 'border-red-400 focus:border-red-500 focus:ring-red-500/30' : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30',
  )

/**
 * Add or edit an RFID card (SPEC §2 RFIDs, §5: tag without spaces, description optional). Admins set the
 * tag and the stations (all or some); others may only change the description. Server field errors are
 * shown under their field; `onSave` throws the API error.
 */
export function RfidForm({
  rfid,
  admin,
  stations,
  onSave,
  onCancel,
}: {
  rfid: Rfid | null
  admin: boolean
  stations: { id: number; name: string }[]
  onSave: (fields: RfidFields) => Promise<void>
  onCancel: () => void
}) {
  const { t } = useTranslation('charging')
  const ids = { tag: useId(), tagError: useId(), description: useId(), stations: useId(), title: useId() }
  const [tag, setTag] = useState(rfid?.tag ?? '')
  const [description, setDescription] = useState(rfid?.description ?? '')
  const [all, setAll] = useState(rfid?.all_stations ?? true)
  const [chosen, setChosen] = useState<number[]>(rfid?.station_ids ?? [])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const action = useAction()
  const failure = action.feedback?.tone === 'error' ? action.feedback.text : null

  async function submit(e: FormEvent) {
    e.preventDefault()
    const local: Record<string, string> = {}
    const trimmed = tag.trim()
    if (admin && !trimmed) local.tag = t('rfids.form.tagRequired')
    else if (admin && tagHasSpaces(trimmed)) local.tag = t('rfids.form.tagSpaces')
    setErrors(local)
    action.setFeedback(null)
    if (Object.keys(local).length) return
    const fields: RfidFields = admin ? { tag: trimmed, description, all_stations: all, station_ids: all ? [] : chosen } : { description }
    await action.run(() => onSave(fields), intoFieldErrors(setErrors))
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={ids.title} className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id={ids.title} className="text-base font-semibold text-slate-900">
        {rfid ? t('rfids.form.editTitle') : t('rfids.form.addTitle')}
      </h2>
      {failure ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      <div>
        <label htmlFor={ids.tag} className="block text-sm font-medium text-slate-700">
          {t('rfids.form.tag')}
        </label>
        <input
          id={ids.tag}
          value={tag}
          onChange={(e) => setTag(e.target.value)}
          readOnly={!admin}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={Boolean(errors.tag)}
          aria-describedby={errors.tag ? ids.tagError : undefined}
          className={cx(inputClass(Boolean(errors.tag)), 'font-mono', !admin && 'bg-slate-50')}
        />
        {errors.tag ? (
          <p id={ids.tagError} className="mt-1 text-sm text-red-700">
            {errors.tag}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor={ids.description} className="block text-sm font-medium text-slate-700">
          {t('rfids.form.description')} <span className="font-normal text-slate-500">({t('rfids.form.optional')})</span>
        </label>
        <input id={ids.description} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={200} className={inputClass(Boolean(errors.description))} />
        {errors.description ? <p className="mt-1 text-sm text-red-700">{errors.description}</p> : null}
      </div>
      {admin ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{t('rfids.form.stations')}</legend>
          <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} className="h-4 w-4 rounded border-slate-300" />
            {t('rfids.form.allStations')}
          </label>
          {!all ? (
            <ul className="mt-2 grid gap-1 sm:grid-cols-2">
              {stations.map((s) => (
                <li key={s.id}>
                  <label className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      checked={chosen.includes(s.id)}
                      onChange={(e) => setChosen((c) => (e.target.checked ? [...c, s.id] : c.filter((x) => x !== s.id)))}
                      className="h-4 w-4 rounded border-slate-300"
                    />
                    {s.name}
                  </label>
                </li>
              ))}
            </ul>
          ) : null}
          {errors.station_ids ? <p className="mt-1 text-sm text-red-700">{errors.station_ids}</p> : null}
        </fieldset>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t('rfids.cancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={action.busy}>
          {t('rfids.save')}
        </button>
      </div>
    </form>
  )
}
