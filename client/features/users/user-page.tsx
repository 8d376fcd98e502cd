import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useAction, type Feedback } from '../../components/use-action.ts'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { COUNTRIES } from '../../../shared/rules/regions.ts'
import type { ManagedUser } from '../../../shared/schemas/accounts.ts'
import { session } from '../../session/session.ts'
import { paths } from '../../app/paths.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Badge, Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import {
  addMembership, assignRfid, changeEmail, changeMembership, deleteUser, fetchManagedUser, fetchMemberships, removeMembership, sendWelcome, setActive,
  setSuperuser, updateUser, userChanged, userKeys, type Membership,
} from './api.ts'
import { listRfids, rfidKeys } from '../rfids/api.ts'
import type { Rfid } from '../../../shared/schemas/rfid.ts'

function FeedbackNotice({ feedback, className }: { feedback: Feedback; className?: string }) {
  if (!feedback) return null
  return <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'} className={className ?? 'mt-3'}>{feedback.text}</Notice>
}

/**
 * One user for admins (SPEC §2 Users): contact details, additional info (with the SPEC §3 description),
 * facilities with the role in each, the RFID cards of this facility given to the user, welcome e-mail,
 * activation, superuser rights and deletion, each change that SPEC §5 names (role and superuser rights,
 * activation, removal, deletion) confirmed first; a link to the permissions editor.
 * Route /facility/:installationId/management/users/:userId.
 */
export default function UserPage({ installation, userId }: { installation: Installation; userId: number }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: userKeys.detail(userId), queryFn: ({ signal }) => fetchManagedUser(userId, signal) })
  const user = query.data ?? null
  useDocumentTitle(user?.full_name || t('title'))
  const changed = (saved?: ManagedUser) => userChanged(queryClient, userId, saved)

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <Link href={paths.users(installation.id)} className="text-sm font-medium text-brand-700 hover:underline">{t('back')}</Link>
      {!user ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
              {user.full_name || user.email}
              {user.description ? <span className="font-normal text-slate-600"> ({user.description})</span> : null}
            </h1>
            <Badge tone={user.role === 'installation_user' ? 'gray' : 'blue'}>{t(`roles.${user.role}`)}</Badge>
            {user.is_active ? <Badge tone="green">{t('status.active')}</Badge> : <Badge tone="red">{t('status.inactive')}</Badge>}
          </div>
          <Link href={paths.userPermissions(installation.id, user.id)} className="btn-secondary">{t('permissionsLink')}</Link>
          <ContactSection user={user} onSaved={changed} />
          <AdditionalSection user={user} onSaved={changed} />
          <FacilitiesSection user={user} onChanged={changed} />
          <RfidsSection user={user} installation={installation} />
          <ActionsSection user={user} installation={installation} onChanged={changed} />
        </>
      )}
    </div>
  )
}

function ContactSection({ user, onSaved }: { user: ManagedUser; onSaved: () => Promise<unknown> }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const [form, setForm] = useState({ email: user.email, title: user.title ?? '', first_name: user.first_name, last_name: user.last_name, telephone: user.telephone, address: user.address, zip_code: user.zip_code, city: user.city, country: user.country })
  // One's own sign-in address changes only with the current password (docs/decisions.md "Accounts: …").
  const { user: me } = useSnapshot(session)
  const ownEmailChange = me?.id === user.id && form.email.trim().toLowerCase() !== user.email
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [feedback, setFeedback] = useState<Feedback>(null)
  const [busy, setBusy] = useState(false)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setFeedback(null)
    const found: Record<string, string> = {}
    for (const f of ['email', 'first_name', 'last_name'] as const) if (!form[f].trim()) found[f] = t('validation.required')
    if (ownEmailChange && !password) found.password = t('validation.required')
    setErrors(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      const { email, ...details } = form
      await updateUser(user.id, { ...details, title: details.title === 'mr' || details.title === 'ms' ? details.title : null })
      const asked = email.trim().toLowerCase() !== user.email ? email.trim().toLowerCase() : null
      // A new address counts once confirmed from the link mailed to it: the field shows the current one again.
      if (asked) await changeEmail(user.id, asked, ownEmailChange ? password : undefined)
      setPassword('')
      setForm((f) => ({ ...f, email: user.email }))
      await onSaved()
      setFeedback({ tone: 'info', text: asked ? t('contact.emailPending', { email: asked }) : t('saved') })
    } catch (err) {
      const f = fieldErrors(err)
      if (Object.keys(f).length) setErrors(f)
      else setFeedback({ tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }
  const text = (name: keyof typeof form, extra: Record<string, string> = {}) => (
    <TextField label={t(`fields.${name}`)} value={form[name]} error={errors[name]} onChange={(e) => setForm({ ...form, [name]: e.target.value })} {...extra} />
  )
  return (
    <Card title={t('contact.title')} titleId={titleId}>
      <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField label={t('fields.title')} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })}
          options={[{ value: '', label: t('fields.noTitle') }, { value: 'mr', label: t('fields.mr') }, { value: 'ms', label: t('fields.ms') }]} />
        {text('email', { type: 'email' })}
        {ownEmailChange ? (
          <TextField label={t('fields.currentPassword')} type="password" autoComplete="current-password" value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
        ) : null}
        {text('first_name')}
        {text('last_name')}
        {text('telephone', { type: 'tel' })}
        {text('address')}
        {text('zip_code')}
        {text('city')}
        <SelectField label={t('fields.country')} value={form.country} error={errors.country} onChange={(e) => setForm({ ...form, country: e.target.value })}
          options={[{ value: '', label: t('fields.noCountry') }, ...COUNTRIES.map((c) => ({ value: c, label: t(`countries.${c}`) }))]} />
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>{busy ? t('saving') : t('save')}</button>
          <FeedbackNotice feedback={feedback} />
        </div>
      </form>
    </Card>
  )
}

