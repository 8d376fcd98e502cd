import { useState } from 'react'
import { Link, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from './auth-frame.tsx'
import { undoEmailChange } from './reset-api.ts'
import { paths } from '../../app/paths.ts'
import { ApiError, errorMessage } from '../../api/errors.ts'
import { Notice, useDocumentTitle } from '../../components/ui.tsx'

/**
 * Restores the previous sign-in address from the notice mailed to it after a change:
 * `/login/email-undo?token=…` (docs/decisions.md "Accounts: e-mail change with password and undo, …").
 * Nothing happens on opening the link (mail scanners open links); the owner confirms with the button.
 */
export default function EmailUndoPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [state, setState] = useState<{ tone: 'info' | 'warning' | 'error'; text: string } | null>(token ? null : { tone: 'warning', text: t('resetExpired') })
  const [busy, setBusy] = useState(false)
  useDocumentTitle(t('emailUndoTitle'))

  async function restore() {
    setBusy(true)
    try {
      const r = await undoEmailChange(token)
      setState({ tone: 'info', text: r.detail })
    } catch (err) {
      setState(err instanceof ApiError && err.status === 404 ? { tone: 'warning', text: t('resetExpired') } : { tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('emailUndoTitle')}</h1>
      {state ? (
        <Notice tone={state.tone} role={state.tone === 'info' ? 'status' : 'alert'} className="mt-5">{state.text}</Notice>
      ) : (
        <>
          <p className="mt-4 text-sm text-slate-600">{t('emailUndoText')}</p>
          <button type="button" className="btn-primary mt-6 w-full py-2.5" disabled={busy} onClick={() => void restore()}>{t('emailUndoAction')}</button>
        </>
      )}
      <Link href={paths.login} className="btn-secondary mt-6 w-full">{t('goToLogin')}</Link>
    </AuthFrame>
  )
}
