import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { WEEKDAYS } from '../../../shared/rules/tariff.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Notice } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { createRate, RATE_FIELDS, renameRate, replaceRate, type Rate, type RateInput, type RateKind, type TimeSpan } from './api.ts'
import { readLocaleNumber, readNumberFields } from '../../components/parse-number.ts'

const input = 'mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm disabled:bg-slate-100 disabled:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'

/**
 * Create or edit a rate. A started rate (not `editable`) shows its prices and dates read-only and saves
 * only the name (PATCH, SPEC §4); the flat rate can be switched on only with a start date in the future.
 * Prices are read in the user's number format (client/components/parse-number.ts): "0.12" and "0,12"
 * alike, each field showing the price it will save; an ambiguous or unreadable price ("1.234" in de-DE)
 * is marked "Please enter a valid rate" (SPEC §5) and nothing is sent. An empty one goes as null and the
 * server names it.
 */
export function RateForm({ installationId, kind, rate, today, onSaved, onCancel }: { installationId: number; kind: RateKind; rate: Rate | null; today: string; onSaved: (r: Rate) => void; onCancel: () => void }) {
  const { t } = useTranslation('rates')
  const { t: tc } = useTranslation()
  const f = useFormats()
  const locked = rate ? !rate.editable : false
  const [name, setName] = useState(rate?.name ?? '')
  const [start, setStart] = useState(rate?.start_date ?? '')
  const [end, setEnd] = useState(rate?.end_date ?? '')
  const [prices, setPrices] = useState<Record<string, string>>(() =>
    Object.fromEntries(RATE_FIELDS[kind].map((k) => [k, rate ? f.number(rate.prices[k] ?? 0, 4).replace(/0{1,2}$/, '') : ''])),
  )
  const [spans, setSpans] = useState<TimeSpan[]>(rate?.time_spans ?? [])
  const [flat, setFlat] = useState(rate?.flat_enabled ?? false)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const future = start !== '' && start > today

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setProblem(null)
    setErrors({})
    // Empty prices are named with the server's field errors: when the name is missing too, the server
    // answers the name alone (its body check comes before the prices'), and the prices would only be
    // flagged at the next submit.
    let emptyPrices: Record<string, string> = {}
    try {
      let saved: Rate
      if (rate && locked) saved = await renameRate(installationId, kind, rate.id, name)
      else {
        const fields = RATE_FIELDS[kind]
        const read = readNumberFields(Object.fromEntries(fields.map((k) => [k, prices[k] ?? ''])), f.locale, fields)
        if (read.invalid.length) {
          setErrors(Object.fromEntries(read.invalid.map((k) => [k, t('invalidRate')])))
          setProblem(t('checkFields'))
          return
        }
        emptyPrices = Object.fromEntries(fields.filter((k) => read.values[k] == null).map((k) => [k, t('invalidRate')]))
        const body: RateInput = {
          name,
          start_date: start || null,
          end_date: end || null,
          // An empty price goes as null so the server names the field.
          prices: read.values as RateInput['prices'],
          ...(kind === 'power' ? { time_spans: spans, flat_enabled: flat && future } : {}),
        }
        saved = rate ? await replaceRate(installationId, kind, rate.id, body) : await createRate(installationId, kind, body)
      }
      onSaved(saved)
    } catch (err) {
      const fields = { ...emptyPrices, ...fieldErrors(err) }
      setErrors(fields)
      setProblem(Object.keys(fields).length ? t('checkFields') : errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  const err = (field: string) =>
    errors[field] ? (
      <p id={`rate-${field}-error`} className="mt-1 text-xs text-red-700">
        {errors[field]}
      </p>
    ) : null
  const described = (field: string) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `rate-${field}-error` } : {})
  // What a price field will save, as the user types it (or why it cannot be saved).
  const preview = (field: string) => {
    if (errors[field] || locked) return null
    const r = readLocaleNumber(prices[field] ?? '', f.locale)
    if (!r.ok && r.reason === 'empty') return null
    return (
      <p id={`rate-${field}-preview`} aria-live="polite" className={`mt-1 text-xs ${r.ok ? 'text-slate-500' : 'text-red-700'}`}>
        {r.ok ? t('willSave', { value: f.money(r.value, 4) }) : t('invalidRate')}
      </p>
    )
  }

  return (
    <form onSubmit={submit} aria-labelledby="rate-form-title" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="rate-form-title" className="text-base font-semibold">
        {rate ? t('editTitle') : t('newTitle')}
      </h2>
      {locked ? <Notice tone="info">{t('startedNotice')}</Notice> : null}
      {problem ? (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div>
        <label className="block text-sm font-medium text-slate-700">
          {t('name')}
          <input className={input} value={name} onChange={(e) => setName(e.target.value)} {...described('name')} />
        </label>
        {err('name')}
        </div>
        <div>
        <label className="block text-sm font-medium text-slate-700">
          {t('startDate')}
          <input type="date" className={input} value={start} disabled={locked} onChange={(e) => setStart(e.target.value)} {...described('start_date')} />
        </label>
        {err('start_date')}
        </div>
        <div>
        <label className="block text-sm font-medium text-slate-700">
          {t('endDate')}
          <input type="date" className={input} value={end} disabled={locked} onChange={(e) => setEnd(e.target.value)} {...described('end_date')} />
        </label>
        {err('end_date')}
        </div>
      </div>
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">{kind === 'water' ? t('pricesPerM3') : t('pricesPerKwh')}</legend>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
          {RATE_FIELDS[kind].map((k) => (
            <div key={k}>
            <label className="block text-sm font-medium text-slate-700">
              {t(`price.${k}`)}
              <input inputMode="decimal" className={input} value={prices[k] ?? ''} disabled={locked} onChange={(e) => setPrices({ ...prices, [k]: e.target.value })} aria-describedby={`rate-${k}-preview`} {...described(k)} />
            </label>
            {err(k)}
            {preview(k)}
            </div>
          ))}
        </div>
      </fieldset>
      {kind === 'power' ? (
        <>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={flat && future} disabled={locked || !future} onChange={(e) => setFlat(e.target.checked)} {...described('flat_enabled')} />
            {t('flatEnabled')}
          </label>
          {!future && !locked ? <p className="text-xs text-slate-500">{t('flatFutureOnly')}</p> : null}
          {err('flat_enabled')}
          <fieldset>
            <legend className="text-sm font-semibold text-slate-800">{t('timeSpans')}</legend>
            <p className="text-xs text-slate-500">{t('timeSpansHint')}</p>
            <ul className="mt-2 space-y-2">
              {spans.map((s, i) => (
                <li key={i} className="rounded-lg border border-slate-200 p-2">
                  <div role="group" aria-label={t('spanLabel', { n: i + 1 })} className="flex flex-wrap items-end gap-2">
                    <label className="text-xs text-slate-700">
                      {t('spanStart')}
                      <input type="time" className={input} value={s.start} disabled={locked} onChange={(e) => setSpans(spans.map((x, j) => (j === i ? { ...x, start: e.target.value } : x)))} />
                    </label>
                    <label className="text-xs text-slate-700">
                      {t('spanEnd')}
                      <input type="time" className={input} value={s.end === '24:00' ? '23:59' : s.end} disabled={locked} onChange={(e) => setSpans(spans.map((x, j) => (j === i ? { ...x, end: e.target.value } : x)))} />
                    </label>
                    <div className="flex flex-wrap gap-1">
                      {WEEKDAYS.map((d) => (
                        <label key={d} className="flex items-center gap-1 text-xs text-slate-700">
                          <input
                            type="checkbox"
                            disabled={locked}
                            checked={s.repetition.includes(d)}
                            onChange={(e) => setSpans(spans.map((x, j) => (j === i ? { ...x, repetition: e.target.checked ? [...x.repetition, d] : x.repetition.filter((y) => y !== d) } : x)))}
                          />
                          <span>{t(`weekdayShort.${d}`)}</span>
                        </label>
                      ))}
                    </div>
                    {!locked ? (
                      <button type="button" className="text-xs text-red-700 underline" onClick={() => setSpans(spans.filter((_, j) => j !== i))}>
                        {t('removeSpan', { n: i + 1 })}
                      </button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
            {err('time_spans')}
            {!locked ? (
              <button type="button" className="mt-2 text-sm font-medium text-brand-700 underline" onClick={() => setSpans([...spans, { start: '07:00', end: '20:00', repetition: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] }])}>
                {t('addSpan')}
              </button>
            ) : null}
          </fieldset>
        </>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {busy ? t('saving') : t('save')}
        </button>
        <button type="button" onClick={onCancel} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {t('cancel')}
        </button>
      </div>
    </form>
  )
}
