import { useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { paths } from '../../app/paths.ts'
import { session } from '../../session/session.ts'
import { Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { listTickets, sendSupportMessage, SUPPORT_TOPICS, supportKeys, type SupportTopic } from './api.ts'
import { FAQ_KEYS, MANUAL_KEYS, SUPPORT_CONTACT } from './contact.ts'
import { TicketList } from './ticket-list.tsx'

const field = 'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30'

/**
 * Support (SPEC §2): topic choice and message form (opens a ticket, SPEC §8 "message sent"), hotline,
 * e-mail contact, manual, FAQ and the person's tickets (open: replies by e-mail land on them; closed).
 * Superusers also get a link to the support inbox.
 */
export default function SupportPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('support')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('title'))
  const { user } = useSnapshot(session)
  const [topic, setTopic] = useState<SupportTopic | ''>('')
  const [message, setMessage] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState<{ text: string; id: number } | null>(null)
  // A failed send; a failed read of the tickets shows with its retry.
  const [problem, setProblem] = useState<string | null>(null)
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: supportKeys.list('all'), queryFn: ({ signal }) => listTickets(undefined, signal) })
  // Superusers read every ticket; here they see their own (the inbox has the rest).
  const tickets = query.data ? (user?.is_superuser ? query.data.filter((x) => x.owner.id === user.id) : query.data) : null

  async function submit(e: FormEvent) {
    e.preventDefault()
    const local: Record<string, string> = {}
    if (!topic) local.topic = t('form.required')
    if (!message.trim()) local.message = t('form.required')
    setErrors(local)
    setSent(null)
    setProblem(null)
    if (Object.keys(local).length || !topic) return
    setBusy(true)
    try {
      const r = await sendSupportMessage(installation.id, topic, message)
      setSent({ text: r.detail, id: r.conversation_id })
      setMessage('')
      setTopic('')
      void queryClient.invalidateQueries({ queryKey: supportKeys.lists() })
    } catch (err) {
      const fields = fieldErrors(err)
      if (Object.keys(fields).length) setErrors(fields)
      else setProblem(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        {user?.is_superuser ? (
          <Link href={paths.supportInbox(installation.id)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100">
            {t('inbox.link')}
          </Link>
        ) : null}
      </div>

      <section aria-labelledby="support-write" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="support-write" className="text-lg font-semibold text-slate-900">{t('form.title')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('form.intro')}</p>
        <form aria-labelledby="support-write" noValidate onSubmit={submit} className="mt-4 space-y-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t('form.topic')}</legend>
            <div className="mt-2 flex flex-wrap gap-2">
              {SUPPORT_TOPICS.map((x) => (
                <label key={x} className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-1.5 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50">
                  <input type="radio" name="topic" value={x} checked={topic === x} onChange={() => setTopic(x)} />
                  {t(`topics.${x}`)}
                </label>
              ))}
            </div>
            {errors.topic ? <p className="mt-1 text-sm text-red-700">{errors.topic}</p> : null}
          </fieldset>
          <div>
            <label htmlFor="support-message" className="block text-sm font-medium text-slate-700">{t('form.message')}</label>
            <textarea id="support-message" rows={6} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} className={field} aria-invalid={errors.message ? true : undefined} aria-describedby={errors.message ? 'support-message-error' : undefined} />
            {errors.message ? <p id="support-message-error" className="mt-1 text-sm text-red-700">{errors.message}</p> : null}
          </div>
          <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60">
            {t('form.send')}
          </button>
          {sent ? (
            <Notice tone="info">
              {sent.text}{' '}
              <Link href={paths.supportTicket(installation.id, sent.id)} className="font-semibold underline">{t('tickets.number', { n: sent.id })}</Link>
            </Notice>
          ) : null}
          {problem ? <Notice tone="error" role="alert">{problem}</Notice> : null}
        </form>
      </section>

      <section aria-labelledby="support-tickets" className="space-y-3">
        <h2 id="support-tickets" className="text-lg font-semibold text-slate-900">{t('tickets.title')}</h2>
        <p className="text-sm text-slate-600">{t('tickets.hint')}</p>
        {tickets === null ? query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} /> : null}
        {tickets ? <TicketList installationId={installation.id} timezone={installation.timezone} tickets={tickets} label={t('tickets.title')} /> : null}
      </section>

      <div className="grid gap-4 md:grid-cols-2">
        <section aria-labelledby="support-contact" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="support-contact" className="text-lg font-semibold text-slate-900">{t('contact.title')}</h2>
          <dl className="mt-3 space-y-2 text-sm">
            <div>
              <dt className="font-medium text-slate-700">{t('contact.hotline')}</dt>
              <dd><a className="text-brand-700 underline" href={`tel:${SUPPORT_CONTACT.hotline.replace(/\s/g, '')}`}>{SUPPORT_CONTACT.hotline}</a> <span className="text-slate-500">{t('contact.hours')}</span></dd>
            </div>
            <div>
              <dt className="font-medium text-slate-700">{t('contact.email')}</dt>
              <dd><a className="text-brand-700 underline" href={`mailto:${SUPPORT_CONTACT.email}`}>{SUPPORT_CONTACT.email}</a></dd>
            </div>
          </dl>
        </section>
        <section aria-labelledby="support-manual" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="support-manual" className="text-lg font-semibold text-slate-900">{t('manual.title')}</h2>
          <div className="mt-2 space-y-1">
            {MANUAL_KEYS.map((k) => (
              <details key={k} className="rounded-lg px-2 py-1 open:bg-slate-50">
                <summary className="cursor-pointer text-sm font-medium text-slate-800">{t(`manual.${k}.title`)}</summary>
                <p className="mt-1 text-sm text-slate-600">{t(`manual.${k}.text`)}</p>
              </details>
            ))}
          </div>
        </section>
      </div>

      <section aria-labelledby="support-faq" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="support-faq" className="text-lg font-semibold text-slate-900">{t('faq.title')}</h2>
        <div className="mt-2 space-y-1">
          {FAQ_KEYS.map((k) => (
            <details key={k} className="rounded-lg px-2 py-1 open:bg-slate-50">
              <summary className="cursor-pointer text-sm font-medium text-slate-800">{t(`faq.${k}.q`)}</summary>
              <p className="mt-1 text-sm text-slate-600">{t(`faq.${k}.a`)}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  )
}
