import type { FormEvent } from 'react'
import { useEffect, useId, useRef, useState } from 'react'
import { Link, Redirect, useLocation, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useSnapshot } from 'valtio'
import { obtainToken } from './api.ts'
import { canRegister } from './reset-api.ts'
import { validateLogin } from './validate.ts'
import type { LoginErrors } from './validate.ts'
import { AuthFrame } from './auth-frame.tsx'
import { DemoAccounts } from './demo-accounts.tsx'
import { session, startSession } from '../../session/session.ts'
import { ensureUser } from '../../session/api.ts'
import { applyUserLanguage } from '../../session/language.ts'
import { ApiError, errorMessage, fieldErrors } from '../../api/errors.ts'
import { paths, safeRedirect } from '../../app/paths.ts'
import { cx, useDocumentTitle } from '../../components/ui.tsx'

/**
 * Login (SPEC §2): e-mail and password, validated per SPEC §5, the API's message on failure.
 * Query: `installation` (asked for at login) and `redirectFrom` (where to return, same-origin only).
 */
export default function LoginPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const search = useSearch()
  const [, navigate] = useLocation()
  const { loggedIn } = useSnapshot(session)
  const params = new URLSearchParams(search)
  const installationParam = Number(params.get('installation'))
  const installation = Number.isInteger(installationParam) && installationParam > 0 ? installationParam : null
  const redirectFrom = safeRedirect(params.get('redirectFrom'))

  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<LoginErrors>({})
  const [serverFieldErrors, setServerFieldErrors] = useState<Record<string, string>>({})
  const [submitted, setSubmitted] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [justLoggedIn, setJustLoggedIn] = useState(false)
  const emailRef = useRef<HTMLInputElement>(null)
  const passwordRef = useRef<HTMLInputElement>(null)
  const submitRef = useRef<HTMLButtonElement>(null)
  const ids = { email: useId(), password: useId(), emailError: useId(), passwordError: useId(), failure: useId() }
  useDocumentTitle(t('title'))
  // Registration is offered only for a facility that allows it (GET /api/users/can-register).
  const [registrationOpen, setRegistrationOpen] = useState(false)
  useEffect(() => {
    if (installation === null) return
    const ctl = new AbortController()
    canRegister(installation, ctl.signal).then(setRegistrationOpen, () => setRegistrationOpen(false))
    return () => ctl.abort()
  }, [installation])

  // Already logged in (e.g. a bookmarked /login): go where the user was heading.
  if (loggedIn && !justLoggedIn) return <Redirect to={redirectFrom ?? paths.root} replace />

  const revalidate = (nextEmail: string, nextPassword: string) => {
    if (submitted) setErrors(validateLogin(nextEmail, nextPassword))
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    setSubmitted(true)
    setFailure(null)
    setServerFieldErrors({})
    const found = validateLogin(email, password)
    setErrors(found)
    if (found.email) return emailRef.current?.focus()
    if (found.password) return passwordRef.current?.focus()
    setBusy(true)
    try {
      const res = await obtainToken(email.trim(), password, installation)
      setJustLoggedIn(true)
      startSession(res.access, res.refresh)
      // The account's saved language (Settings) before the first screen, whatever this browser chose:
      // no screen flashes in the browser's language first. A failed read leaves it to the layout's.
      await ensureUser().then((user) => applyUserLanguage(user.ietf_lang_tag), () => undefined)
      const target = redirectFrom ?? (res.installation_id !== null ? paths.facility(res.installation_id) : paths.root)
      navigate(target, { replace: true })
    } catch (err) {
      setBusy(false)
      const fields = fieldErrors(err)
      if (fields.email || fields.password) {
        setServerFieldErrors(fields)
        return
      }
      let message = errorMessage(err, tc)
      if (err instanceof ApiError && err.status === 429 && err.retryAfter) {
        message = `${message} ${t('retryAfter', { seconds: err.retryAfter })}`
      }
      setFailure(message)
    }
  }

  const emailError = errors.email ? t(errors.email) : serverFieldErrors.email
  const passwordError = errors.password ? t(errors.password) : serverFieldErrors.password
  const inputClass = (invalid: boolean) =>
    cx(
      'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2',
      invalid ? 'border-red-400 focus:border-red-500 focus:ring-red-500/30' : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30',
    )

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('greeting')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>

      {failure ? (
        <div id={ids.failure} role="alert" className="mt-5 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </div>
      ) : null}

      <form className="mt-6 space-y-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <div>
          <label htmlFor={ids.email} className="block text-sm font-medium text-slate-700">
            {t('email')}
          </label>
          <input
            ref={emailRef}
            id={ids.email}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value)
              revalidate(e.target.value, password)
            }}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? ids.emailError : undefined}
            className={inputClass(Boolean(emailError))}
          />
          {emailError ? (
            <p id={ids.emailError} className="mt-1 text-sm text-red-700">
              {emailError}
            </p>
          ) : null}
        </div>
        <div>
          <div className="flex items-baseline justify-between">
            <label htmlFor={ids.password} className="block text-sm font-medium text-slate-700">
              {t('password')}
            </label>
            <Link href={installation ? `${paths.forgotPassword}?installation=${installation}` : paths.forgotPassword} className="text-sm font-medium text-brand-700 hover:underline">
              {t('forgot')}
            </Link>
          </div>
          <input
            ref={passwordRef}
            id={ids.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.target.value)
              revalidate(email, e.target.value)
            }}
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? ids.passwordError : undefined}
            className={inputClass(Boolean(passwordError))}
          />
          {passwordError ? (
            <p id={ids.passwordError} className="mt-1 text-sm text-red-700">
              {passwordError}
            </p>
          ) : null}
        </div>
        <button ref={submitRef} type="submit" className="btn-primary w-full py-2.5" disabled={busy}>
          {busy ? (
            <span aria-hidden="true" className="h-4 w-4 animate-spin motion-reduce:animate-none rounded-full border-2 border-white/40 border-t-white" />
          ) : null}
          {busy ? t('submitting') : t('submit')}
        </button>
      </form>
      {registrationOpen ? (
        <Link href={`${paths.register}?installation=${installation}`} className="btn-secondary mt-4 w-full">
          {t('registerLink')}
        </Link>
      ) : null}
      <DemoAccounts
        onPick={(pickedEmail, pickedPassword) => {
          // The form filled in as typed: Enter (or the button) signs in; without a shown password, type it.
          setEmail(pickedEmail)
          setPassword(pickedPassword ?? '')
          setErrors({})
          setServerFieldErrors({})
          setFailure(null)
          ;(pickedPassword ? submitRef : passwordRef).current?.focus()
        }}
      />
    </AuthFrame>
  )
}