function AdditionalSection({ user, onSaved }: { user: ManagedUser; onSaved: () => Promise<unknown> }) {
  const { t } = useTranslation('users')
  const titleId = useId()
  const [form, setForm] = useState({ description: user.description, company: user.company, comment: user.comment })
  const { busy, feedback, run } = useAction()
  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    await run(async () => {
      await updateUser(user.id, form)
      await onSaved()
      return t('saved')
    })
  }
  return (
    <Card title={t('additional.title')} titleId={titleId}>
      <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label={t('fields.description')} value={form.description} maxLength={255} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        <TextField label={t('fields.company')} value={form.company} onChange={(e) => setForm({ ...form, company: e.target.value })} />
        <TextField label={t('fields.comment')} value={form.comment} onChange={(e) => setForm({ ...form, comment: e.target.value })} />
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>{busy ? t('saving') : t('save')}</button>
          <FeedbackNotice feedback={feedback} />
        </div>
      </form>
    </Card>
  )
}

function FacilitiesSection({ user, onChanged }: { user: ManagedUser; onChanged: () => Promise<unknown> }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const { installations } = useSnapshot(session)
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: userKeys.memberships(user.id), queryFn: ({ signal }) => fetchMemberships(user.id, signal) })
  const list = query.data ?? null
  const [adding, setAdding] = useState('')
  const [role, setRole] = useState<Membership['role']>('installation_user')
  const [removing, setRemoving] = useState<Membership | null>(null)
  const [changing, setChanging] = useState<{ membership: Membership; role: Membership['role'] } | null>(null)
  const { user: me } = useSnapshot(session)
  const self = me?.id === user.id
  const { busy, feedback, run: act } = useAction()
  const candidates = (installations ?? []).filter((i) => (i.role === 'superuser' || i.role === 'installation_admin') && !list?.some((m) => m.id === i.id))

  async function run(action: () => Promise<unknown>) {
    await act(async () => {
      await action()
      // The memberships, and the user (their facilities) with the lists they appear in.
      await Promise.all([queryClient.invalidateQueries({ queryKey: userKeys.memberships(user.id) }), onChanged()])
      return t('saved')
    })
    setRemoving(null)
    setChanging(null)
  }

  return (
    <Card title={t('facilities.title')} titleId={titleId}>
      {list === null ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {list.map((m) => (
            <li key={m.id} className="flex flex-wrap items-end justify-between gap-2 py-2">
              {self ? (
                <span className="text-sm text-slate-800">{m.name} · {t(`roles.${m.role}`)}</span>
              ) : (
                <div className="min-w-56">
                  <SelectField label={t('facilities.roleIn', { name: m.name })} value={m.role} disabled={busy}
                    onChange={(e) => setChanging({ membership: m, role: e.target.value as Membership['role'] })}
                    options={(['installation_user', 'installation_admin'] as const).map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
                </div>
              )}
              <button type="button" className="btn-secondary" onClick={() => setRemoving(m)} aria-label={t('facilities.remove', { name: m.name })}>
                {t('facilities.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {candidates.length ? (
        <form className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3 sm:items-end" onSubmit={(e) => {
          e.preventDefault()
          if (adding) void run(() => addMembership(user.id, Number(adding), role)).then(() => setAdding(''))
        }}>
          <SelectField label={t('facilities.add')} value={adding} onChange={(e) => setAdding(e.target.value)}
            options={[{ value: '', label: t('facilities.choose') }, ...candidates.map((i) => ({ value: String(i.id), label: i.name }))]} />
          <SelectField label={t('fields.role')} value={role} onChange={(e) => setRole(e.target.value as Membership['role'])}
            options={(['installation_user', 'installation_admin'] as const).map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
          <button type="submit" className="btn-primary" disabled={busy || !adding}>{t('facilities.addButton')}</button>
        </form>
      ) : null}
      <FeedbackNotice feedback={feedback} />
      <ConfirmDialog open={removing !== null} title={t('facilities.confirmTitle')} confirmLabel={t('facilities.removeShort')} cancelLabel={t('cancel')} busy={busy}
        onCancel={() => setRemoving(null)} onConfirm={() => removing && void run(() => removeMembership(user.id, removing.id))}>
        {removing ? t('facilities.confirmText', { name: removing.name }) : null}
      </ConfirmDialog>
      <ConfirmDialog open={changing !== null} title={t('facilities.roleConfirmTitle')} confirmLabel={t('facilities.roleConfirmButton')} cancelLabel={t('cancel')} busy={busy}
        onCancel={() => setChanging(null)} onConfirm={() => changing && void run(() => changeMembership(user.id, changing.membership.id, changing.role))}>
        {changing ? t('facilities.roleConfirmText', { name: user.full_name || user.email, facility: changing.membership.name, role: t(`roles.${changing.role}`) }) : null}
      </ConfirmDialog>
    </Card>
  )
}

/**
 * The RFID cards of this facility given to the user: give one of the facility's other
 * cards to the user (a card held by someone else changes hands) or take one back. Shown when the user
 * belongs to this facility (a card goes only to its members).
 */
function RfidsSection({ user, installation }: { user: ManagedUser; installation: Installation }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const queryClient = useQueryClient()
  // The RFIDs screen's list (an admin reads every card of the facility).
  const query = useQuery({ queryKey: rfidKeys.list(installation.id), queryFn: ({ signal }) => listRfids(installation.id, signal) })
  const cards = query.data?.results ?? null
  const [choice, setChoice] = useState('')
  const { busy, feedback, run } = useAction()
  if (!user.installations.some((m) => m.id === installation.id)) return null
  const mine = (cards ?? []).filter((c) => c.user_id === user.id)
  const others = (cards ?? []).filter((c) => c.user_id !== user.id)
  const label = (c: Rfid) => [c.tag, c.description, c.user_name ? t('rfids.heldBy', { name: c.user_name }) : t('rfids.unassigned')].filter(Boolean).join(' · ')

  async function give(rfidId: number, userId: number | null, done: string) {
    const ok = await run(async () => {
      await assignRfid(installation.id, rfidId, userId)
      await queryClient.invalidateQueries({ queryKey: rfidKeys.all(installation.id) })
      return done
    })
    if (ok) setChoice('')
  }

  return (
    <Card title={t('rfids.title')} titleId={titleId}>
      {cards === null ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : (
        <>
          {mine.length ? (
            <ul aria-labelledby={titleId} className="divide-y divide-slate-100">
              {mine.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="text-sm text-slate-800"><span className="font-mono font-semibold">{c.tag}</span>{c.description ? ` · ${c.description}` : ''}</span>
                  <button type="button" className="btn-secondary" disabled={busy} aria-label={t('rfids.unassignNamed', { tag: c.tag })}
                    onClick={() => void give(c.id, null, t('saved'))}>
                    {t('rfids.unassign')}
                  </button>
                </li>
              ))}
            </ul>
          ) : <p className="text-sm text-slate-600">{t('rfids.none')}</p>}
          {others.length ? (
            <form className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3 sm:items-end" onSubmit={(e) => {
              e.preventDefault()
              if (choice) void give(Number(choice), user.id, t('saved'))
            }}>
              <div className="sm:col-span-2">
                <SelectField label={t('rfids.choose')} value={choice} onChange={(e) => setChoice(e.target.value)}
                  options={[{ value: '', label: t('rfids.chooseNone') }, ...others.map((c) => ({ value: String(c.id), label: label(c) }))]} />
              </div>
              <button type="submit" className="btn-primary" disabled={busy || !choice}>{t('rfids.assign')}</button>
            </form>
          ) : null}
        </>
      )}
      <FeedbackNotice feedback={feedback} />
    </Card>
  )
}

