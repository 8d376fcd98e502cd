import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { apiFetch } from '../api/http.ts'
import { errorMessage, isAbortError } from '../api/errors.ts'
import type { Shortcut } from '../../shared/schemas/shortcut.ts'

const base = (installationId: number) => `/api/cockpit/installations/${installationId}/shortcuts/`

/**
 * Pin this screen or object to Home (SPEC §2 shortcuts, issue 13 §2): pins `url` (an app path, e.g. a
 * station's page or a chart with its period in the query) as `name`, or removes the pin when it is
 * already there. Shows the API's SPEC §8 message ("shortcut added or removed").
 */
export function PinButton({ installationId, name, url }: { installationId: number; name: string; url: string }) {
  const { t } = useTranslation()
  const [pinned, setPinned] = useState<Shortcut | null | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null)

  useEffect(() => {
    const ctrl = new AbortController()
    setMessage(null)
    apiFetch<{ results: Shortcut[] }>(base(installationId), { signal: ctrl.signal }).then(
      (r) => setPinned(r.results.find((s) => s.url === url) ?? null),
      (err: unknown) => !isAbortError(err) && setPinned(null),
    )
    return () => ctrl.abort()
  }, [installationId, url])

  async function toggle() {
    setBusy(true)
    setMessage(null)
    try {
      if (pinned) {
        const r = await apiFetch<{ detail: string }>(`${base(installationId)}${pinned.id}/`, { method: 'DELETE' })
        setPinned(null)
        setMessage({ error: false, text: r.detail })
      } else {
        const r = await apiFetch<Shortcut & { detail: string }>(base(installationId), { method: 'POST', body: { name, url } })
        setPinned(r)
        setMessage({ error: false, text: r.detail })
      }
    } catch (err) {
      setMessage({ error: true, text: errorMessage(err, t) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={() => void toggle()}
        disabled={busy || pinned === undefined}
        aria-pressed={Boolean(pinned)}
        className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-60 aria-pressed:border-brand-500 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill={pinned ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
          <path d="M12 17v5M8 3h8l-1 6 3 4H6l3-4-1-6z" />
        </svg>
        {pinned ? t('shortcuts.unpin') : t('shortcuts.pin')}
      </button>
      {message ? (
        <span role={message.error ? 'alert' : 'status'} className={message.error ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>
          {message.text}
        </span>
      ) : null}
    </span>
  )
}
