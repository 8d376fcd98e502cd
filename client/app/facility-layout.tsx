import { lazy, memo, startTransition, Suspense, useEffect, useState } from 'react'
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import type { Installation } from '../../shared/schemas/installation.ts'
import { forcedLoginUrl, selectInstallation } from '../session/session.ts'
import { useSession } from '../session/use-session.ts'
import { ensureInstallations, ensureUser } from '../session/api.ts'
import { meKeys } from '../features/settings/api.ts'
import { QueryProblem } from '../components/query-problem.tsx'
import { paths, patterns } from './paths.ts'
import { Shell } from './shell.tsx'
import { NotFound } from './not-found.tsx'
import { Guard } from './guard.tsx'
import { Loading } from '../components/ui.tsx'
import { withNamespaces } from '../i18n/index.ts'
import { PowerFlowPending, PowerFrame } from '../features/power/power-frame.tsx'
import { useAfterFirstPaint } from './first-paint.ts'

const HomePage = lazy(withNamespaces(() => import('../features/home/home-page.tsx'), ['home']))
const loadPowerPage = withNamespaces(() => import('../features/power/power-page.tsx'), ['power', 'charging'])
const PowerPage = lazy(loadPowerPage)
const SettingsPage = lazy(() => import('../features/settings/settings-page.tsx'))
const PaymentMethodsPage = lazy(() => import('../features/settings/payment-methods-page.tsx'))
const UsersPage = lazy(() => import('../features/users/users-page.tsx'))
const UserPage = lazy(() => import('../features/users/user-page.tsx'))
const PermissionsPage = lazy(() => import('../features/permissions/permissions-page.tsx'))
const RfidsPage = lazy(() => import('../features/rfids/rfids-page.tsx'))
const SessionsPage = lazy(() => import('../features/sessions/sessions-page.tsx'))
const SessionReviewPage = lazy(() => import('../features/sessions/review-page.tsx'))
const SessionDetailPage = lazy(() => import('../features/sessions/session-detail-page.tsx'))
const StationPage = lazy(() => import('../features/power/station-page.tsx'))
const ChartsPage = lazy(() => import('../features/charts/charts-page.tsx'))
const PricingPage = lazy(() => import('../features/pricing/pricing-page.tsx'))
const RatesPage = lazy(() => import('../features/rates/rates-page.tsx'))
const ReportsPage = lazy(() => import('../features/reports/reports-page.tsx'))
const DisplaysPage = lazy(withNamespaces(() => import('../features/power/displays-page.tsx'), ['power']))
const LegalPage = lazy(() => import('../features/legal/legal-page.tsx'))
const OverviewPage = lazy(() => import('../features/overview/overview-page.tsx'))
const InstallationViewPage = lazy(() => import('../features/installation-view/installation-view-page.tsx'))
const InstallationSettingsPage = lazy(withNamespaces(() => import('../features/provisioning/installation-settings-page.tsx'), ['provisioning', 'pricing']))
const ObjectsPage = lazy(withNamespaces(() => import('../features/provisioning/objects-page.tsx'), ['provisioning']))
const MetersPage = lazy(withNamespaces(() => import('../features/provisioning/meters-page.tsx'), ['provisioning']))
const StationSetupPage = lazy(withNamespaces(() => import('../features/provisioning/stations-page.tsx'), ['provisioning']))
const LoadManagementPage = lazy(withNamespaces(() => import('../features/load/load-management-page.tsx'), ['provisioning', 'power']))
const SupportPage = lazy(withNamespaces(() => import('../features/support/support-page.tsx'), ['support']))
const SupportInboxPage = lazy(withNamespaces(() => import('../features/support/inbox-page.tsx'), ['support']))
const TicketPage = lazy(withNamespaces(() => import('../features/support/ticket-page.tsx'), ['support']))

/**
 * Everything under /facility/:installationId: requires a session (else /login with the
 * installation and the path, SPEC §2), makes the installation the current one, loads the
 * installation list and the user (into the session store, through queries: retried, with Try again),
 * and renders the page inside the shell. Management screens are
 * guarded: a user without the right gets the no-access page, not the screen (client/app/rights.ts).
 */
