import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { WEEKDAYS, type ScheduleEntry } from '../../../shared/rules/tariff.ts'
import { Notice } from '../../components/ui.tsx'
import { intoFieldErrors, useAction } from '../../components/use-action.ts'
import { useFormats } from '../../components/use-formats.ts'
import { readLocaleNumber, readNumberFields } from '../../components/parse-number.ts'
import { saveTariff, type Pricing, type TariffInput } from './api.ts'

const input = 'mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-base sm:text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'
const PRICE_FIELDS = ['basic_tariff', 'high_tariff', 'low_tariff', 'flat_tariff'] as const
const WORKDAYS: ScheduleEntry = { start: '07:00', end: '20:00', monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0 }

/**
 * A new charging-tariff version for admins: prices in CHF, the first day it applies (after
 * today: sessions already charged keep their price) and the weekly high-tariff grid, prefilled from
 * `from` (the upcoming version to change, or the one in force to start from). Prices are read in the
 * user's number format (client/components/parse-number.ts), each field showing what it will save; an
 * ambiguous or unreadable one is marked "Please enter a valid rate" (SPEC §5) and nothing is sent.
 */
export function TariffForm({ installationId, from, tomorrow, onSaved, onCancel }: { installationId: number; from: Pricing | null; tomorrow: string; onSaved: (p: Pricing) => void; onCancel: () => void }) {
  const { t } = useTranslation('pricing')
  const f = useFormats()
  const upcoming = from?.editable ?? false
  const shown = (v: number | null | undefined) => (v == null ? '' : f.number(v, 4).replace(/0{1,2}$/, ''))
  const [name, setName] = useState(upcoming ? from!.name : '')
  const [validFrom, setValidFrom] = useState(upcoming ? from!.valid_from : tomorrow)
  const [prices, setPrices] = useState({ basic_tariff: shown(from?.basic_tariff), high_tariff: shown(from?.high_tariff), low_tariff: shown(from?.low_tariff), flat_tariff: shown(from?.flat_tariff) })
  const [flat, setFlat] = useState(from?.flat ?? false)
  const [schedule, setSchedule] = useState<ScheduleEntry[]>(from?.schedule ?? [WORKDAYS])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const { busy, feedback, setFeedback, run } = useAction()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setErrors({})
    // Empty prices go as null: the server names the required ones; the flat tariff may stay empty.
    const read = readNumberFields(prices, f.locale, PRICE_FIELDS)
    if (read.invalid.length) {
      setErrors(Object.fromEntries(read.invalid.map((k) => [k, t('form.invalidRate')])))
      setFeedback({ tone: 'error', text: t('checkFields') })
      return
    }
    const v = read.values as Record<(typeof PRICE_FIELDS)[number], number>
    const body: TariffInput = {
      name, valid_from: validFrom, flat, schedule,
      basic_tariff: v.basic_tariff, high_tariff: v.high_tariff, low_tariff: v.low_tariff,
      flat_tariff: read.values.flat_tariff,
    }
    let saved: Pricing | null = null
    const ok = await run(async () => {
      saved = await saveTariff(installationId, body)
    }, (err) => {
      const handled = intoFieldErrors(setErrors)(err)
      if (handled) setFeedback({ tone: 'error', text: t('checkFields') })
      return handled
    })
    if (ok && saved) onSaved(saved)
  }

  const err = (field: string) => (errors[field] ? <p id={`tariff-${field}-error`} className="mt-1 text-xs text-red-700">{errors[field]}</p> : null)
  const described = (field: string) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `tariff-${field}-error` } : {})
  // What a price field will save, as the user types it (or why it cannot be saved).
  const preview = (field: (typeof PRICE_FIELDS)[number]) => {
    if (errors[field]) return null
    const r = readLocaleNumber(prices[field], f.locale)
    if (!r.ok && r.reason === 'empty') return null
    return (
      <p id={`tariff-${field}-preview`} aria-live="polite" className={`mt-1 text-xs ${r.ok ? 'text-slate-500' : 'text-red-700'}`}>
        {r.ok ? t('form.willSave', { value: f.money(r.value, 4) }) : t('form.invalidRate')}
      </p>
    )
  }
  const setEntry = (i: number, patch: Partial<ScheduleEntry>) => setSchedule(schedule.map((x, j) => (j === i ? { ...x, ...patch } : x)))

  return (
    // noValidate: a missing name or date gets SPEC §5's message from the server at its field, in the
    // user's language, not the browser's own bubble ("Please fill out this field.").
    <form onSubmit={submit} noValidate aria-labelledby="tariff-form-title" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="tariff-form-title" className="text-base font-semibold">{upcoming ? t('form.editTitle') : t('form.newTitle')}</h2>
      <p className="text-sm text-slate-600">{t('form.hint')}</p>
      {feedback ? <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'}>{feedback.text}</Notice> : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div>
          <label className="block text-sm font-medium text-slate-700">
            {t('form.name')}
            <input className={input} value={name} required maxLength={255} onChange={(e) => setName(e.target.value)} {...described('name')} />
          </label>
          {err('name')}
        </div>
        <div>
          <label className="block text-sm font-medium text-slate-700">
            {t('form.validFrom')}
            <input type="date" className={input} value={validFrom} min={tomorrow} required onChange={(e) => setValidFrom(e.target.value)} {...described('valid_from')} />
          </label>
          {err('valid_from')}
        </div>
      </div>
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">{t('form.prices')}</legend>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2">
          {PRICE_FIELDS.map((k) => (
            <div key={k}>
              <label className="block text-sm font-medium text-slate-700">
                {t(`form.${k}`)}
                <input inputMode="decimal" className={input} value={prices[k]} onChange={(e) => setPrices({ ...prices, [k]: e.target.value })} aria-describedby={`tariff-${k}-preview`} {...described(k)} />
              </label>
              {err(k)}
              {preview(k)}
            </div>
          ))}
        </div>
        <label className="mt-3 flex min-h-11 items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" className="h-5 w-5" checked={flat} onChange={(e) => setFlat(e.target.checked)} {...described('flat')} />
          {t('form.flat')}
        </label>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">{t('form.schedule')}</legend>
        <p className="text-xs text-slate-500">{t('form.scheduleHint')}</p>
        <ul className="mt-2 space-y-2">
          {schedule.map((s, i) => (
            <li key={i} className="rounded-lg border border-slate-200 p-2">
              <div role="group" aria-label={t('form.span', { n: i + 1 })} className="flex flex-wrap items-end gap-2">
                <label className="text-xs text-slate-700">
                  {t('form.spanStart')}
                  <input type="time" className={input} value={s.start} onChange={(e) => setEntry(i, { start: e.target.value })} />
                </label>
                <label className="text-xs text-slate-700">
                  {t('form.spanEnd')}
                  <input type="time" className={input} value={s.end === '24:00' ? '00:00' : s.end} onChange={(e) => setEntry(i, { end: e.target.value })} />
                </label>
                <div className="flex flex-wrap gap-1">
                  {WEEKDAYS.map((d) => (
                    <label key={d} className="flex min-h-11 items-center gap-1 px-1 text-xs text-slate-700">
                      <input type="checkbox" className="h-5 w-5" checked={s[d] === 1} onChange={(e) => setEntry(i, { [d]: e.target.checked ? 1 : 0 })} />
                      <span>{t(`weekdays.${d}`).slice(0, 2)}</span>
                    </label>
                  ))}
                </div>
                <button type="button" className="min-h-11 px-2 text-xs text-red-700 underline" onClick={() => setSchedule(schedule.filter((_, j) => j !== i))}>
                  {t('form.removeSpan', { n: i + 1 })}
                </button>
              </div>
            </li>
          ))}
        </ul>
        {err('schedule')}
        <button type="button" className="mt-2 min-h-11 text-sm font-medium text-brand-700 underline" onClick={() => setSchedule([...schedule, WORKDAYS])}>
          {t('form.addSpan')}
        </button>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={busy} className="min-h-11 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {busy ? t('form.saving') : t('form.save')}
        </button>
        <button type="button" onClick={onCancel} className="min-h-11 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {t('form.cancel')}
        </button>
      </div>
    </form>
  )
}
