import { useTranslation } from 'react-i18next'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { readLocaleNumber, readNumberFields } from '../../components/parse-number.ts'
import { TextField } from '../../components/text-field.tsx'
import { useFormats } from '../../components/use-formats.ts'

/** The two debit ceilings as typed (CHF, the user's number format); empty: the product's default. */
export type CeilingTexts = { session: string; month: string }

/** The form's starting texts: the installation's own ceilings, empty while the defaults apply. */
export function ceilingTexts(c: Installation['debit_ceilings'], format: (value: number, digits?: number) => string): CeilingTexts {
  return c.custom ? { session: format(c.session, 2), month: format(c.month, 2) } : { session: '', month: '' }
}

/**
 * Read the typed ceilings in `locale` (client/components/parse-number.ts: "250.5" and "250,5" both, an
 * ambiguous "1.234" refused) into PATCH …/installations/{id} `debit_ceilings` (CHF; null: the default).
 * `invalid` names the form fields (`debit_ceilings.session`, `.month`) that are neither empty nor a number;
 * the range (CHF 1 to 100,000, two decimals) is the API's to refuse, at the same field names.
 */
export function readCeilings(texts: CeilingTexts, locale: string): { value: { session: number | null; month: number | null }; invalid: string[] } {
  const read = readNumberFields(texts, locale, ['session', 'month'])
  return { value: { session: read.values.session ?? null, month: read.values.month ?? null }, invalid: read.invalid.map((k) => `debit_ceilings.${k}`) }
}

/**
 * The debit ceilings of an installation's charging sessions (docs/decisions.md "Charging: plausible charger
 * figures and debit ceilings"): a superuser types them (`editable`), each field showing what will be
 * saved; anyone else sees them read-only (the API refuses their change with 403).
 */
export function DebitCeilings({ ceilings, texts, editable, error, onChange }: {
  ceilings: Installation['debit_ceilings']
  texts: CeilingTexts
  editable: boolean
  error: (field: string) => string | null
  onChange: (texts: CeilingTexts) => void
}) {
  const { t } = useTranslation('provisioning')
  const f = useFormats()
  const hint = (text: string) => {
    const r = readLocaleNumber(text, f.locale)
    return r.ok ? t('settings.ceilings.willSave', { amount: f.money(r.value) }) : t('settings.ceilings.defaultHint')
  }
  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-3 sm:p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">{t('settings.ceilings.title')}</legend>
      <p className="text-xs text-slate-600">{t('settings.ceilings.intro')}</p>
      {editable ? (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {(['session', 'month'] as const).map((k) => (
            <div key={k}>
              <TextField label={t(`settings.ceilings.${k}`)} inputMode="decimal" autoComplete="off" value={texts[k]} placeholder={f.number(ceilings[k], 2)}
                error={error(`debit_ceilings.${k}`)} onChange={(e) => onChange({ ...texts, [k]: e.target.value })} />
              <p className="mt-1 text-xs text-slate-500">{hint(texts[k])}</p>
            </div>
          ))}
        </div>
      ) : (
        <>
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
          {(['session', 'month'] as const).map((k) => (
            <div key={k}>
              <dt className="text-slate-500">{t(`settings.ceilings.${k}`)}</dt>
              <dd className="text-slate-900">{f.money(ceilings[k])}{ceilings.custom ? '' : ` (${t('settings.ceilings.default')})`}</dd>
            </div>
          ))}
        </dl>
        <p className="text-xs text-slate-500">{t('settings.ceilings.superuserOnly')}</p>
        </>
      )}
    </fieldset>
  )
}
