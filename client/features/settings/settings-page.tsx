import type { FormEvent } from 'react'
import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useAction, type Feedback } from '../../components/use-action.ts'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { User } from '../../../shared/schemas/auth.ts'
import { COUNTRIES } from '../../../shared/rules/regions.ts'
import type { UserDetails } from '../../../shared/schemas/accounts.ts'
import { isStrongPassword } from '../../../shared/rules/password.ts'
import { formatDate, formatDateTime, formatMoney, formatNumber, formatPercent, intlLocale, type Region } from '../../../shared/rules/formats.ts'
import { session, logout } from '../../session/session.ts'
import { writeTokens } from '../../session/tokens.ts'
import { ensureUser } from '../../session/api.ts'
import { LANGUAGES, isLanguage, setLanguage } from '../../i18n/index.ts'
import { ApiError, errorMessage, fieldErrors } from '../../api/errors.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { LegalTextDialog } from '../../components/legal-text-dialog.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { acceptLegal, changePassword, deleteUser, fetchLegal, meKeys, saveUser, type LegalStatus } from './api.ts'
import { useFormats } from '../../components/use-formats.ts'
import { PaymentMethodsCard } from './payment-methods-card.tsx'
import { userChanged } from '../users/api.ts'
import { clientDate } from '../../api/clock.ts'


function FeedbackNotice({ feedback }: { feedback: Feedback }) {
  if (!feedback) return null
  return (
    <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'} className="mt-4">
      {feedback.text}
    </Notice>
  )
}

/**
 * Settings (SPEC §2): user details, payment methods (a card leading to their page), language and region
 * format, password change and profile deletion,
 * each a section saving on its own. Route /facility/:installationId/settings.
 */
export default function SettingsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('settings')
  const { t: tc } = useTranslation()
  const { user } = useSnapshot(session)
  // The user lives in the session store; the query only asks for it (once) with retries and Try again.
  const query = useQuery({ queryKey: meKeys.user(), queryFn: () => ensureUser().then(() => true) })
  useDocumentTitle(t('title'))

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      {!user ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : (
        <>
          <DetailsSection user={user as User} />
          <PaymentMethodsCard installationId={installation.id} userId={(user as User).id} />
          <LanguageSection user={user as User} timezone={installation.timezone} />
          <PasswordSection />
          <TermsSection timezone={installation.timezone} />
          <DeleteSection user={user as User} />
        </>
      )}
    </div>
  )
}

const DETAIL_FIELDS = ['first_name', 'last_name', 'address', 'zip_code', 'city', 'telephone', 'company', 'comment'] as const
type DetailField = (typeof DETAIL_FIELDS)[number]

