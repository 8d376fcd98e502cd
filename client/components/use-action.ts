import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage, fieldErrors } from '../api/errors.ts'

/** A message under a form or action: the success text, or the error text of SPEC §8's extraction. */
export type Feedback = { tone: 'info' | 'error'; text: string } | null

/**
 * The state of a user action (save, accept, delete…): `busy` while it runs, then `feedback`. `run(work)`
 * clears the feedback, runs `work`, shows the text it returns (if any) as success, or the API error's
 * message; `onError` may handle an error first (e.g. field errors) and return true to skip the message.
 * Resolves true when the work succeeded.
 */
export function useAction() {
  const { t: tc } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [feedback, setFeedback] = useState<Feedback>(null)
  async function run(work: () => Promise<string | void>, onError?: (err: unknown) => boolean): Promise<boolean> {
    setBusy(true)
    setFeedback(null)
    try {
      const text = await work()
      if (text) setFeedback({ tone: 'info', text })
      return true
    } catch (err) {
      if (!onError?.(err)) setFeedback({ tone: 'error', text: errorMessage(err, tc) })
      return false
    } finally {
      setBusy(false)
    }
  }
  return { busy, feedback, setFeedback, run }
}

/**
 * An `onError` for {@link useAction}'s `run` in forms: puts the API's field errors (SPEC §8) under their
 * fields and returns true when there were any, so only errors without a field show as the form's message.
 */
export function intoFieldErrors(setErrors: (errors: Record<string, string>) => void): (err: unknown) => boolean {
  return (err) => {
    const f = fieldErrors(err)
    setErrors(f)
    return Object.keys(f).length > 0
  }
}
