import { useEffect, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { useTranslation } from 'react-i18next'
import { apiFetch } from '../api/http.ts'
import { paths } from './paths.ts'

/**
 * Asks the signed-in person to read and accept the legal documents whose current version they have not
 * accepted (issue 13 §6: after a superuser publishes a new version, everyone is asked again on their
 * next sign-in). Links to Settings, where each text can be read and accepted. It asks the API once when
 * the frame opens and, while something is still to accept, again on each navigation (so it disappears
 * after accepting); a failure to ask hides it, since it only reminds.
 */
export function LegalReminder({ installationId }: { installationId: number }) {
  const { t } = useTranslation()
  const [location] = useLocation()
  const [pending, setPending] = useState<string[] | null>(null)
  const asking = pending === null || pending.length > 0
  useEffect(() => {
    if (!asking) return
    const ctrl = new AbortController()
    apiFetch<{ title: string; accepted_at: string | null }[]>('/api/cockpit/legal', { signal: ctrl.signal }).then(
      (docs) => setPending(docs.filter((d) => !d.accepted_at).map((d) => d.title)),
      () => undefined,
    )
    return () => ctrl.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location])
  if (!pending?.length) return null
  return (
    <section aria-label={t('legal.reminderLabel')} className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-xl border border-sky-200 bg-sky-50 px-4 py-2.5 text-sm text-sky-950">
      <p>{t('legal.reminder', { documents: pending.join(', ') })}</p>
      <Link href={paths.settings(installationId)} className="font-medium text-sky-800 underline">
        {t('legal.readAndAccept')}
      </Link>
    </section>
  )
}
