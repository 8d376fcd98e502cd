import type { ReactNode } from 'react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Loading, Notice } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import type { FormErrors } from './validate.ts'

/**
 * The state every provisioning form keeps (meters, stations, objects, installations): the errors by
 * field, the failure line under the form and whether it is saving; `msg(field)` is a field's error text
 * (a `validation.*` key of the client's checks, or the server's message), `run` submits.
 */
export function useProvisioningForm() {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  const [errors, setErrors] = useState<FormErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const msg = (field: string) => (errors[field] ? (errors[field].startsWith('validation.') ? t(errors[field]) : errors[field]) : null)

  /**
   * Show the client's findings `found`; without any, `save`. A refusal shows its field errors under
   * their fields ("please double-check" below), else its message. `namedFields`: fields a 404 or 409
   * names in its body (`{object_id: [...]}`), shown under that field with the refusal's message.
   * `sayCheckFields`: also say "please double-check" when the client's own check finds something.
   * `nested`: objects whose fields the server names with a prefix (`source_config.host`), shown at the
   * inputs named without it (`host`).
   */
  async function run(found: FormErrors, save: () => Promise<void>, { namedFields = [], sayCheckFields = true, nested = [] }: { namedFields?: readonly string[]; sayCheckFields?: boolean; nested?: readonly string[] } = {}) {
    setFailure(null)
    setErrors(found)
    if (Object.keys(found).length) {
      if (sayCheckFields) setFailure(t('checkFields'))
      return
    }
    setBusy(true)
    try {
      await save()
    } catch (err) {
      const fields = fieldErrors(err)
      for (const [key, text] of Object.entries(fields)) {
        const prefix = nested.find((n) => key.startsWith(`${n}.`))
        if (prefix) fields[key.slice(prefix.length + 1)] = text
      }
      const raw = (err as { body?: unknown }).body
      for (const field of namedFields) {
        if (!fields[field] && raw && typeof raw === 'object' && field in raw) fields[field] = errorMessage(err, tc)
      }
      setErrors(fields)
      setFailure(Object.keys(fields).length ? t('checkFields') : errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return { errors, failure, busy, msg, run }
}

/** A provisioning form's foot: its failure line, then Save (or `submitLabel`) and Cancel. */
export function FormActions({ failure, busy, submitLabel, onCancel }: { failure: string | null; busy: boolean; submitLabel?: string; onCancel: () => void }) {
  const { t } = useTranslation('provisioning')
  return (
    <>
      {failure ? <Notice tone="error" role="alert">{failure}</Notice> : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={busy}>{busy ? t('saving') : (submitLabel ?? t('save'))}</button>
        <button type="button" className="btn-secondary" onClick={onCancel}>{t('cancel')}</button>
      </div>
    </>
  )
}

/**
 * A provisioning list's body until it has rows: loading, the read's problem (with a retry) or
 * `emptyText`; then what `children` renders (called only then). `ready`: everything the list needs has arrived.
 */
export function ListState({ ready, failed, empty, emptyText, children }: { ready: boolean; failed?: { error: unknown; refetch: () => unknown }; empty: boolean; emptyText: string; children: () => ReactNode }) {
  const { t: tc } = useTranslation()
  if (!ready) return failed ? <QueryProblem error={failed.error} onRetry={failed.refetch} /> : <Loading label={tc('loading')} />
  if (empty) return <p className="text-sm text-slate-600">{emptyText}</p>
  return <>{children()}</>
}
