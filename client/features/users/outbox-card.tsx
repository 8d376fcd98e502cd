import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { Badge, Card, Loading } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { fetchOutbox, userKeys } from './api.ts'

/** The mail outbox's newest messages with their state, attempts and last error (superusers only). */
export function OutboxCard({ timezone }: { timezone: string }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const f = useFormats(timezone)
  const titleId = useId()
  const query = useQuery({ queryKey: userKeys.outbox(), queryFn: ({ signal }) => fetchOutbox(signal).then((p) => p.results) })
  const rows = query.data ?? null
  return (
    <Card title={t('outbox.title')} titleId={titleId}>
      {rows === null ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('outbox.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {rows.map((m) => (
            <li key={m.id} className="py-2 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 truncate text-slate-800">{m.subject} → {m.recipient}</span>
                <Badge tone={m.status === 'sent' ? 'green' : m.attempts ? 'amber' : 'gray'}>{t(`outbox.${m.status}`)}</Badge>
              </div>
              <p className="text-xs text-slate-500">
                {m.status === 'sent' && m.sent_at
                  ? t('outbox.sentAt', { date: f.dateTime(m.sent_at) })
                  : t('outbox.nextAttempt', { date: f.dateTime(m.next_attempt_at), attempts: m.attempts })}
                {m.last_error ? ` · ${m.last_error}` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
