import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { session } from '../../session/session.ts'
import { NoAccess } from '../../app/no-access.tsx'
import { Loading, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { listTickets, supportKeys } from './api.ts'
import { TicketList } from './ticket-list.tsx'

/** The support inbox: every ticket, for superusers; open ones first by default. */
export default function SupportInboxPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('support')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('inbox.title'))
  const { user } = useSnapshot(session)
  const [status, setStatus] = useState<'open' | 'closed'>('open')
  const query = useQuery({ queryKey: supportKeys.list(status), queryFn: ({ signal }) => listTickets(status, signal), enabled: Boolean(user?.is_superuser) })
  const tickets = query.data ?? null

  if (!user) return <Loading label={tc('loading')} />
  if (!user.is_superuser) return <NoAccess installationId={installation.id} />
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('inbox.title')}</h1>
      <div role="group" aria-label={t('inbox.filter')} className="flex gap-2">
        {(['open', 'closed'] as const).map((s) => (
          <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm aria-pressed:border-brand-500 aria-pressed:bg-brand-50">
            {t(`status.${s}`)}
          </button>
        ))}
      </div>
      {tickets === null ? query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} /> : null}
      {tickets ? <TicketList installationId={installation.id} timezone={installation.timezone} tickets={tickets} label={t('inbox.title')} withOwner /> : null}
    </div>
  )
}
