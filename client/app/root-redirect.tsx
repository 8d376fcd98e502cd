import { useEffect } from 'react'
import { Redirect, useLocation } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { useSnapshot } from 'valtio'
import { lastInstallationId, logout, session } from '../session/session.ts'
import { ensureInstallations, ensureUser } from '../session/api.ts'
import { errorMessage } from '../api/errors.ts'
import { isLoggedOut } from '../components/query-problem.tsx'
import { meKeys } from '../features/settings/api.ts'
import { paths } from './paths.ts'
import { Loading, Notice } from '../components/ui.tsx'

/**
 * `/`: the last opened facility (or the first), or /login when logged out. A superuser without any
 * installation (a new, empty database) is led to the operator's Installations list to create one.
 */
export function RootRedirect() {
  const { t } = useTranslation()
  const { loggedIn, installations, user } = useSnapshot(session)
  const [, navigate] = useLocation()
  // The list goes into the session store (the facility frame asks with the same query).
  const query = useQuery({ queryKey: meKeys.installations(), queryFn: () => ensureInstallations().then(() => true), enabled: loggedIn })
  const last = lastInstallationId()
  const target = query.isSuccess ? (installations?.find((i) => i.id === last) ?? installations?.[0]) : undefined

  useEffect(() => {
    if (target) navigate(paths.facility(target.id), { replace: true })
  }, [target, navigate])

  const problem: 'none' | string | null =
    query.isError && !query.isFetching
      ? isLoggedOut(query.error) ? null : errorMessage(query.error, t)
      : query.isSuccess && installations && !target ? 'none' : null

  // Only asked when there is no facility to go to: whether the user may create one.
  useQuery({ queryKey: meKeys.user(), queryFn: () => ensureUser().then(() => true), enabled: loggedIn && problem === 'none' })

  if (!loggedIn) return <Redirect to={paths.login} replace />
  if (problem === 'none' && user?.is_superuser) return <Redirect to={paths.installations} replace />
  if (problem === null) return <Loading label={t('loading')} className="min-h-screen" />
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-4">
      <Notice tone={problem === 'none' ? 'info' : 'error'} role={problem === 'none' ? 'status' : 'alert'}>
        {problem === 'none' ? t('root.noFacility') : problem}
      </Notice>
      <div className="flex gap-3">
        {problem !== 'none' ? (
          <button type="button" className="btn-primary" onClick={() => void query.refetch()}>
            {t('retry')}
          </button>
        ) : null}
        <button type="button" className="btn-secondary" onClick={logout}>
          {t('nav.logout')}
        </button>
      </div>
    </main>
  )
}
