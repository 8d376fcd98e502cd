import type { FormEvent } from 'react'
import { useRef, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from './auth-frame.tsx'
import { TextField } from '../../components/text-field.tsx'
import { validateLogin } from './validate.ts'
import { requestPasswordReset } from './reset-api.ts'
import { paths } from '../../app/paths.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Notice, useDocumentTitle } from '../../components/ui.tsx'

/**
 * Forgot password (SPEC §2): the e-mail address, "request reset link", then the SPEC §8 notice, which
 * reads the same whether or not the address exists. Keeps the `installation` query for the link.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const params = new URLSearchParams(useSearch())
  const installationParam = Number(params.get('installation'))
  const installation = Number.isInteger(installationParam) && installationParam > 0 ? installationParam : null
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState(false)
  const emailRef = useRef<HTMLInputElement>(null)
  useDocumentTitle(t('forgotTitle'))
  const loginHref = installation ? `${paths.login}?installation=${installation}` : paths.login

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    setFailure(null)
    const found = validateLogin(email, 'x').email
    setError(found ? t(found) : null)
    if (found) return emailRef.current?.focus()
    setBusy(true)
    try {
      await requestPasswordReset(email.trim(), installation)
      setDone(true)
    } catch (err) {
      const fields = fieldErrors(err)
      if (fields.email) setError(fields.email)
      else setFailure(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('forgotTitle')}</h1>
      {done ? (
        <Notice tone="info" className="mt-5">
          {t('resetRequested')}
        </Notice>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">{t('forgotIntro')}</p>
          {failure ? (
            <Notice tone="error" role="alert" className="mt-5">
              {failure}
            </Notice>
          ) : null}
          <form className="mt-6 space-y-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
            <TextField
              label={t('email')}
              inputRef={emailRef}
              name="email"
              type="email"
              inputMode="email"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={error}
            />
            <button type="submit" className="btn-primary w-full py-2.5" disabled={busy}>
              {busy ? t('resetRequesting') : t('resetRequest')}
            </button>
          </form>
        </>
      )}
      <Link href={loginHref} className="btn-secondary mt-6 w-full">
        {t('backToLogin')}
      </Link>
    </AuthFrame>
  )
}
