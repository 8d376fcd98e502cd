import { useEffect, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from './auth-frame.tsx'
import { verifyAddress } from './reset-api.ts'
import { paths } from '../../app/paths.ts'
import { ApiError, errorMessage } from '../../api/errors.ts'
import { Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'

/** Confirms the address of a new registration from the mailed link: `/login/verify?token=…[&installation=N]`. */
export default function VerifyPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const params = new URLSearchParams(useSearch())
  const token = params.get('token') ?? ''
  const installation = Number(params.get('installation'))
  const loginHref = Number.isInteger(installation) && installation > 0 ? `${paths.login}?installation=${installation}` : paths.login
  const [state, setState] = useState<{ tone: 'info' | 'warning' | 'error'; text: string } | null>(token ? null : { tone: 'warning', text: t('resetExpired') })
  useDocumentTitle(t('verifyTitle'))

  useEffect(() => {
    if (!token) return
    const ctl = new AbortController()
    verifyAddress(token, ctl.signal).then(
      (r) => setState({ tone: 'info', text: r.detail }),
      (err) => !ctl.signal.aborted && setState(err instanceof ApiError && err.status === 404 ? { tone: 'warning', text: t('resetExpired') } : { tone: 'error', text: errorMessage(err, tc) }),
    )
    return () => ctl.abort()
  }, [token, t, tc])

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('verifyTitle')}</h1>
      {state ? <Notice tone={state.tone} role={state.tone === 'info' ? 'status' : 'alert'} className="mt-5">{state.text}</Notice> : <Loading label={t('resetChecking')} className="mt-6" />}
      <Link href={loginHref} className="btn-primary mt-6 w-full">{t('goToLogin')}</Link>
    </AuthFrame>
  )
}
