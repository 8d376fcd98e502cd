import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useSnapshot } from 'valtio'
import { session } from '../session/session.ts'
import { paths } from './paths.ts'
import { useDocumentTitle } from '../components/ui.tsx'

/** 404 (SPEC §2): back to home when logged in, else to login. `embedded` renders inside the shell. */
export function NotFound({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation()
  const { loggedIn } = useSnapshot(session)
  useDocumentTitle(t('notFound.title'))
  const body = (
    <div className="mx-auto max-w-md py-16 text-center">
      <p className="text-5xl font-bold text-brand-600" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t('notFound.title')}</h1>
      <p className="mt-2 text-slate-600">{t('notFound.text')}</p>
      <Link
        href={loggedIn ? paths.root : paths.login}
        className="mt-6 inline-flex rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
      >
        {loggedIn ? t('notFound.home') : t('notFound.login')}
      </Link>
    </div>
  )
  return embedded ? body : <main className="min-h-screen bg-slate-50 px-4">{body}</main>
}
