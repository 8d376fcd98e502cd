import { useId, useState } from 'react'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { fetchUser } from '../../session/api.ts'
import { session } from '../../session/session.ts'
import { cx } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { orderRfid, type OrderFields } from './api.ts'
import { COUNTRIES } from '../../../shared/rules/regions.ts'

const REQUIRED = ['first_name', 'last_name', 'address', 'zip_code', 'city'] as const

/**
 * Order new RFID cards (SPEC §2, §9): the delivery form with a "use billing details" button that fills
 * it from the user's details; CHF 25 a card, delivered in 3–4 working days, charged to the stored card.
 * `onOrdered` gets the server's success message.
 */
export function OrderForm({ installationId, onOrdered, onCancel }: { installationId: number; onOrdered: (message: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('charging')
  const formats = useFormats()
  const { t: tc } = useTranslation()
  const titleId = useId()
  const prefix = useId()
  const [fields, setFields] = useState<OrderFields>({ first_name: '', last_name: '', company: '', address: '', zip_code: '', city: '', country: 'CH', quantity: 1 })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const set = (patch: Partial<OrderFields>) => setFields((f) => ({ ...f, ...patch }))

  async function useBilling() {
    setFailure(null)
    try {
      const id = session.userId
      if (id === null) return
      const u = await fetchUser(id)
      set({
        first_name: u.first_name, last_name: u.last_name, company: u.company ?? '', address: u.address ?? '', zip_code: u.zip_code ?? '', city: u.city ?? '',
        country: u.country && (COUNTRIES as readonly string[]).includes(u.country) ? u.country : 'CH',
      })
    } catch (err) {
      setFailure(errorMessage(err, tc))
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    const local: Record<string, string> = {}
    for (const k of REQUIRED) if (!fields[k].trim()) local[k] = t('rfids.form.tagRequired')
    setErrors(local)
    setFailure(null)
    if (Object.keys(local).length) return
    setBusy(true)
    try {
      const r = await orderRfid(installationId, fields)
      onOrdered(r.detail)
    } catch (err) {
      const f = fieldErrors(err)
      setErrors(f)
      if (!Object.keys(f).length) setFailure(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  const input = (name: keyof OrderFields, label: string, opts: { optional?: boolean; autoComplete?: string } = {}) => (
    <div>
      <label htmlFor={`${prefix}-${name}`} className="block text-sm font-medium text-slate-700">
        {label}
        {opts.optional ? <span className="font-normal text-slate-500"> ({t('rfids.form.optional')})</span> : null}
      </label>
      <input
        id={`${prefix}-${name}`}
        value={String(fields[name])}
        autoComplete={opts.autoComplete}
        onChange={(e) => set({ [name]: e.target.value } as Partial<OrderFields>)}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `${prefix}-${name}-error` : undefined}
        className={cx('mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm', errors[name] ? 'border-red-400' : 'border-slate-300')}
      />
      {errors[name] ? (
        <p id={`${prefix}-${name}-error`} className="mt-1 text-sm text-red-700">
          {errors[name]}
        </p>
      ) : null}
    </div>
  )

  return (
    <form onSubmit={submit} noValidate aria-labelledby={titleId} className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {t('order.title')}
        </h2>
        <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => void useBilling()}>
          {t('order.useBilling')}
        </button>
      </div>
      <p className="text-sm text-slate-600">{t('order.terms')}</p>
      {failure ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {input('first_name', t('order.firstName'), { autoComplete: 'given-name' })}
        {input('last_name', t('order.lastName'), { autoComplete: 'family-name' })}
        {input('company', t('order.company'), { optional: true, autoComplete: 'organization' })}
        {input('address', t('order.address'), { autoComplete: 'street-address' })}
        {input('zip_code', t('order.zip'), { autoComplete: 'postal-code' })}
        {input('city', t('order.city'), { autoComplete: 'address-level2' })}
        <div>
          <label htmlFor={`${prefix}-country`} className="block text-sm font-medium text-slate-700">
            {t('order.country')}
          </label>
          <select id={`${prefix}-country`} value={fields.country} onChange={(e) => set({ country: e.target.value })} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm">
            {COUNTRIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${prefix}-quantity`} className="block text-sm font-medium text-slate-700">
            {t('order.quantity')}
          </label>
          <input
            id={`${prefix}-quantity`}
            type="number"
            min={1}
            max={10}
            value={fields.quantity}
            onChange={(e) => set({ quantity: Math.min(10, Math.max(1, Number(e.target.value) || 1)) })}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          />
        </div>
      </div>
      <p className="text-sm font-medium text-slate-800">{t('order.total', { price: formats.money(25 * fields.quantity) })}</p>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t('rfids.cancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={busy}>
          {t('order.submit')}
        </button>
      </div>
    </form>
  )
}