function DetailsSection({ user }: { user: User }) {
  const { t } = useTranslation('settings')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const [form, setForm] = useState(() => ({
    title: user.title ?? '',
    country: user.country ?? '',
    ...(Object.fromEntries(DETAIL_FIELDS.map((f) => [f, (user[f] as string | undefined) ?? ''])) as Record<DetailField, string>),
  }))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [feedback, setFeedback] = useState<Feedback>(null)
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setFeedback(null)
    const found: Record<string, string> = {}
    if (!form.first_name.trim()) found.first_name = t('validation.required')
    if (!form.last_name.trim()) found.last_name = t('validation.required')
    setErrors(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      const body = { ...form, title: form.title === 'mr' || form.title === 'ms' ? form.title : null } as Partial<UserDetails>
      session.user = await saveUser(user.id, body)
      // An admin's user screens show these details too.
      void userChanged(queryClient, user.id)
      setFeedback({ tone: 'info', text: t('saved') })
    } catch (err) {
      const fields = fieldErrors(err)
      if (Object.keys(fields).length) setErrors(fields)
      else setFeedback({ tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  const field = (name: DetailField, extra: Record<string, string> = {}) => (
    <TextField label={t(`details.${name}`)} name={name} value={form[name]} error={errors[name]}
      onChange={(e) => setForm({ ...form, [name]: e.target.value })} {...extra} />
  )
  return (
    <Card title={t('details.title')} titleId={titleId}>
      <p className="mb-3 text-sm text-slate-600">{user.email}</p>
      <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField label={t('details.salutation')} name="title" value={form.title} error={errors.title}
          onChange={(e) => setForm({ ...form, title: e.target.value })}
          options={[{ value: '', label: t('details.noTitle') }, { value: 'mr', label: t('details.mr') }, { value: 'ms', label: t('details.ms') }]} />
        <div className="hidden sm:block" />
        {field('first_name', { autoComplete: 'given-name', required: 'required' })}
        {field('last_name', { autoComplete: 'family-name', required: 'required' })}
        {field('address', { autoComplete: 'street-address' })}
        {field('zip_code', { autoComplete: 'postal-code' })}
        {field('city', { autoComplete: 'address-level2' })}
        <SelectField label={t('details.country')} name="country" value={form.country} error={errors.country}
          onChange={(e) => setForm({ ...form, country: e.target.value })}
          options={[{ value: '', label: t('details.noCountry') }, ...COUNTRIES.map((c) => ({ value: c, label: t(`countries.${c}`) }))]} />
        {field('telephone', { type: 'tel', autoComplete: 'tel' })}
        {field('company', { autoComplete: 'organization' })}
        <div className="sm:col-span-2">{field('comment')}</div>
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? t('saving') : t('save')}
          </button>
          <FeedbackNotice feedback={feedback} />
        </div>
      </form>
    </Card>
  )
}

function LanguageSection({ user, timezone }: { user: User; timezone: string }) {
  const { t, i18n } = useTranslation('settings')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const [tagLang, tagRegion] = (user.ietf_lang_tag ?? '').split('-')
  const savedLanguage = isLanguage(tagLang) ? tagLang : (i18n.resolvedLanguage ?? 'en')
  const savedRegion = (COUNTRIES as readonly string[]).includes(tagRegion) ? tagRegion : 'CH'
  const [language, setLang] = useState<string>(savedLanguage)
  const [region, setRegion] = useState<string>(savedRegion)
  // One language state: when the saved tag changes elsewhere (the header's picker), the form shows it.
  const [shownTag, setShownTag] = useState(user.ietf_lang_tag)
  if (shownTag !== user.ietf_lang_tag) {
    setShownTag(user.ietf_lang_tag)
    setLang(savedLanguage)
    setRegion(savedRegion)
  }
  const { busy, feedback, run } = useAction()
  const queryClient = useQueryClient()
  const now = useRef(clientDate()).current

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    await run(async () => {
      session.user = await saveUser(user.id, { ietf_lang_tag: `${language}-${region}` })
      if (isLanguage(language)) await setLanguage(language)
      // The legal texts come in the caller's language.
      void queryClient.invalidateQueries({ queryKey: meKeys.legal() })
      return t('saved')
    })
  }

  const locale = intlLocale(language, region as Region)
  return (
    <Card title={t('language.title')} titleId={titleId}>
      <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField label={t('language.language')} name="language" value={language} onChange={(e) => setLang(e.target.value)}
          options={LANGUAGES.map((l) => ({ value: l, label: tc(`language.${l}`) }))} />
        <SelectField label={t('language.region')} name="region" value={region} onChange={(e) => setRegion(e.target.value)}
          options={COUNTRIES.map((c) => ({ value: c, label: t(`countries.${c}`) }))} />
        <p className="text-sm text-slate-600 sm:col-span-2">
          {t('language.example', { dateTime: formatDateTime(now, region as Region, timezone), date: formatDate(now, region as Region, timezone) })}
        </p>
        {/* What is in force for numbers too: the same Intl locale the whole app formats with. */}
        <p className="text-sm text-slate-600 sm:col-span-2">
          {t('language.numbers', { number: formatNumber(1234.5, locale), money: formatMoney(1234.5, locale), percent: formatPercent(12.5, locale, 1), locale })}
        </p>
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? t('saving') : t('save')}
          </button>
          <FeedbackNotice feedback={feedback} />
        </div>
      </form>
    </Card>
  )
}