type Pending = 'activate' | 'deactivate' | 'grantSuper' | 'revokeSuper' | 'delete' | null

function ActionsSection({ user, installation, onChanged }: { user: ManagedUser; installation: Installation; onChanged: (saved?: ManagedUser) => Promise<unknown> }) {
  const { t } = useTranslation('users')
  const f = useFormats(installation.timezone)
  const [, navigate] = useLocation()
  const queryClient = useQueryClient()
  const { user: me } = useSnapshot(session)
  const titleId = useId()
  const dateId = useId()
  const [pending, setPending] = useState<Pending>(null)
  const [date, setDate] = useState('')
  const { busy, feedback, run: act } = useAction()
  const self = me?.id === user.id

  async function run(action: () => Promise<ManagedUser | { detail: string } | void>, done: string) {
    await act(async () => {
      const r = await action()
      if (r && 'id' in r) void onChanged(r)
      // The welcome mail joins the outbox (superusers see it on the users screen).
      else void queryClient.invalidateQueries({ queryKey: userKeys.outbox() })
      return done
    })
    setPending(null)
  }

  function confirm() {
    if (pending === 'activate') void run(() => setActive(user.id, true, null), t('saved'))
    if (pending === 'deactivate') void run(() => setActive(user.id, false, date ? new Date(`${date}T00:00:00`).toISOString() : null), t('saved'))
    if (pending === 'grantSuper') void run(() => setSuperuser(user.id, true), t('saved'))
    if (pending === 'revokeSuper') void run(() => setSuperuser(user.id, false), t('saved'))
    if (pending === 'delete') {
      void act(async () => {
        await deleteUser(user.id)
        navigate(paths.users(installation.id))
        queryClient.removeQueries({ queryKey: userKeys.user(user.id) })
        void onChanged()
      }).then((ok) => ok || setPending(null))
    }
  }

  return (
    <Card title={t('actions.title')} titleId={titleId}>
      {user.deactivation_datetime ? <p className="mb-3 text-sm text-slate-600">{t(user.is_active ? 'actions.deactivatesOn' : 'actions.deactivatedOn', { date: f.date(user.deactivation_datetime) })}</p> : null}
      <div className="flex flex-wrap items-end gap-3">
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => void run(() => sendWelcome(user.id, installation.id), t('actions.welcomeSent'))}>
          {t('actions.welcome')}
        </button>
        {self ? null : user.is_active ? (
          <>
            <div>
              <label htmlFor={dateId} className="block text-sm font-medium text-slate-700">{t('actions.deactivationDate')}</label>
              <input id={dateId} type="date" value={date} onChange={(e) => setDate(e.target.value)} className="mt-1 rounded-lg border border-slate-300 px-3 py-2 text-sm" />
            </div>
            <button type="button" className="btn-secondary" onClick={() => setPending('deactivate')}>{t('actions.deactivate')}</button>
          </>
        ) : (
          <button type="button" className="btn-secondary" onClick={() => setPending('activate')}>{t('actions.activate')}</button>
        )}
        {me?.is_superuser && !self ? (
          <button type="button" className="btn-secondary" onClick={() => setPending(user.is_superuser ? 'revokeSuper' : 'grantSuper')}>
            {user.is_superuser ? t('actions.revokeSuper') : t('actions.grantSuper')}
          </button>
        ) : null}
        {self ? null : (
          <button type="button" className="btn-secondary border-red-300 text-red-700" onClick={() => setPending('delete')}>{t('actions.delete')}</button>
        )}
      </div>
      <FeedbackNotice feedback={feedback} />
      <ConfirmDialog open={pending !== null} title={pending ? t(`confirm.${pending}.title`) : ''} confirmLabel={pending ? t(`confirm.${pending}.button`) : ''}
        cancelLabel={t('cancel')} busy={busy} onCancel={() => setPending(null)} onConfirm={confirm}>
        {pending ? t(`confirm.${pending}.text`, { name: user.full_name || user.email }) : null}
      </ConfirmDialog>
    </Card>
  )
}
