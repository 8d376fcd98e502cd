import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import type { Installation, InstallationInfo } from '../../shared/schemas/installation.ts'
import { apiFetch } from '../api/http.ts'
import { applyEvent } from '../live/store.ts'
import { useLive } from '../live/use-live.ts'
import { useFormats } from '../components/use-formats.ts'
import { Notice } from '../components/ui.tsx'

/**
 * How often every screen asks whether the facility is online (ms). The relay's info topic polls every
 * 2 minutes for the live tiles; a screen without a stream still shows a lost facility within this.
 */
export const INFO_POLL_MS = 15_000

/** Query key of GET …/info. */
export const infoKey = (installationId: number) => ['installations', installationId, 'info'] as const

/**
 * The facility-offline alert of SPEC §2/§8 on every screen: "The facility is offline", since when, and that
 * changes wait. The state comes from GET …/info (polled here, and again when the tab is shown) and from the
 * live stream's info topic; a polled answer goes into the live store, so the live tiles go stale at once
 * too (client/features/power/live-status.ts). The poll is a query (docs/decisions.md "Client: the
 * facility-offline alert"): it pauses while the tab is hidden, asks again when the tab is shown (never
 * fresh: staleTime 0), retries a failed answer with backoff and keeps the last known state meanwhile.
 */
export default function OfflineBanner({ installation }: { installation: Installation }) {
  const { t } = useTranslation()
  const f = useFormats(installation.timezone)
  const id = installation.id
  // Its topic only, in a transition (client/live/use-live.ts): a synchronous store read here made every
  // sliced render of the tiles start again in one piece when a live event arrived meanwhile.
  const info = useLive(id, (inst) => inst?.topics.info.data)

  const { data: answer, dataUpdatedAt } = useQuery({
    queryKey: infoKey(id),
    queryFn: ({ signal }) => apiFetch<InstallationInfo>(`/api/cockpit/installations/${id}/info`, { signal }),
    refetchInterval: INFO_POLL_MS,
    staleTime: 0,
  })
  // Every answer, even one equal to the last (same object after structural sharing), is news to the store.
  useEffect(() => {
    if (answer) applyEvent(id, 'snapshot', { topic: 'info', data: answer })
  }, [id, answer, dataUpdatedAt])

  if (!info || info.online) return null
  return (
    <Notice tone="error" role="alert" title={t('offline.title')} className="mb-5">
      {info.offline_since ? t('offline.since', { date: f.dateTime(info.offline_since) }) : t('offline.noDate')} {t('offline.queued')}
    </Notice>
  )
}
