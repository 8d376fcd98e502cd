import type { ReactNode } from 'react'
import { Link, Redirect, useLocation } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { forcedLoginUrl, logout } from '../session/session.ts'
import { useSession } from '../session/use-session.ts'
import { ensureUser } from '../session/api.ts'
import { meKeys } from '../features/settings/api.ts'
import { QueryProblem } from '../components/query-problem.tsx'
import { Brand } from '../components/brand.tsx'
import { LanguageSelect } from '../components/language-select.tsx'
import { Loading } from '../components/ui.tsx'
import { paths } from './paths.ts'
import { NotFound } from './not-found.tsx'

/**
 * The frame of the operator's pages (/operator/…), which belong to no installation: a superuser
 * reaches them before any installation exists (an empty database after the first start). Requires a
 * session (else /login, back here after) and a superuser (else the 404 page, as for any page out of
 * reach); the header leads back to the facilities, to the language and to log out.
 */
export function OperatorLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const [location] = useLocation()
  const loggedIn = useSession((s) => s.loggedIn)
  const user = useSession((s) => s.user)
  const query = useQuery({ queryKey: meKeys.user(), queryFn: () => ensureUser().then(() => true), enabled: loggedIn })

  if (!loggedIn) return <Redirect to={forcedLoginUrl(null, location)} replace />
  let content: ReactNode
  if (user) content = user.is_superuser ? children : <NotFound embedded />
  else if (query.isError && !query.isFetching) content = <QueryProblem error={query.error} onRetry={query.refetch} />
  else content = <Loading label={t('loading')} />

  return (
    <div className="min-h-screen bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        {t('skipToContent')}
      </a>
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur">
        <nav aria-label={t('nav.label')} className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2.5 md:px-6">
          <div className="flex items-center gap-2">
            <Brand />
          </div>
          <Link href={paths.root} className="rounded-lg px-2 py-1.5 text-sm font-medium text-brand-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
            {t('nav.backToFacilities')}
          </Link>
          <div className="ml-auto flex items-center gap-2">
            <LanguageSelect compact />
            <button
              type="button"
              onClick={logout}
              className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              {t('nav.logout')}
            </button>
          </div>
        </nav>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-5 focus:outline-none md:px-6 md:py-6">
        {content}
      </main>
    </div>
  )
}
