import { useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { errorMessage } from '../../api/errors.ts'
import { Notice } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { shortcutLabel } from './shortcut-label.ts'
import { listShortcuts, removeShortcut, shortcutKeys, type Shortcut } from './api.ts'

/** The person's shortcuts on Home (SPEC §2): each opens its screen; one can be removed here. */
export function ShortcutList({ installationId, timezone }: { installationId: number; timezone: string }) {
  const { t } = useTranslation('home')
  const { t: charts } = useTranslation('charts')
  const { t: reports } = useTranslation('reports')
  const f = useFormats(timezone)
  const label = (s: Shortcut) => shortcutLabel(s, { charts, reports, f, tz: timezone })
  const { t: tc } = useTranslation()
  const queryClient = useQueryClient()
  const key = shortcutKeys.list(installationId)
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => listShortcuts(installationId, signal) })
  const shortcuts = query.data ?? null
  // The outcome of a removal; a failed read shows with its retry.
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null)

  async function remove(s: Shortcut) {
    setMessage(null)
    try {
      const r = await removeShortcut(installationId, s.id)
      // Gone at once (and from the pin button of that screen, which reads the same list), then confirmed.
      queryClient.setQueryData<Shortcut[]>(key, (list) => list?.filter((x) => x.id !== s.id))
      void queryClient.invalidateQueries({ queryKey: key })
      setMessage({ error: false, text: r.detail })
    } catch (err) {
      setMessage({ error: true, text: errorMessage(err, tc) })
    }
  }

  return (
    <section aria-labelledby="home-pinned">
      <h2 id="home-pinned" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">
        {t('pinned.title')}
      </h2>
      {message ? (
        <Notice tone={message.error ? 'error' : 'info'} role={message.error ? 'alert' : 'status'} className="mb-3">
          {message.text}
        </Notice>
      ) : null}
      {shortcuts === null && query.isError && !query.isFetching ? (
        <div className="mb-3">
          <QueryProblem error={query.error} onRetry={query.refetch} />
        </div>
      ) : null}
      {shortcuts?.length === 0 ? <p className="text-sm text-slate-600">{t('pinned.empty')}</p> : null}
      {shortcuts?.length ? (
        <ul aria-labelledby="home-pinned" className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {shortcuts.map((s) => (
            <li key={s.id} className="flex items-center justify-between gap-3 px-4 py-2">
              <Link href={s.url} className="font-medium text-brand-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
                {label(s)}
              </Link>
              <button type="button" onClick={() => void remove(s)} className="rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100" aria-label={t('pinned.remove', { name: label(s) })}>
                {t('pinned.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
