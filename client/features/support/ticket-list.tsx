import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths.ts'
import { Badge } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import type { SupportTicketSummary } from './api.ts'

/** Tickets as a list of links to their conversation; `withOwner` shows who opened each (support's inbox). */
export function TicketList({ installationId, timezone, tickets, label, withOwner = false }: { installationId: number; timezone: string; tickets: SupportTicketSummary[]; label: string; withOwner?: boolean }) {
  const { t } = useTranslation('support')
  const f = useFormats(timezone)
  if (!tickets.length) return <p className="text-sm text-slate-600">{t('tickets.empty')}</p>
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {tickets.map((ticket) => (
        <li key={ticket.id} aria-label={t('tickets.item', { n: ticket.id })}>
          <Link href={paths.supportTicket(installationId, ticket.id)} className="block px-4 py-3 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
            <span className="flex flex-wrap items-center gap-2">
              <span className="font-semibold text-slate-900">{t('tickets.number', { n: ticket.id })}</span>
              <span className="text-slate-700">{t(`topics.${ticket.topic}`)}</span>
              <Badge tone={ticket.status === 'open' ? 'green' : 'gray'}>{t(`status.${ticket.status}`)}</Badge>
            </span>
            <span className="mt-1 block truncate text-sm text-slate-600">{ticket.message}</span>
            <span className="mt-1 block text-xs text-slate-500">
              {withOwner ? `${ticket.owner.full_name} · ` : ''}
              {t('tickets.activity', { date: f.dateTime(ticket.last_activity), count: ticket.messages_count })}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
