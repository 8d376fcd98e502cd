import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { errorMessage } from '../api/errors.ts'
import { addShortcut, listShortcuts, removeShortcut, shortcutKeys, type Shortcut } from '../features/home/api.ts'

/**
 * Pin this screen or object to Home (SPEC §2 shortcuts): pins `url` (an app path, e.g. a
 * station's page or a chart with its period in the query) as `name`, or removes the pin when it is
 * already there. Shows the API's SPEC §8 message ("shortcut added or removed"). It reads Home's list,
 * so pins on one screen share a request and a change shows on Home without a reload.
 */
export function PinButton({ installationId, name, url }: { installationId: number; name: string; url: string }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const key = shortcutKeys.list(installationId)
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => listShortcuts(installationId, signal) })
  // Undefined while the list loads; a list that cannot be read counts as "not pinned" (pinning still works).
  const pinned: Shortcut | null | undefined = query.data ? (query.data.find((s) => s.url === url) ?? null) : query.isError ? null : undefined
  const [busy, setBusy] = useState(false)
  // The message belongs to the screen it was shown on (a chart's period is part of its url).
  const [message, setMessage] = useState<{ url: string; error: boolean; text: string } | null>(null)

  async function toggle() {
    setBusy(true)
    setMessage(null)
    try {
      if (pinned) {
        const r = await removeShortcut(installationId, pinned.id)
        queryClient.setQueryData<Shortcut[]>(key, (list) => list?.filter((s) => s.id !== pinned.id))
        setMessage({ url, error: false, text: r.detail })
      } else {
        const { detail, ...added } = await addShortcut(installationId, name, url)
        queryClient.setQueryData<Shortcut[]>(key, (list) => (list ? [...list, added] : list))
        setMessage({ url, error: false, text: detail })
      }
      // The answer is shown at once; the list is asked again to be sure (Home shows it).
      void queryClient.invalidateQueries({ queryKey: key })
    } catch (err) {
      setMessage({ url, error: true, text: errorMessage(err, t) })
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
      {message && message.url === url ? (
        <span role={message.error ? 'alert' : 'status'} className={message.error ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>
          {message.text}
        </span>
      ) : null}
    </span>
  )
}
