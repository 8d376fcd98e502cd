import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Card, Loading, useDocumentTitle } from '../../components/ui.tsx'

/**
 * The Power page's frame (SPEC §2): its heading, with the connection state beside it, above the
 * tiles. Small and in the shell's chunk: the facility layout paints it, with {@link PowerFlowPending},
 * while the installation list and the user are still loading (the page's heading and first
 * tile waited for three API answers and the route's chunk), and the page itself renders in it.
 */
export function PowerFrame({ pill, children }: { pill?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('power')
  useDocumentTitle(t('title'))
  return (
    <div className="mx-auto max-w-7xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        {pill}
      </div>
      {children}
    </div>
  )
}

/** The flow tile before the live stream's first state: its frame and a loading line. */
export function PowerFlowPending() {
  const { t } = useTranslation('power')
  return (
    <Card titleId="power-flow-title" title={t('flow.title')}>
      <Loading label={t('loadingLive')} />
    </Card>
  )
}
