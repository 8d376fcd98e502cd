import { useState } from 'react'
import { Link, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from './auth-frame.tsx'
import { confirmEmailChange } from './reset-api.ts'
import { paths } from '../../app/paths.ts'
import { ApiError, errorMessage, fieldErrors } from '../../api/errors.ts'
import { Notice, useDocumentTitle } from '../../components/ui.tsx'

/**
 * Confirms a new sign-in address from the link mailed to it: `/login/email-confirm?token=…` (docs/decisions.md
 * "Accounts: an e-mail change is confirmed from the new address"). Nothing happens on opening the link (mail
 * scanners open links); the owner of the mailbox confirms with the button. A used, replaced or expired link
 * shows SPEC §8's expired-link notice; an address taken meanwhile the SPEC §5 message.
 */
export default function EmailConfirmPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [state, setState] = useState<{ tone: 'info' | 'warning' | 'error'; text: string } | null>(token ? null : { tone: 'warning', text: t('resetExpired') })
  const [busy, setBusy] = useState(false)
  useDocumentTitle(t('emailConfirmTitle'))

  async function confirm() {
    setBusy(true)
    try {
      const r = await confirmEmailChange(token)
      setState({ tone: 'info', text: r.detail })
    } catch (err) {
      setState(err instanceof ApiError && err.status === 404 ? { tone: 'warning', text: t('resetExpired') } : { tone: 'error', text: fieldErrors(err).email ?? errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('emailConfirmTitle')}</h1>
      {state ? (
        <Notice tone={state.tone} role={state.tone === 'info' ? 'status' : 'alert'} className="mt-5">{state.text}</Notice>
      ) : (
        <>
          <p className="mt-4 text-sm text-slate-600">{t('emailConfirmText')}</p>
          <button type="button" className="btn-primary mt-6 w-full py-2.5" disabled={busy} onClick={() => void confirm()}>{t('emailConfirmAction')}</button>
        </>
      )}
      <Link href={paths.login} className="btn-secondary mt-6 w-full">{t('goToLogin')}</Link>
    </AuthFrame>
  )
}
