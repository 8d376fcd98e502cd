import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { OcppCredentials } from './api.ts'

/**
 * The OCPP credentials of a charging station, right after it was created or its password rotated: charge
 * point id, password and URL (what the electrician enters in the wallbox), each with a copy button.
 * The server keeps only the password's hash, so this is the one time it can be read; the panel says so
 * and the page forgets it when `onDone` is called (nothing of it goes into the query cache). Focus moves
 * to its heading when it appears, so a screen reader reads it at once.
 */
export function OcppCredentialsPanel({ stationName, credentials, onDone }: { stationName: string; credentials: OcppCredentials; onDone: () => void }) {
  const { t } = useTranslation('provisioning')
  const titleId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const [copied, setCopied] = useState<string | null>(null)
  useEffect(() => heading.current?.focus(), [])

  async function copy(field: keyof OcppCredentials) {
    try {
      await navigator.clipboard.writeText(credentials[field])
      setCopied(t('credentials.copied', { field: t(`credentials.${field}`) }))
    } catch {
      setCopied(t('credentials.copyFailed'))
    }
  }

  const rows: (keyof OcppCredentials)[] = ['charge_point_id', 'password', 'url']
  return (
    <section aria-labelledby={titleId} className="rounded-2xl border-2 border-amber-400 bg-amber-50 p-4 shadow-sm sm:p-5">
      <h2 id={titleId} ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
        {t('credentials.title', { name: stationName })}
      </h2>
      <p className="mt-1 text-sm font-medium text-amber-950">{t('credentials.once')}</p>
      <dl className="mt-3 space-y-3">
        {rows.map((field) => (
          <div key={field} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
            <dt className="text-sm font-medium text-slate-700 sm:w-40 sm:shrink-0">{t(`credentials.${field}`)}</dt>
            <dd className="flex min-w-0 flex-1 items-center gap-2">
              <code className="min-w-0 flex-1 break-all rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm text-slate-900">{credentials[field]}</code>
              <button
                type="button"
                className="btn-secondary min-h-11 shrink-0 px-3"
                aria-label={t('credentials.copy', { field: t(`credentials.${field}`) })}
                onClick={() => void copy(field)}
              >
                {t('credentials.copyShort')}
              </button>
            </dd>
          </div>
        ))}
      </dl>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-700">
        {copied ?? ''}
      </p>
      <button type="button" className="btn-primary mt-2" onClick={onDone}>
        {t('credentials.done')}
      </button>
    </section>
  )
}
