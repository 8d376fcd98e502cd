import type { FormEvent } from 'react'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from './auth-frame.tsx'
import { TextField } from '../../components/text-field.tsx'
import { confirmPasswordReset, validateResetToken } from './reset-api.ts'
import { paths } from '../../app/paths.ts'
import { ApiError, errorMessage, fieldErrors } from '../../api/errors.ts'
import { Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { isStrongPassword } from '../../../shared/rules/password.ts'

type State = 'checking' | 'ready' | 'expired' | 'done' | 'error'

/**
 * Create new password (SPEC §2), opened from the reset mail: `/login/reset?token=…[&installation=N]`.
 * Checks the token first; an unusable one shows the expired-link notice (SPEC §8) with a way to ask for
 * a new link. New password and repeat follow the SPEC §5 rule and messages.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const params = new URLSearchParams(useSearch())
  const token = params.get('token') ?? ''
  const installation = Number(params.get('installation'))
  const query = Number.isInteger(installation) && installation > 0 ? `?installation=${installation}` : ''
  const [state, setState] = useState<State>(token ? 'checking' : 'expired')
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const passwordRef = useRef<HTMLInputElement>(null)
  const repeatRef = useRef<HTMLInputElement>(null)
  useDocumentTitle(t('resetTitle'))

  useEffect(() => {
    if (!token) return
    const ctl = new AbortController()
    validateResetToken(token, ctl.signal).then(
      (ok) => setState(ok ? 'ready' : 'expired'),
      (err) => {
        if (ctl.signal.aborted) return
        setFailure(errorMessage(err, tc))
        setState('error')
      },
    )
    return () => ctl.abort()
  }, [token, tc])

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    setFailure(null)
    const found: { password?: string; repeat?: string } = {}
    if (!password) found.password = t('validation.required')
    else if (!isStrongPassword(password)) found.password = t('validation.passwordRule')
    if (!repeat) found.repeat = t('validation.required')
    else if (password && repeat !== password) found.repeat = t('validation.passwordsMismatch')
    setErrors(found)
    if (found.password) return passwordRef.current?.focus()
    if (found.repeat) return repeatRef.current?.focus()
    setBusy(true)
    try {
      await confirmPasswordReset(token, password, repeat)
      setState('done')
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return setState('expired')
      const fields = fieldErrors(err)
      if (fields.password || fields.password_confirm) setErrors({ password: fields.password, repeat: fields.password_confirm })
      else setFailure(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('resetTitle')}</h1>
      {state === 'checking' ? <Loading label={t('resetChecking')} className="mt-6" /> : null}
      {state === 'expired' ? (
        <>
          <Notice tone="warning" role="alert" className="mt-5">
            {t('resetExpired')}
          </Notice>
          <Link href={paths.forgotPassword + query} className="btn-primary mt-6 w-full">
            {t('resetNewLink')}
          </Link>
        </>
      ) : null}
      {state === 'done' ? (
        <>
          <Notice tone="info" className="mt-5">
            {t('resetDone')}
          </Notice>
          <Link href={paths.login + query} className="btn-primary mt-6 w-full">
            {t('goToLogin')}
          </Link>
        </>
      ) : null}
      {failure ? (
        <Notice tone="error" role="alert" className="mt-5">
          {failure}
        </Notice>
      ) : null}
      {state === 'ready' ? (
        <form className="mt-6 space-y-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
          <p className="text-sm text-slate-600">{t('passwordHint')}</p>
          <TextField label={t('newPassword')} inputRef={passwordRef} name="new-password" type="password" autoComplete="new-password" required
            value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
          <TextField label={t('repeatPassword')} inputRef={repeatRef} name="repeat-password" type="password" autoComplete="new-password" required
            value={repeat} onChange={(e) => setRepeat(e.target.value)} error={errors.repeat} />
          <button type="submit" className="btn-primary w-full py-2.5" disabled={busy}>
            {busy ? t('resetSaving') : t('resetSave')}
          </button>
        </form>
      ) : null}
      {state !== 'done' ? (
        <Link href={paths.login + query} className="btn-secondary mt-6 w-full">
          {t('backToLogin')}
        </Link>
      ) : null}
    </AuthFrame>
  )
}
