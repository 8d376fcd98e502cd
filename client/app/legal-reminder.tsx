import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { fetchLegal, meKeys } from '../features/settings/api.ts'
import { paths } from './paths.ts'

/**
 * Asks the signed-in person to read and accept the legal documents whose current version they have not
 * accepted (after a superuser publishes a new version, everyone is asked again on their
 * next sign-in). Links to Settings, where each text can be read and accepted. It reads the same cached
 * list as Settings, which accepting replaces with the API's answer, so the reminder
 * disappears at once; the cache is dropped at logout, so each sign-in asks afresh. A failure to ask
 * hides it, since it only reminds.
 */
export function LegalReminder({ installationId }: { installationId: number }) {
  const { t } = useTranslation()
  const { data } = useQuery({ queryKey: meKeys.legal(), queryFn: ({ signal }) => fetchLegal(signal) })
  const pending = (data ?? []).filter((d) => !d.accepted_at).map((d) => d.title)
  if (!pending.length) return null
  return (
    <section aria-label={t('legal.reminderLabel')} className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-xl border border-sky-200 bg-sky-50 px-4 py-2.5 text-sm text-sky-950">
      <p>{t('legal.reminder', { documents: pending.join(', ') })}</p>
      <Link href={paths.settings(installationId)} className="font-medium text-sky-800 underline">
        {t('legal.readAndAccept')}
      </Link>
    </section>
  )
}
