import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { paths } from './paths.ts'
import { useDocumentTitle } from '../components/ui.tsx'

/**
 * Shown inside the shell instead of a screen the user may not open (e.g. Management typed into the
 * address bar by a resident): says so and leads back to the facility's home.
 */
export function NoAccess({ installationId }: { installationId: number }) {
  const { t } = useTranslation()
  useDocumentTitle(t('noAccess.title'))
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <p className="text-5xl font-bold text-brand-600" aria-hidden="true">
        403
      </p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t('noAccess.title')}</h1>
      <p className="mt-2 text-slate-600">{t('noAccess.text')}</p>
      <Link
        href={paths.facility(installationId)}
        className="mt-6 inline-flex rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
      >
        {t('noAccess.home')}
      </Link>
    </div>
  )
}
