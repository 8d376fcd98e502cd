import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage } from '../api/errors.ts'
import { Notice } from './ui.tsx'

/** A 401 that ended the session: the user is on the way to login, so the page says nothing more. */
export function isLoggedOut(err: unknown): boolean {
  return Boolean((err as { loggedOut?: boolean } | null)?.loggedOut)
}

/**
 * A read that failed for good (after its retries), as pages show it: the error's message
 * (SPEC §8 extraction, or `text` when the page words it itself) and a "Try again" button that calls
 * `onRetry` (the query's `refetch`). Renders nothing for an error that logged the user out.
 */
export function QueryProblem({ error, onRetry, text, tone = 'error' }: { error: unknown; onRetry: () => unknown; text?: ReactNode; tone?: 'error' | 'warning' }) {
  const { t: tc } = useTranslation()
  if (isLoggedOut(error)) return null
  return (
    <Notice tone={tone} role="alert">
      {text ?? errorMessage(error, tc)}{' '}
      <button type="button" className="font-semibold underline" onClick={() => void onRetry()}>
        {tc('retry')}
      </button>
    </Notice>
  )
}