function PasswordSection() {
  const { t } = useTranslation('settings')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const empty = { current: '', next: '', repeat: '' }
  const [form, setForm] = useState(empty)
  const [errors, setErrors] = useState<Partial<Record<keyof typeof empty, string>>>({})
  const [feedback, setFeedback] = useState<Feedback>(null)
  const [busy, setBusy] = useState(false)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setFeedback(null)
    const found: Partial<Record<keyof typeof empty, string>> = {}
    if (!form.current) found.current = t('validation.required')
    if (!form.next) found.next = t('validation.required')
    else if (!isStrongPassword(form.next)) found.next = t('validation.passwordRule')
    if (!form.repeat) found.repeat = t('validation.required')
    else if (form.next && form.repeat !== form.next) found.repeat = t('validation.passwordsMismatch')
    setErrors(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      const r = await changePassword(form.current, form.next, form.repeat)
      writeTokens(r.access, r.refresh)
      setForm(empty)
      setFeedback({ tone: 'info', text: t('password.changed') })
    } catch (err) {
      const f = fieldErrors(err)
      if (f.old_password || f.new_password || f.new_password_confirm) setErrors({ current: f.old_password, next: f.new_password, repeat: f.new_password_confirm })
      else setFeedback({ tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title={t('password.title')} titleId={titleId}>
      <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid grid-cols-1 gap-4 sm:max-w-sm">
        <TextField label={t('password.current')} type="password" autoComplete="current-password" name="current-password"
          value={form.current} error={errors.current} onChange={(e) => setForm({ ...form, current: e.target.value })} />
        <TextField label={t('password.new')} type="password" autoComplete="new-password" name="new-password"
          value={form.next} error={errors.next} onChange={(e) => setForm({ ...form, next: e.target.value })} />
        <TextField label={t('password.repeat')} type="password" autoComplete="new-password" name="repeat-password"
          value={form.repeat} error={errors.repeat} onChange={(e) => setForm({ ...form, repeat: e.target.value })} />
        <p className="text-sm text-slate-600">{t('password.hint')}</p>
        <div>
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? t('saving') : t('password.submit')}
          </button>
          <FeedbackNotice feedback={feedback} />
        </div>
      </form>
    </Card>
  )
}

function TermsSection({ timezone }: { timezone: string }) {
  const { t } = useTranslation('settings')
  const { t: tc } = useTranslation()
  const f = useFormats(timezone)
  const titleId = useId()
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: meKeys.legal(), queryFn: ({ signal }) => fetchLegal(signal) })
  const docs = query.data ?? null
  const { busy, feedback, run } = useAction()
  const [reading, setReading] = useState<LegalStatus | null>(null)
  async function accept(d: LegalStatus) {
    // The answer is the updated list: it replaces the cached one (the frame's reminder reads it too).
    await run(async () => void queryClient.setQueryData(meKeys.legal(), await acceptLegal(d.document, d.version)))
    setReading(null)
  }
  return (
    <Card title={t('terms.title')} titleId={titleId}>
      <LegalTextDialog doc={reading} onClose={() => setReading(null)} onAccept={reading && !reading.accepted_at ? () => void accept(reading) : undefined} busy={busy} />
      {docs === null ? query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} /> : null}
      <ul className="space-y-3">
        {(docs ?? []).map((d) => (
          <li key={d.document} className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-sm text-slate-800">{t('terms.document', { title: d.title, version: d.version })}</span>
            <button type="button" className="btn-secondary" onClick={() => setReading(d)} aria-label={t('terms.readNamed', { title: d.title })}>
              {t('terms.read')}
            </button>
            {d.accepted_at ? (
              <span className="text-sm text-slate-600">{t('terms.acceptedOn', { date: f.date(d.accepted_at) })}</span>
            ) : (
              <button type="button" className="btn-secondary" disabled={busy} onClick={() => void accept(d)} aria-label={t('terms.acceptNamed', { title: d.title })}>
                {t('terms.accept')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <FeedbackNotice feedback={feedback} />
    </Card>
  )
}

function DeleteSection({ user }: { user: User }) {
  const { t } = useTranslation('settings')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [feedback, setFeedback] = useState<Feedback>(null)

  async function confirm() {
    setBusy(true)
    try {
      await deleteUser(user.id)
      logout()
    } catch (err) {
      setOpen(false)
      setFeedback({ tone: 'error', text: err instanceof ApiError && err.loggedOut ? '' : errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title={t('delete.title')} titleId={titleId}>
      <p className="text-sm text-slate-600">{t('delete.text')}</p>
      <button type="button" className="btn-secondary mt-4 border-red-300 text-red-700" onClick={() => setOpen(true)}>
        {t('delete.button')}
      </button>
      <FeedbackNotice feedback={feedback} />
      <ConfirmDialog open={open} title={t('delete.confirmTitle')} confirmLabel={t('delete.confirm')} cancelLabel={t('cancel')} busy={busy}
        onConfirm={() => void confirm()} onCancel={() => setOpen(false)}>
        {t('delete.confirmText')}
      </ConfirmDialog>
    </Card>
  )
}