export function FacilityLayout({ installationId }: { installationId: string }) {
  const id = Number(installationId)
  const valid = Number.isInteger(id) && id > 0
  const { t } = useTranslation()
  const [location] = useLocation()
  const search = useSearch()
  const loggedIn = useSession((s) => s.loggedIn)
  const installations = useSession((s) => s.installations)

  useEffect(() => {
    if (valid && loggedIn) selectInstallation(id)
  }, [id, valid, loggedIn])

  // Nothing is asked of the API before the first paint (client/app/first-paint.ts).
  const painted = useAfterFirstPaint()

  // Power: its chunk, texts and live stream ticket load while the installation list does.
  const onPower = location === paths.power(id)
  useEffect(() => {
    if (!valid || !loggedIn || !onPower || !painted) return
    void loadPowerPage().catch(() => undefined)
    // Imported here, not at the top: the live client stays out of the Login route's bundle.
    void import('../live/connection.ts').then((live) => live.prewarmStream(id), () => undefined)
  }, [id, valid, loggedIn, onPower, painted])

  const installation = installations?.find((i) => i.id === id) as Installation | undefined
  const missing = installations !== null && !installation
  const [queries, setQueries] = useState<SessionQueriesState>({ failed: null, rechecked: null })

  if (!valid) return <NotFound />
  if (!loggedIn) return <Redirect to={forcedLoginUrl(id, location + (search ? `?${search}` : ''))} replace />

  // Power paints its heading and first tile while the list, the user and its chunk load:
  // they need none of them. Its texts are loaded before the first render (client/main.tsx).
  const loading = <Loading label={t('loading')} />
  const pending = onPower ? (
    <Suspense fallback={loading}>
      <PowerFrame>
        <PowerFlowPending />
      </PowerFrame>
    </Suspense>
  ) : (
    loading
  )

  const failed = queries.failed
  let content
  if (failed && !installation) {
    content = <QueryProblem error={failed.error} onRetry={failed.retry} />
  } else if (installations === null || (missing && queries.rechecked !== id)) {
    content = pending
  } else if (!installation) {
    content = <NotFound embedded />
  } else {
    content = (
      <Suspense fallback={pending}>
        <Switch>
          <Route path={patterns.facility}>
            <HomePage installation={installation} />
          </Route>
          <Route path={patterns.sessions}>
            <SessionsPage installation={installation} />
          </Route>
          <Route path={patterns.station}>
            {(params) => <StationPage installation={installation} stationId={params.stationId} />}
          </Route>
          <Route path={patterns.sessionReview}>
            <Guard installation={installation} screen="sessionReview">
              <SessionReviewPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.sessionDetail}>
            {(params) => <SessionDetailPage installation={installation} sessionId={params.sessionId} />}
          </Route>
          <Route path={patterns.rfids}>
            <RfidsPage installation={installation} />
          </Route>
          <Route path={patterns.users}>
            <Guard installation={installation} screen="users">
              <UsersPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.userPermissions}>
            {(params) => (
              <Guard installation={installation} screen="users">
                <PermissionsPage key={params.userId} installation={installation} userId={Number(params.userId)} />
              </Guard>
            )}
          </Route>
          <Route path={patterns.user}>
            {(params) => (
              <Guard installation={installation} screen="users">
                <UserPage key={params.userId} installation={installation} userId={Number(params.userId)} />
              </Guard>
            )}
          </Route>
          <Route path={patterns.paymentMethods}>
            <PaymentMethodsPage installation={installation} />
          </Route>
          <Route path={patterns.settings}>
            <SettingsPage installation={installation} />
          </Route>
          <Route path={patterns.power}>
            <PowerPage installation={installation} />
          </Route>
          <Route path={patterns.charts}>
            <ChartsPage installation={installation} />
          </Route>
          <Route path={patterns.pricing}>
            <PricingPage installation={installation} />
          </Route>
          <Route path={patterns.rates}>
            <Guard installation={installation} screen="rates">
              <RatesPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.reports}>
            <Guard installation={installation} screen="reports">
              <ReportsPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.displays}>
            <Guard installation={installation} screen="displays">
              <DisplaysPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.installationSettings}>
            <Guard installation={installation} screen="installationSettings">
              <InstallationSettingsPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.objects}>
            <Guard installation={installation} screen="objects">
              <ObjectsPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.meters}>
            <Guard installation={installation} screen="meters">
              <MetersPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.stationSetup}>
            <Guard installation={installation} screen="stationSetup">
              <StationSetupPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.loadManagement}>
            <Guard installation={installation} screen="loadManagement">
              <LoadManagementPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.legal}>
            <Guard installation={installation} screen="legal">
              <LegalPage installation={installation} />
            </Guard>
          </Route>
          <Route path={patterns.overview}>
            <OverviewPage installation={installation} />
          </Route>
          <Route path={patterns.installationView}>
            <InstallationViewPage installation={installation} />
          </Route>
          <Route path={patterns.support}>
            <SupportPage installation={installation} />
          </Route>
          <Route path={patterns.supportInbox}>
            <SupportInboxPage installation={installation} />
          </Route>
          <Route path={patterns.supportTicket}>
            {(params) => <TicketPage key={params.conversationId} installation={installation} conversationId={params.conversationId} />}
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
      {painted ? <SessionQueries installationId={id} loggedIn={loggedIn} missing={missing} onChange={setQueries} /> : null}
      {content}
    </Shell>
  )
}

/** What {@link SessionQueries} tells the layout. */
interface SessionQueriesState {
  /** The list's or the user's read, failed for good (after its retries), with its "Try again". */
  failed: { error: unknown; retry: () => unknown } | null
  /** The installation whose absence from the list was checked again with a fresh list. */
  rechecked: number | null
}

/**
 * The installation list and the user (into the session store, through queries: retried, with Try
 * again). Its own component, rendering nothing: a query's result is read with
 * useSyncExternalStore, whose updates React renders synchronously, and in the layout each of them
 * rendered the shell and the whole page again in one task. It tells the layout only of a failure or
 * a finished recheck, in a transition.
 */
const SessionQueries = memo(function SessionQueries({
  installationId,
  loggedIn,
  missing,
  onChange,
}: {
  installationId: number
  loggedIn: boolean
  missing: boolean
  onChange: (state: SessionQueriesState) => void
}) {
  // The session store keeps the list (SPEC §9: reloaded after 6 h) and the user; the queries ask for them.
  const listQuery = useQuery({ queryKey: meKeys.installations(), queryFn: () => ensureInstallations().then(() => true), enabled: loggedIn })
  const userQuery = useQuery({ queryKey: meKeys.user(), queryFn: () => ensureUser().then(() => true), enabled: loggedIn })
  const failed = [listQuery, userQuery].find((q) => q.isError && !q.isFetching)
  // Maybe the facility was added since the list was loaded: ask for the list again before "not found".
  const recheck = useQuery({
    queryKey: meKeys.installationRecheck(installationId),
    queryFn: () => ensureInstallations(true).then(() => true),
    enabled: loggedIn && missing,
  })
  const rechecked = missing && !recheck.isPending ? installationId : null
  const error = failed?.error ?? null
  const retry = failed?.refetch
  useEffect(() => {
    startTransition(() => onChange({ failed: error !== null && retry ? { error, retry } : null, rechecked }))
  }, [error, retry, rechecked, onChange])
  return null
})
