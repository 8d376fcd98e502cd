import type { FormEvent } from 'react'
import { useEffect, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from '../login/auth-frame.tsx'
import { EMAIL } from '../login/validate.ts'
import { TextField } from '../../components/text-field.tsx'
import { Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { ApiError, errorMessage, fieldErrors } from '../../api/errors.ts'
import { paths } from '../../app/paths.ts'
import { startSession } from '../../session/session.ts'
import { currentLanguage } from '../../i18n/index.ts'
import { isStrongPassword } from '../../../shared/rules/password.ts'
import { completeSetup, fetchSetupStatus } from './api.ts'

type State = 'checking' | 'needed' | 'done' | 'error'
type Field = 'email' | 'first_name' | 'last_name' | 'password' | 'repeat'
const FIELDS: readonly Field[] = ['email', 'first_name', 'last_name', 'password', 'repeat']

/**
 * The first start (README "Production start"): `/setup#<token>`, the link the server logs once while no
 * superuser exists. Creates the first superuser (e-mail, names, password by the SPEC §5 rule and its
 * repeat; the account takes the page's language) and lands in the app signed in. When setup is no
 * longer needed it says so and links to login; a missing, used or expired link says how to get another.
 */
export default function SetupPage() {
  const { t } = useTranslation('setup')
  const { t: tc } = useTranslation()
  const [, navigate] = useLocation()
  // The token travels in the fragment, which the browser never sends to a server or in a Referer.
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)))
  const [state, setState] = useState<State>('checking')
  const [values, setValues] = useState<Record<Field, string>>({ email: '', first_name: '', last_name: '', password: '', repeat: '' })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [linkInvalid, setLinkInvalid] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const refs = { email: useRef<HTMLInputElement>(null), first_name: useRef<HTMLInputElement>(null), last_name: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null), repeat: useRef<HTMLInputElement>(null) }
  useDocumentTitle(t('title'))

  useEffect(() => {
    const ctl = new AbortController()
    fetchSetupStatus(ctl.signal).then(
      (s) => setState(s.needed ? 'needed' : 'done'),
      (err) => {
        if (ctl.signal.aborted) return
        setFailure(errorMessage(err, tc))
        setState('error')
      },
    )
    return () => ctl.abort()
  }, [tc])

  const set = (field: Field) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }))

  function validate(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {}
    for (const f of FIELDS) if (!values[f].trim()) found[f] = t('validation.required')
    if (!found.email && !EMAIL.test(values.email.trim())) found.email = t('validation.email')
    if (!found.password && !isStrongPassword(values.password)) found.password = t('validation.passwordRule')
    if (!found.repeat && values.password && values.repeat !== values.password) found.repeat = t('validation.passwordsMismatch')
    return found
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    setFailure(null)
    const found = validate()
    setErrors(found)
    const first = FIELDS.find((f) => found[f])
    if (first) return refs[first].current?.focus()
    setBusy(true)
    try {
      const res = await completeSetup({
        token,
        email: values.email.trim(),
        password: values.password,
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        language: currentLanguage(),
      })
      startSession(res.access, res.refresh)
      navigate(res.installation_id !== null ? paths.facility(res.installation_id) : paths.root, { replace: true })
    } catch (err) {
      setBusy(false)
      if (err instanceof ApiError && err.status === 409) return setState('done')
      if (err instanceof ApiError && err.status === 403) return setLinkInvalid(errorMessage(err, tc))
      const fields = fieldErrors(err)
      const mine = FIELDS.filter((f) => fields[f])
      if (mine.length > 0) {
        setErrors(Object.fromEntries(mine.map((f) => [f, fields[f]])))
        return refs[mine[0]].current?.focus()
      }
      let message = errorMessage(err, tc)
      if (err instanceof ApiError && err.status === 429 && err.retryAfter) message = `${message} ${t('retryAfter', { seconds: err.retryAfter })}`
      setFailure(message)
    }
  }

  const field = (name: Field, label: string, input: { type?: string; autoComplete: string; inputMode?: 'email' }) => (
    <TextField
      label={label}
      inputRef={refs[name]}
      name={name}
      required
      autoCapitalize={name === 'email' ? 'none' : undefined}
      spellCheck={name === 'email' ? false : undefined}
      value={values[name]}
      onChange={set(name)}
      error={errors[name]}
      {...input}
    />
  )

  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      {state === 'checking' ? <Loading label={t('checking')} className="mt-6" /> : null}
      {failure ? (
        <Notice tone="error" role="alert" className="mt-5">
          {failure}
        </Notice>
      ) : null}
      {state === 'done' ? (
        <>
          <Notice tone="info" className="mt-5">
            {t('notNeeded')}
          </Notice>
          <Link href={paths.login} className="btn-primary mt-6 w-full">
            {t('goToLogin')}
          </Link>
        </>
      ) : null}
      {state === 'needed' && (!token || linkInvalid) ? (
        <Notice tone="warning" role="alert" className="mt-5">
          {linkInvalid ?? t('noToken')}
        </Notice>
      ) : null}
      {state === 'needed' && token && !linkInvalid ? (
        <form className="mt-6 space-y-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
          <p className="text-sm text-slate-600">{t('intro')}</p>
          {field('email', t('email'), { type: 'email', inputMode: 'email', autoComplete: 'username' })}
          {field('first_name', t('firstName'), { autoComplete: 'given-name' })}
          {field('last_name', t('lastName'), { autoComplete: 'family-name' })}
          <p className="text-sm text-slate-600">{t('passwordHint')}</p>
          {field('password', t('password'), { type: 'password', autoComplete: 'new-password' })}
          {field('repeat', t('repeatPassword'), { type: 'password', autoComplete: 'new-password' })}
          <button type="submit" className="btn-primary w-full py-2.5" disabled={busy}>
            {busy ? t('submitting') : t('submit')}
          </button>
        </form>
      ) : null}
    </AuthFrame>
  )
}
