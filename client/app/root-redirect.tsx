import { useEffect, useState } from 'react'
import { Redirect, useLocation } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useSnapshot } from 'valtio'
import { lastInstallationId, logout, session } from '../session/session.ts'
import { ensureInstallations } from '../session/api.ts'
import { errorMessage } from '../api/errors.ts'
import { paths } from './paths.ts'
import { Loading, Notice } from '../components/ui.tsx'

/** `/`: the last opened facility (or the first), or /login when logged out. */
export function RootRedirect() {
  const { t } = useTranslation()
  const { loggedIn } = useSnapshot(session)
  const [, navigate] = useLocation()
  const [problem, setProblem] = useState<'none' | string | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!loggedIn) return
    let active = true
    ensureInstallations(attempt > 0)
      .then((list) => {
        if (!active) return
        const last = lastInstallationId()
        const target = list.find((i) => i.id === last) ?? list[0]
        if (target) navigate(paths.facility(target.id), { replace: true })
        else setProblem('none')
      })
      .catch((err: unknown) => {
        if (active && !(err as { loggedOut?: boolean }).loggedOut) setProblem(errorMessage(err, t))
      })
    return () => {
      active = false
    }
  }, [loggedIn, attempt, navigate, t])

  if (!loggedIn) return <Redirect to={paths.login} replace />
  if (problem === null) return <Loading label={t('loading')} className="min-h-screen" />
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-4">
      <Notice tone={problem === 'none' ? 'info' : 'error'} role={problem === 'none' ? 'status' : 'alert'}>
        {problem === 'none' ? t('root.noFacility') : problem}
      </Notice>
      <div className="flex gap-3">
        {problem !== 'none' ? (
          <button type="button" className="btn-primary" onClick={() => setAttempt((n) => n + 1)}>
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
