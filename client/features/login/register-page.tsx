import type { FormEvent } from 'react'
import { useState } from 'react'
import { Link, useSearch } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { AuthFrame } from './auth-frame.tsx'
import { TextField } from '../../components/text-field.tsx'
import { canRegister, fetchLegalTexts, register, registerKeys } from './reset-api.ts'
import { LegalTextDialog, type LegalDocText } from '../../components/legal-text-dialog.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { paths } from '../../app/paths.ts'
import { currentLanguage } from '../../i18n/index.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { isStrongPassword } from '../../../shared/rules/password.ts'

type Form = { email: string; first_name: string; last_name: string; password: string; repeat: string; terms: boolean }

/**
 * Registration with terms acceptance (SPEC §2) for a facility that allows it: `/login/register?installation=N`.
 * After sending, the SPEC's "go to login after registration" with the confirm-your-address notice.
 */
export default function RegisterPage() {
  const { t } = useTranslation('login')
  const { t: tc } = useTranslation()
  const params = new URLSearchParams(useSearch())
  const installation = Number(params.get('installation'))
  const valid = Number.isInteger(installation) && installation > 0
  const openQuery = useQuery({
    queryKey: registerKeys.canRegister(installation),
    queryFn: ({ signal }) => canRegister(installation, signal),
    enabled: valid,
  })
  const open = valid ? (openQuery.data ?? null) : false
  const [form, setForm] = useState<Form>({ email: '', first_name: '', last_name: '', password: '', repeat: '', terms: false })
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [reading, setReading] = useState<LegalDocText | null>(null)
  useDocumentTitle(t('registerTitle'))

  // The texts to read before accepting; without them the checkbox still works.
  const language = currentLanguage()
  const legal = useQuery({ queryKey: registerKeys.legalTexts(language), queryFn: ({ signal }) => fetchLegalTexts(signal) }).data ?? []
  const loginHref = valid ? `${paths.login}?installation=${installation}` : paths.login

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    setFailure(null)
    const found: Partial<Record<keyof Form, string>> = {}
    for (const f of ['email', 'first_name', 'last_name', 'password', 'repeat'] as const) if (!form[f].trim()) found[f] = t('validation.required')
    if (!found.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) found.email = t('validation.email')
    if (!found.password && !isStrongPassword(form.password)) found.password = t('validation.passwordRule')
    if (!found.repeat && form.repeat !== form.password) found.repeat = t('validation.passwordsMismatch')
    if (!form.terms) found.terms = t('validation.terms')
    setErrors(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      const r = await register(installation, {
        email: form.email.trim(), first_name: form.first_name.trim(), last_name: form.last_name.trim(), password: form.password,
        terms_accepted: true, ietf_lang_tag: `${currentLanguage()}-CH`,
      })
      setDone(r.detail)
    } catch (err) {
      const f = fieldErrors(err)
      if (Object.keys(f).length) setErrors({ ...f, terms: f.terms_accepted })
      else setFailure(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  const field = (name: Exclude<keyof Form, 'terms'>, label: string, extra: Record<string, string> = {}) => (
    <TextField label={label} value={form[name]} error={errors[name]} onChange={(e) => setForm({ ...form, [name]: e.target.value })} {...extra} />
  )
  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('registerTitle')}</h1>
      {failure ? <Notice tone="error" role="alert" className="mt-5">{failure}</Notice> : null}
      {done ? (
        <>
          <Notice tone="info" className="mt-5">{done}</Notice>
          <Link href={loginHref} className="btn-primary mt-6 w-full">{t('goToLogin')}</Link>
        </>
      ) : open === null ? (
        openQuery.isError && !openQuery.isFetching ? (
          <div className="mt-5"><QueryProblem error={openQuery.error} onRetry={openQuery.refetch} /></div>
        ) : (
          <Loading label={tc('loading')} className="mt-6" />
        )
      ) : !open ? (
        <Notice tone="warning" className="mt-5">{t('registerClosed')}</Notice>
      ) : (
        <form className="mt-6 space-y-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
          {field('email', t('email'), { type: 'email', autoComplete: 'username' })}
          {field('first_name', t('firstName'), { autoComplete: 'given-name' })}
          {field('last_name', t('lastName'), { autoComplete: 'family-name' })}
          <p className="text-sm text-slate-600">{t('passwordHint')}</p>
          {field('password', t('password'), { type: 'password', autoComplete: 'new-password' })}
          {field('repeat', t('repeatPassword'), { type: 'password', autoComplete: 'new-password' })}
          <div>
            <label className="flex items-start gap-2 text-sm text-slate-700">
              <input type="checkbox" className="mt-1" checked={form.terms} onChange={(e) => setForm({ ...form, terms: e.target.checked })}
                aria-invalid={errors.terms ? true : undefined} aria-describedby={errors.terms ? 'register-terms-error' : undefined} />
              <span>{t('acceptTerms')}</span>
            </label>
            {legal.length ? (
              <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 pl-6 text-sm text-slate-600">
                <span>{t('readTerms')}</span>
                {legal.map((d) => (
                  <button key={d.document} type="button" className="text-brand-700 underline" onClick={() => setReading(d)}>
                    {d.title}
                  </button>
                ))}
              </p>
            ) : null}
            {errors.terms ? <p id="register-terms-error" className="mt-1 text-sm text-red-700">{errors.terms}</p> : null}
          </div>
          <LegalTextDialog doc={reading} onClose={() => setReading(null)} />
          <button type="submit" className="btn-primary w-full py-2.5" disabled={busy}>{busy ? t('registering') : t('register')}</button>
        </form>
      )}
      {done ? null : <Link href={loginHref} className="btn-secondary mt-6 w-full">{t('backToLogin')}</Link>}
    </AuthFrame>
  )
}
