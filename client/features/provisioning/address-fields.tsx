import { useTranslation } from 'react-i18next'
import { SelectField, TextField } from '../../components/text-field.tsx'
import type { Address } from './api.ts'
import type { AddressValues } from './validate.ts'

/** Empty address fields, in Switzerland. */
export function emptyAddress(): AddressValues {
  return { street: '', building_number: '', zip: '', city: '', country: 'CH' }
}

/** The fields of `a` as typed, or empty ones when the installation has no address yet. */
export function addressValues(a: Address | null | undefined): AddressValues {
  return a ? { ...a } : emptyAddress()
}

/** The API body of the typed address (trimmed). */
export function toAddress(v: AddressValues): Address {
  return { street: v.street.trim(), building_number: v.building_number.trim(), zip: v.zip.trim(), city: v.city.trim(), country: v.country === 'LI' ? 'LI' : 'CH' }
}

/**
 * An installation's address in a fieldset: street, number, zip, city and country (Switzerland or
 * Liechtenstein). `error(field)` gives the message under a field, with fields named `address.<field>` as the API names them.
 */
export function AddressFields({ values, onChange, error }: { values: AddressValues; onChange: (v: AddressValues) => void; error: (field: string) => string | null }) {
  const { t } = useTranslation('provisioning')
  const set = (field: keyof AddressValues) => (e: { target: { value: string } }) => onChange({ ...values, [field]: e.target.value })
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-800">{t('fields.address')}</legend>
      <div className="mt-2 grid grid-cols-1 gap-4 sm:grid-cols-6">
        <div className="sm:col-span-4">
          <TextField label={t('fields.street')} value={values.street} maxLength={70} autoComplete="address-line1" error={error('address.street')} onChange={set('street')} />
        </div>
        <div className="sm:col-span-2">
          <TextField label={t('fields.building_number')} value={values.building_number} maxLength={16} error={error('address.building_number')} onChange={set('building_number')} />
        </div>
        <div className="sm:col-span-2">
          <TextField label={t('fields.zip')} value={values.zip} maxLength={16} inputMode="numeric" autoComplete="postal-code" error={error('address.zip')} onChange={set('zip')} />
        </div>
        <div className="sm:col-span-2">
          <TextField label={t('fields.city')} value={values.city} maxLength={35} autoComplete="address-level2" error={error('address.city')} onChange={set('city')} />
        </div>
        <div className="sm:col-span-2">
          <SelectField label={t('fields.country')} value={values.country} error={error('address.country')} onChange={set('country')}
            options={[{ value: 'CH', label: t('countries.CH') }, { value: 'LI', label: t('countries.LI') }]} />
        </div>
      </div>
    </fieldset>
  )
}
