import { lazy, Suspense, useEffect, useState } from 'react'
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../shared/schemas/installation.ts'
import { forcedLoginUrl, selectInstallation, session } from '../session/session.ts'
import { ensureInstallations, ensureUser } from '../session/api.ts'
import { errorMessage } from '../api/errors.ts'
import { patterns } from './paths.ts'
import { Shell } from './shell.tsx'
import { NotFound } from './not-found.tsx'
import { Loading, Notice } from '../components/ui.tsx'

const HomePage = lazy(() => import('../features/home/home-page.tsx'))
const PowerPage = lazy(() => import('../features/power/power-page.tsx'))

/**
 * Everything under /facility/:installationId: requires a session (else /login with the
 * installation and the path, SPEC §2), makes the installation the current one, loads the
 * installation list and the user, and renders the page inside the shell.
 */
export function FacilityLayout({ installationId }: { installationId: string }) {
  const id = Number(installationId)
  const valid = Number.isInteger(id) && id > 0
  const { t } = useTranslation()
  const [location] = useLocation()
  const search = useSearch()
  const { loggedIn, installations } = useSnapshot(session)
  const [problem, setProblem] = useState<string | null>(null)
  const [reloaded, setReloaded] = useState(false)

  useEffect(() => {
    if (valid && loggedIn) selectInstallation(id)
  }, [id, valid, loggedIn])

  useEffect(() => {
    if (!loggedIn) return
    let active = true
    const quiet = (err: unknown) => {
      if (active && !(err as { loggedOut?: boolean }).loggedOut) setProblem(errorMessage(err, t))
    }
    ensureInstallations().then(() => active && setProblem(null), quiet)
    ensureUser().catch(quiet)
    return () => {
      active = false
    }
  }, [loggedIn, t])

  const installation = installations?.find((i) => i.id === id) as Installation | undefined
  const missing = installations !== null && !installation

  // Maybe the facility was added since the list was loaded: reload the list once.
  useEffect(() => {
    if (missing && !reloaded) {
      setReloaded(true)
      ensureInstallations(true).catch(() => undefined)
    }
  }, [missing, reloaded])

  if (!valid) return <NotFound />
  if (!loggedIn) return <Redirect to={forcedLoginUrl(id, location + (search ? `?${search}` : ''))} replace />

  let content
  if (problem && !installation) {
    content = (
      <Notice tone="error" role="alert">
        {problem}
      </Notice>
    )
  } else if (installations === null || (missing && !reloaded)) {
    content = <Loading label={t('loading')} />
  } else if (!installation) {
    content = <NotFound embedded />
  } else {
    content = (
      <Suspense fallback={<Loading label={t('loading')} />}>
        <Switch>
          <Route path={patterns.facility}>
            <HomePage installation={installation} />
          </Route>
          <Route path={patterns.power}>
            <PowerPage installation={installation} />
          </Route>
          <Route>
            <NotFound embedded />
          </Route>
        </Switch>
      </Suspense>
    )
  }
  return (
    <Shell installationId={id} installation={installation}>
      {content}
    </Shell>
  )
}
