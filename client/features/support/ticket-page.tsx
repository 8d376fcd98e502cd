import { useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { paths } from '../../app/paths.ts'
import { session } from '../../session/session.ts'
import { Badge, Loading, Notice, cx, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { useAction } from '../../components/use-action.ts'
import { getTicket, postMessage, setTicketStatus, supportKeys, type SupportTicket } from './api.ts'

/**
 * A ticket with its conversation (SPEC §2 ticket detail, §3 "messages from you and from support"): open
 * (replies by e-mail land here) or closed. The owner and support write in it while it is open; support
 * (superusers) also closes and reopens it.
 */
export default function TicketPage({ installation, conversationId }: { installation: Installation; conversationId: string }) {
  const { t } = useTranslation('support')
  const { t: tc } = useTranslation()
  const { user } = useSnapshot(session)
  const f = useFormats(installation.timezone)
  const id = Number(conversationId)
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: supportKeys.ticket(id), queryFn: ({ signal }) => getTicket(id, signal) })
  const ticket = query.data ?? null
  const [text, setText] = useState('')
  const action = useAction()
  useDocumentTitle(t('tickets.number', { n: id }))
  // The answered ticket replaces the cached one; the lists show its new activity and status.
  const setTicket = (next: SupportTicket) => {
    queryClient.setQueryData(supportKeys.ticket(id), next)
    void queryClient.invalidateQueries({ queryKey: supportKeys.lists() })
  }

  if (!ticket) return query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
  const own = ticket.owner.id === user?.id
  const support = Boolean(user?.is_superuser) && !own

  async function send(e: FormEvent) {
    e.preventDefault()
    if (!text.trim()) return action.setFeedback({ tone: 'error', text: t('form.required') })
    await action.run(async () => {
      setTicket(await postMessage(id, text))
      setText('')
      return t('detail.added')
    })
  }
  const toggle = () =>
    action.run(async () => {
      const next = await setTicketStatus(id, ticket.status === 'open' ? 'closed' : 'open')
      setTicket(next)
      return t(next.status === 'closed' ? 'detail.closedDone' : 'detail.reopenedDone')
    })

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <Link href={support ? paths.supportInbox(installation.id) : paths.support(installation.id)} className="text-sm text-brand-700 underline">
        {support ? t('inbox.back') : t('detail.back')}
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('tickets.number', { n: ticket.id })}</h1>
        <Badge tone={ticket.status === 'open' ? 'green' : 'gray'}>{t(`status.${ticket.status}`)}</Badge>
      </div>
      <p className="text-sm text-slate-600">
        {t(`topics.${ticket.topic}`)} · {t('detail.created', { date: f.dateTime(ticket.created) })}
        {support ? ` · ${ticket.owner.full_name} (${ticket.owner.email})` : ''}
      </p>
      <p className="text-sm text-slate-600">{ticket.status === 'open' ? t('detail.openHint') : t('detail.closedHint')}</p>

      <ol aria-label={t('detail.conversation')} className="space-y-3">
        {ticket.messages.map((m) => {
          const mine = (m.author === 'user') === own
          const who = m.author === 'support' ? t('detail.fromSupport') : own ? t('detail.fromYou') : ticket.owner.full_name
          return (
            <li key={m.id} aria-label={who} className={cx('rounded-2xl border p-4 shadow-sm', mine ? 'ml-8 border-brand-200 bg-brand-50' : 'mr-8 border-slate-200 bg-white')}>
              <p className="text-xs font-semibold text-slate-600">
                {who} · {f.dateTime(m.created)} · {t(`detail.via.${m.via}`)}
              </p>
              <p className="mt-1 whitespace-pre-wrap text-sm text-slate-900">{m.body}</p>
              {m.refused_attachments.length ? <p className="mt-2 text-xs text-amber-800">{t('detail.attachmentsRefused', { names: m.refused_attachments.join(', ') })}</p> : null}
            </li>
          )
        })}
      </ol>

      {action.feedback ? <Notice tone={action.feedback.tone} role={action.feedback.tone === 'error' ? 'alert' : 'status'}>{action.feedback.text}</Notice> : null}
      {ticket.status === 'open' ? (
        <form aria-label={support ? t('detail.answer') : t('detail.write')} onSubmit={send} className="space-y-2">
          <label htmlFor="ticket-answer" className="block text-sm font-medium text-slate-700">{support ? t('detail.answer') : t('detail.write')}</label>
          <textarea id="ticket-answer" rows={4} maxLength={5000} value={text} onChange={(e) => setText(e.target.value)} className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30" />
          <button type="submit" disabled={action.busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60">{t('detail.send')}</button>
        </form>
      ) : null}
      {user?.is_superuser ? (
        <button type="button" disabled={action.busy} onClick={() => void toggle()} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100">
          {ticket.status === 'open' ? t('detail.close') : t('detail.reopen')}
        </button>
      ) : null}
    </div>
  )
}
