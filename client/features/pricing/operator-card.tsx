import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { Installation, Operator } from '../../../shared/schemas/installation.ts'
import { Card, Notice } from '../../components/ui.tsx'
import { intoFieldErrors, useAction } from '../../components/use-action.ts'
import { parseLocaleNumber } from '../../components/parse-number.ts'
import { useFormats } from '../../components/use-formats.ts'
import { saveOperator } from './api.ts'

const input = 'mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-base sm:text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'
const FIELDS = ['name', 'street', 'building_number', 'zip', 'city', 'iban', 'vat_number'] as const

/** The operator form's values as typed (the VAT rate as text, parsed in the user's locale on save). */
export type OperatorFormValues = Record<(typeof FIELDS)[number], string> & { country: Operator['country']; vat_rate: string }

/** The form's values for `op` (empty, Switzerland and the Swiss standard VAT rate 8.1 % when none is set). */
export function operatorFormValues(op: Operator | null): OperatorFormValues {
  return {
    name: op?.name ?? '', street: op?.street ?? '', building_number: op?.building_number ?? '', zip: op?.zip ?? '', city: op?.city ?? '',
    iban: op?.iban ?? '', vat_number: op?.vat_number ?? '', country: op?.country ?? 'CH', vat_rate: op ? String(op.vat_rate) : '8.1',
  }
}

/**
 * The body for the API: no VAT number is null; a VAT rate that is not a number is sent as null, so the
 * server names the field (SPEC §5: empty input gives not-a-number).
 */
export function operatorFromForm(v: OperatorFormValues, locale: string): Operator {
  const vat = parseLocaleNumber(v.vat_rate, locale)
  const { vat_rate: _rate, ...rest } = v
  return { ...rest, vat_number: v.vat_number.trim() || null, vat_rate: Number.isNaN(vat) ? (null as unknown as number) : vat }
}

/** Field errors of the API answer (`operator.<field>`) by the operator's own field names. */
export function operatorErrors(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^operator\./, ''), v]))
}

/**
 * The operator's fields — legal name, address, IBAN or QR-IBAN, VAT number and rate — each labelled, with
 * its error tied by aria-describedby. Used by the card below and wherever an installation is set up.
 */
export function OperatorFields({ values, onChange, errors, idPrefix = 'operator' }: { values: OperatorFormValues; onChange: (v: OperatorFormValues) => void; errors: Record<string, string>; idPrefix?: string }) {
  const { t } = useTranslation('pricing')
  const err = (f: string) => (errors[f] ? <p id={`${idPrefix}-${f}-error`} className="mt-1 text-xs text-red-700">{errors[f]}</p> : null)
  const described = (f: string) => (errors[f] ? { 'aria-invalid': true as const, 'aria-describedby': `${idPrefix}-${f}-error` } : {})
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      {FIELDS.map((f) => (
        <div key={f}>
          <label className="block text-sm font-medium text-slate-700">
            {t(`operator.${f}`)}
            <input className={input} value={values[f]} onChange={(e) => onChange({ ...values, [f]: e.target.value })} {...described(f)} />
          </label>
          {err(f)}
        </div>
      ))}
      <div>
        <label className="block text-sm font-medium text-slate-700">
          {t('operator.country')}
          <select className={input} value={values.country} onChange={(e) => onChange({ ...values, country: e.target.value as Operator['country'] })}>
            <option value="CH">{t('operator.countries.CH')}</option>
            <option value="LI">{t('operator.countries.LI')}</option>
          </select>
        </label>
      </div>
      <div>
        <label className="block text-sm font-medium text-slate-700">
          {t('operator.vat_rate')}
          <input inputMode="decimal" className={input} value={values.vat_rate} onChange={(e) => onChange({ ...values, vat_rate: e.target.value })} {...described('vat_rate')} />
        </label>
        {err('vat_rate')}
      </div>
    </div>
  )
}

/**
 * Pricing and Installation settings, for admins: the operator who bills charging here — legal name,
 * address, IBAN or QR-IBAN, VAT number and rate — printed on every invoice and QR-bill.
 */
export function OperatorCard({ installation, onSaved }: { installation: Installation; onSaved: (i: Installation) => void }) {
  const { t } = useTranslation('pricing')
  const { locale } = useFormats()
  const op = installation.operator
  const [values, setValues] = useState<OperatorFormValues>(() => operatorFormValues(op))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const { busy, feedback, setFeedback, run } = useAction()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setErrors({})
    await run(async () => {
      onSaved(await saveOperator(installation.id, operatorFromForm(values, locale)))
      return t('operator.saved')
    }, (err) => {
      // Field errors come back as operator.<field>.
      const handled = intoFieldErrors((fields) => setErrors(operatorErrors(fields)))(err)
      if (handled) setFeedback({ tone: 'error', text: t('checkFields') })
      return handled
    })
  }

  return (
    <Card titleId="pricing-operator" title={t('operator.title')}>
      <p className="text-sm text-slate-600">{op ? t('operator.hint') : t('operator.missing')}</p>
      <form onSubmit={submit} className="mt-3 space-y-3" aria-labelledby="pricing-operator">
        {feedback ? <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'}>{feedback.text}</Notice> : null}
        <OperatorFields values={values} onChange={setValues} errors={errors} />
        <button type="submit" disabled={busy} className="min-h-11 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {busy ? t('form.saving') : t('operator.save')}
        </button>
      </form>
    </Card>
  )
}
