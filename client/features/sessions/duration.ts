import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * Seconds as "2 h 05 min" (or "35 min" under an hour) in the UI language: the charging times of a
 * session (elapsed, effective, remaining).
 */
export function useDuration(): (seconds: number) => string {
  const { t } = useTranslation('charging')
  return useCallback(
    (seconds: number) => {
      const minutes = Math.max(0, Math.round(seconds / 60))
      const h = Math.floor(minutes / 60)
      const m = minutes % 60
      return h ? t('sessions.hoursMinutes', { h, m: String(m).padStart(2, '0') }) : t('sessions.minutes', { m })
    },
    [t],
  )
}
