import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { session } from '../../session/session.ts'
import { OperatorCard } from '../pricing/operator-card.tsx'
import { fetchInstallationDetail, provisioningKeys, saveInstallationSettings, type InstallationDetail } from './api.ts'
import { AddressFields, addressValues, toAddress } from './address-fields.tsx'
import { timeZones, validateInstallation, type FormErrors } from './validate.ts'
import { ceilingTexts, DebitCeilings, readCeilings } from './debit-ceilings.tsx'
import { useFormats } from '../../components/use-formats.ts'

/** Put the saved fields into the session's installation list (the header and the facility selector show the name). */
function intoSession(saved: Partial<Installation> & { id: number }) {
  if (session.installations) session.installations = session.installations.map((i) => (i.id === saved.id ? { ...i, ...saved } : i))
}

/**
 * Management → Installation settings (admins): name, time zone and address of the installation, its debit
 * ceilings (typed by superusers, read-only for admins), and the operator who bills charging (the card
 * Pricing shows too: legal name, address, VAT, IBAN).
 */
export default function InstallationSettingsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('settings.title'))
  const query = useQuery({ queryKey: provisioningKeys.detail(installation.id), queryFn: ({ signal }) => fetchInstallationDetail(installation.id, signal) })
  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('settings.title')}</h1>
      {query.data ? (
        <SettingsForm key={query.data.id} detail={query.data} />
      ) : query.isError && !query.isFetching ? (
        <QueryProblem error={query.error} onRetry={query.refetch} />
      ) : (
        <Loading label={tc('loading')} />
      )}
      <OperatorCard installation={installation} onSaved={(saved) => intoSession({ id: saved.id, operator: saved.operator })} />
    </div>
  )
}

function SettingsForm({ detail }: { detail: InstallationDetail }) {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  const queryClient = useQueryClient()
  const titleId = useId()
  const [name, setName] = useState(detail.name)
  const [timezone, setTimezone] = useState(detail.timezone)
  const [address, setAddress] = useState(() => addressValues(detail.address))
  const f = useFormats()
  const superuser = detail.role === 'superuser'
  const [ceilings, setCeilings] = useState(() => ceilingTexts(detail.debit_ceilings, f.number))
  const [errors, setErrors] = useState<FormErrors>({})
  const [feedback, setFeedback] = useState<{ tone: 'info' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const msg = (field: string) => (errors[field] ? (errors[field].startsWith('validation.') ? t(errors[field]) : errors[field]) : null)
  const readOnly = Boolean(detail.archived_at)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFeedback(null)
    const found = validateInstallation({ name, timezone, address })
    // Debit ceilings: superusers only (the API refuses anyone else); the API checks their range.
    const read = superuser ? readCeilings(ceilings, f.locale) : null
    for (const field of read?.invalid ?? []) found[field] = t('settings.ceilings.invalid')
    setErrors(found)
    if (Object.keys(found).length) return setFeedback({ tone: 'error', text: t('checkFields') })
    setBusy(true)
    try {
      const saved = await saveInstallationSettings(detail.id, { name: name.trim(), timezone, address: toAddress(address), ...(read && { debit_ceilings: read.value }) })
      queryClient.setQueryData(provisioningKeys.detail(detail.id), saved)
      setCeilings(ceilingTexts(saved.debit_ceilings, f.number))
      intoSession({ id: saved.id, name: saved.name, timezone: saved.timezone })
      // The operator's list shows the name and the city.
      void queryClient.invalidateQueries({ queryKey: provisioningKeys.statusAll() })
      setFeedback({ tone: 'info', text: t('settings.saved') })
    } catch (err) {
      const fields = fieldErrors(err)
      setErrors(fields)
      setFeedback({ tone: 'error', text: Object.keys(fields).length ? t('checkFields') : errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title={t('settings.general')} titleId={titleId}>
      {readOnly ? <Notice tone="info" className="mb-3">{t('settings.archived')}</Notice> : null}
      <form noValidate onSubmit={submit} aria-busy={busy} className="space-y-4">
        <fieldset disabled={readOnly} className="space-y-4">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField label={t('fields.name')} value={name} maxLength={100} error={msg('name')} onChange={(e) => setName(e.target.value)} />
            <SelectField label={t('fields.timezone')} value={timezone} error={msg('timezone')} onChange={(e) => setTimezone(e.target.value)}
              options={timeZones(detail.timezone).map((z) => ({ value: z, label: z.replaceAll('_', ' ') }))} />
          </div>
          <p className="text-xs text-slate-500">{t('settings.timezoneHint')}</p>
          <AddressFields values={address} onChange={setAddress} error={msg} />
          <DebitCeilings ceilings={detail.debit_ceilings} texts={ceilings} editable={superuser} error={msg} onChange={setCeilings} />
        </fieldset>
        {feedback ? <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'}>{feedback.text}</Notice> : null}
        {readOnly ? null : (
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? t('saving') : t('save')}
          </button>
        )}
      </form>
    </Card>
  )
}
