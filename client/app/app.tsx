import { lazy, Suspense } from 'react'
import { Route, Switch } from 'wouter'
import { patterns } from './paths.ts'
import { FacilityLayout } from './facility-layout.tsx'
import { RootRedirect } from './root-redirect.tsx'
import { NotFound } from './not-found.tsx'
import { PageLoading } from '../components/ui.tsx'
import { withNamespaces } from '../i18n/index.ts'
import { OperatorLayout } from './operator-layout.tsx'

const LoginPage = lazy(withNamespaces(() => import('../features/login/login-page.tsx'), ['login']))
const ForgotPasswordPage = lazy(() => import('../features/login/forgot-password-page.tsx'))
const ResetPasswordPage = lazy(() => import('../features/login/reset-password-page.tsx'))
const RegisterPage = lazy(() => import('../features/login/register-page.tsx'))
const VerifyPage = lazy(() => import('../features/login/verify-page.tsx'))
const EmailUndoPage = lazy(() => import('../features/login/email-undo-page.tsx'))
const EmailConfirmPage = lazy(() => import('../features/login/email-confirm-page.tsx'))
const InvitationPage = lazy(() => import('../features/login/invitation-page.tsx'))
// The first start (no superuser yet): its token is in the fragment, /setup#….
const SetupPage = lazy(withNamespaces(() => import('../features/setup/setup-page.tsx'), ['setup']))
// The operator's pages (superusers): outside any installation, so reachable before the first one exists.
const InstallationsPage = lazy(withNamespaces(() => import('../features/provisioning/installations-page.tsx'), ['provisioning', 'pricing']))
// Display mode: no login, no shell; its key is its credential.
const DisplayPage = lazy(withNamespaces(() => import('../features/power/display-page.tsx'), ['power']))

/** The routes (SPEC §2); screens are code-split with React.lazy. */
export function App() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Switch>
        <Route path={patterns.login} component={LoginPage} />
        <Route path={patterns.forgotPassword} component={ForgotPasswordPage} />
        <Route path={patterns.resetPassword} component={ResetPasswordPage} />
        <Route path={patterns.register} component={RegisterPage} />
        <Route path={patterns.verify} component={VerifyPage} />
        <Route path={patterns.emailUndo} component={EmailUndoPage} />
        <Route path={patterns.emailConfirm} component={EmailConfirmPage} />
        <Route path={patterns.invitation} component={InvitationPage} />
        <Route path={patterns.setup} component={SetupPage} />
        <Route path={patterns.display} component={DisplayPage} />
        <Route path={patterns.installations}>
          <OperatorLayout>
            <InstallationsPage />
          </OperatorLayout>
        </Route>
        <Route path="/" component={RootRedirect} />
        <Route path={patterns.facilityAny}>{(params) => <FacilityLayout installationId={params.installationId} />}</Route>
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </Suspense>
  )
}
