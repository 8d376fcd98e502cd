import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { apiFetch } from '../../api/http.ts'
import { errorMessage, isAbortError } from '../../api/errors.ts'
import { Notice } from '../../components/ui.tsx'
import type { Shortcut } from '../../../shared/schemas/shortcut.ts'

const base = (installationId: number) => `/api/cockpit/installations/${installationId}/shortcuts/`

/** The person's shortcuts on Home (SPEC §2; issue 13 §2): each opens its screen; one can be removed here. */
export function ShortcutList({ installationId }: { installationId: number }) {
  const { t } = useTranslation('home')
  const { t: tc } = useTranslation()
  const [shortcuts, setShortcuts] = useState<Shortcut[] | null>(null)
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null)

  useEffect(() => {
    const ctrl = new AbortController()
    apiFetch<{ results: Shortcut[] }>(base(installationId), { signal: ctrl.signal }).then(
      (r) => setShortcuts(r.results),
      (err: unknown) => !isAbortError(err) && setMessage({ error: true, text: errorMessage(err, tc) }),
    )
    return () => ctrl.abort()
  }, [installationId, tc])

  async function remove(s: Shortcut) {
    setMessage(null)
    try {
      const r = await apiFetch<{ detail: string }>(`${base(installationId)}${s.id}/`, { method: 'DELETE' })
      setShortcuts((list) => (list ?? []).filter((x) => x.id !== s.id))
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
      {shortcuts?.length === 0 ? <p className="text-sm text-slate-600">{t('pinned.empty')}</p> : null}
      {shortcuts?.length ? (
        <ul aria-labelledby="home-pinned" className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {shortcuts.map((s) => (
            <li key={s.id} className="flex items-center justify-between gap-3 px-4 py-2">
              <Link href={s.url} className="font-medium text-brand-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
                {s.name}
              </Link>
              <button type="button" onClick={() => void remove(s)} className="rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100" aria-label={t('pinned.remove', { name: s.name })}>
                {t('pinned.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
