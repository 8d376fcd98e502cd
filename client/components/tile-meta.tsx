import { useTranslation } from 'react-i18next'
import { useNow } from './use-now.ts'
import { Badge } from './ui.tsx'

/** "Updated 3 s ago", ticking every second; nothing before the first data. */
export function DataAge({ updatedAt }: { updatedAt: number | null }) {
  const { t } = useTranslation()
  const now = useNow()
  if (updatedAt === null) return null
  const seconds = Math.max(0, Math.floor((now - updatedAt) / 1000))
  const text =
    seconds < 60
      ? t('age.seconds', { seconds })
      : seconds < 3600
        ? t('age.minutes', { minutes: Math.floor(seconds / 60) })
        : t('age.hours', { hours: Math.floor(seconds / 3600) })
  return <span className="tabular-nums">{text}</span>
}

/** Stale / offline badge of a tile; nothing while live. */
export function LiveBadge({ status }: { status: 'live' | 'stale' | 'offline' }) {
  const { t } = useTranslation()
  if (status === 'live') return null
  return status === 'stale' ? <Badge tone="amber">{t('live.stale')}</Badge> : <Badge tone="red">{t('live.offline')}</Badge>
}
