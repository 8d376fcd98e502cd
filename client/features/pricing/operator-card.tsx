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

/**
 * Pricing, for admins: the operator who bills charging here — legal name, address, IBAN or
 * QR-IBAN, VAT number and rate — printed on every invoice and QR-bill.
 */
export function OperatorCard({ installation, onSaved }: { installation: Installation; onSaved: (i: Installation) => void }) {
  const { t } = useTranslation('pricing')
  const { locale } = useFormats()
  const op = installation.operator
  const [values, setValues] = useState<Record<(typeof FIELDS)[number], string>>({
    name: op?.name ?? '', street: op?.street ?? '', building_number: op?.building_number ?? '', zip: op?.zip ?? '', city: op?.city ?? '',
    iban: op?.iban ?? '', vat_number: op?.vat_number ?? '',
  })
  const [country, setCountry] = useState<Operator['country']>(op?.country ?? 'CH')
  const [rate, setRate] = useState(op ? String(op.vat_rate) : '8.1')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const { busy, feedback, setFeedback, run } = useAction()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setErrors({})
    const vat = parseLocaleNumber(rate, locale)
    const operator = { ...values, vat_number: values.vat_number.trim() || null, country, vat_rate: Number.isNaN(vat) ? (null as unknown as number) : vat }
    await run(async () => {
      onSaved(await saveOperator(installation.id, operator as Operator))
      return t('operator.saved')
    }, (err) => {
      // Field errors come back as operator.<field>.
      const handled = intoFieldErrors((fields) => setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^operator\./, ''), v]))))(err)
      if (handled) setFeedback({ tone: 'error', text: t('checkFields') })
      return handled
    })
  }
  const err = (f: string) => (errors[f] ? <p id={`operator-${f}-error`} className="mt-1 text-xs text-red-700">{errors[f]}</p> : null)
  const described = (f: string) => (errors[f] ? { 'aria-invalid': true as const, 'aria-describedby': `operator-${f}-error` } : {})

  return (
    <Card titleId="pricing-operator" title={t('operator.title')}>
      <p className="text-sm text-slate-600">{op ? t('operator.hint') : t('operator.missing')}</p>
      <form onSubmit={submit} className="mt-3 space-y-3" aria-labelledby="pricing-operator">
        {feedback ? <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'}>{feedback.text}</Notice> : null}
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {FIELDS.map((f) => (
            <div key={f}>
              <label className="block text-sm font-medium text-slate-700">
                {t(`operator.${f}`)}
                <input className={input} value={values[f]} onChange={(e) => setValues({ ...values, [f]: e.target.value })} {...described(f)} />
              </label>
              {err(f)}
            </div>
          ))}
          <div>
            <label className="block text-sm font-medium text-slate-700">
              {t('operator.country')}
              <select className={input} value={country} onChange={(e) => setCountry(e.target.value as Operator['country'])}>
                <option value="CH">{t('operator.countries.CH')}</option>
                <option value="LI">{t('operator.countries.LI')}</option>
              </select>
            </label>
          </div>
          <div>
            <label className="block text-sm font-medium text-slate-700">
              {t('operator.vat_rate')}
              <input inputMode="decimal" className={input} value={rate} onChange={(e) => setRate(e.target.value)} {...described('vat_rate')} />
            </label>
            {err('vat_rate')}
          </div>
        </div>
        <button type="submit" disabled={busy} className="min-h-11 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {busy ? t('form.saving') : t('operator.save')}
        </button>
      </form>
    </Card>
  )
}
