import { useEffect, useRef, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from './auth-frame.tsx'
import { acceptInvitation } from './reset-api.ts'
import { paths } from '../../app/paths.ts'
import { ApiError, errorMessage } from '../../api/errors.ts'
import { Notice, useDocumentTitle } from '../../components/ui.tsx'

type Outcome = { kind: 'accepted'; installationId: number; name: string } | { kind: 'expired' } | { kind: 'error'; text: string }

/**
 * Accepts an invitation of one's existing account to another installation, from the mailed link
 * `/login/invitation?token=…&installation=N` (docs/decisions.md "Accounts: creating a user whose address has an
 * account elsewhere"). Logged out. Nothing happens on opening the link (mail scanners open links, and joining
 * needs the person's consent): the button accepts. Accepted: which installation, and a way to log in to it.
 * Unknown, used or expired: SPEC §8's expired-link notice and what to do. Focus moves to the next action.
 */
export default function InvitationPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [outcome, setOutcome] = useState<Outcome | null>(token ? null : { kind: 'expired' })
  const [busy, setBusy] = useState(false)
  const nextRef = useRef<HTMLAnchorElement>(null)
  useDocumentTitle(t('invitationTitle'))

  // After the answer the button is gone: focus the action that follows (the notice itself is announced).
  const answered = outcome !== null && outcome.kind !== 'error'
  useEffect(() => {
    if (answered && token) nextRef.current?.focus()
  }, [answered, token])

  async function accept() {
    if (busy) return
    setBusy(true)
    try {
      const r = await acceptInvitation(token)
      setOutcome({ kind: 'accepted', installationId: r.installation_id, name: r.installation_name })
    } catch (err) {
      setOutcome(err instanceof ApiError && (err.status === 404 || err.status === 400) ? { kind: 'expired' } : { kind: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('invitationTitle')}</h1>
      {outcome?.kind === 'accepted' ? (
        <>
          <Notice tone="info" role="status" className="mt-5">{t('invitationAccepted', { name: outcome.name })}</Notice>
          <Link ref={nextRef} href={`${paths.login}?installation=${outcome.installationId}`} className="btn-primary mt-6 w-full">{t('invitationLogIn')}</Link>
        </>
      ) : outcome?.kind === 'expired' ? (
        <>
          <Notice tone="warning" role="alert" className="mt-5">{t('resetExpired')}</Notice>
          <p className="mt-4 text-sm text-slate-600">{t('invitationExpiredHelp')}</p>
          <Link ref={nextRef} href={paths.login} className="btn-secondary mt-6 w-full">{t('backToLogin')}</Link>
        </>
      ) : (
        <>
          <p className="mt-4 text-sm text-slate-600">{t('invitationText')}</p>
          {outcome?.kind === 'error' ? <Notice tone="error" role="alert" className="mt-5">{outcome.text}</Notice> : null}
          <button type="button" className="btn-primary mt-6 w-full py-2.5" disabled={busy} aria-busy={busy} onClick={() => void accept()}>
            {busy ? t('invitationAccepting') : t('invitationAccept')}
          </button>
          <Link href={paths.login} className="btn-secondary mt-4 w-full">{t('backToLogin')}</Link>
        </>
      )}
    </AuthFrame>
  )
}
