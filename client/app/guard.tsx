import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Installation } from '../../shared/schemas/installation.ts'
import { errorMessage } from '../api/errors.ts'
import { Loading, Notice } from '../components/ui.tsx'
import { NoAccess } from './no-access.tsx'
import type { GuardedScreen } from './rights.ts'
import { useRights } from './use-rights.ts'

/**
 * Render `children` only when the user may open `screen` (client/app/rights.ts, the API's rules);
 * otherwise the no-access page. Nothing of the screen loads before the rights are known, so no form
 * appears that the API would refuse on save.
 */
export function Guard({ installation, screen, children }: { installation: Installation; screen: GuardedScreen; children: ReactNode }) {
  const { t } = useTranslation()
  const { rights, error, retry } = useRights(installation)
  if (rights) return rights.mayOpen(screen) ? <>{children}</> : <NoAccess installationId={installation.id} />
  if (error && !(error as { loggedOut?: boolean }).loggedOut) {
    return (
      <Notice tone="error" role="alert">
        {errorMessage(error, t)}{' '}
        <button type="button" className="font-semibold underline" onClick={retry}>
          {t('retry')}
        </button>
      </Notice>
    )
  }
  return <Loading label={t('loading')} />
}
