import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { UserRoleFilter } from '../../../shared/schemas/accounts.ts'
import { LANGUAGES, currentLanguage } from '../../i18n/index.ts'
import { COUNTRIES } from '../../../shared/rules/regions.ts'
import { regionOfTag } from '../../../shared/rules/formats.ts'
import { paths } from '../../app/paths.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Badge, Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { createUser, fetchUsers, userKeys } from './api.ts'
import { OutboxCard } from './outbox-card.tsx'
import { RegistrationCard } from './registration-card.tsx'
import { InvitationsCard } from './invitations-card.tsx'
import { useSnapshot } from 'valtio'
import { session } from '../../session/session.ts'
import { useSession } from '../../session/use-session.ts'

const ROLES: UserRoleFilter[] = ['all', 'superuser', 'installation_admin', 'installation_user']

/**
 * Management → Users (SPEC §2, §6): the installation's users, each with their description in brackets
 * (SPEC §3), with a role filter (including all; superusers hold every installation) and the new-user form. Admins and superusers only (the API answers 403 otherwise).
 */
export default function UsersPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const [role, setRole] = useState<UserRoleFilter>('all')
  const query = useQuery({ queryKey: userKeys.list(installation.id, role), queryFn: ({ signal }) => fetchUsers(installation.id, role, signal).then((page) => page.results) })
  const users = query.data ?? null
  const [creating, setCreating] = useState(false)
  // What the last creation did, said the same way for a new address and one with an account elsewhere.
  const [created, setCreated] = useState<string | null>(null)
  const listId = useId()
  const { user: me } = useSnapshot(session)
  useDocumentTitle(t('title'))

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        <button type="button" className="btn-primary" aria-expanded={creating} onClick={() => {
          setCreating(!creating)
          setCreated(null)
        }}>
          {t('new.open')}
        </button>
      </div>
      {creating ? (
        <NewUserForm installation={installation} onCancel={() => setCreating(false)} onCreated={(text) => {
          setCreating(false)
          setCreated(text)
        }} />
      ) : null}
      {created ? <Notice tone="info" role="status">{created}</Notice> : null}
      <Card title={t('list.title')} titleId={listId}
        aside={
          <SelectField label={t('list.role')} value={role} onChange={(e) => setRole(e.target.value as UserRoleFilter)}
            options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
        }>
        {users === null ? (
          query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
        ) : users.length === 0 ? (
          <p className="text-sm text-slate-600">{t('list.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {users.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="min-w-0">
                  {/* A superuser is not an admin's to manage (the API answers 403): shown, not linked. */}
                  {u.is_superuser && !me?.is_superuser ? (
                    <span className="font-medium text-slate-900">{u.full_name || u.email}</span>
                  ) : (
                    <Link href={paths.user(installation.id, u.id)} className="font-medium text-brand-700 hover:underline">
                      {u.full_name || u.email}
                    </Link>
                  )}
                  {u.description ? <span className="text-slate-600"> ({u.description})</span> : null}
                  <p className="truncate text-sm text-slate-600">{u.email}</p>
                </div>
                <div className="flex flex-wrap gap-1">
                  <Badge tone={u.role === 'installation_user' ? 'gray' : 'blue'}>{t(`roles.${u.role}`)}</Badge>
                  {u.is_active ? null : <Badge tone="red">{t('status.inactive')}</Badge>}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <InvitationsCard installation={installation} />
      <RegistrationCard installation={installation} />
      {me?.is_superuser ? <OutboxCard timezone={installation.timezone} /> : null}
    </div>
  )
}

function NewUserForm({ installation, onCancel, onCreated }: { installation: Installation; onCancel: () => void; onCreated: (notice: string) => void }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const queryClient = useQueryClient()
  const titleId = useId()
  // The new user's language and region start at the admin's own (the UI's language, the region of their
  // Settings), what the server would choose too (server/domain/users/language.ts); shown, so it can change.
  const myTag = useSession((s) => s.user?.ietf_lang_tag)
  const [form, setForm] = useState(() => ({
    email: '', title: '', first_name: '', last_name: '', description: '', role: 'installation_user',
    language: currentLanguage() as string, region: (regionOfTag(myTag) ?? 'CH') as string, send_welcome: true,
  }))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setFailure(null)
    const found: Record<string, string> = {}
    for (const f of ['email', 'first_name', 'last_name'] as const) if (!form[f].trim()) found[f] = t('validation.required')
    if (!found.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) found.email = t('validation.email')
    setErrors(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      await createUser(installation.id, {
        email: form.email.trim(), first_name: form.first_name.trim(), last_name: form.last_name.trim(), description: form.description.trim(),
        title: form.title === 'mr' || form.title === 'ms' ? form.title : null,
        role: form.role as 'installation_user', ietf_lang_tag: `${form.language}-${form.region}`, send_welcome: form.send_welcome,
      })
      // Every role filter of this installation's list may show the new user; a welcome mail joins the outbox.
      void queryClient.invalidateQueries({ queryKey: userKeys.lists(installation.id) })
      void queryClient.invalidateQueries({ queryKey: userKeys.invitations(installation.id) })
      if (form.send_welcome) void queryClient.invalidateQueries({ queryKey: userKeys.outbox() })
      // The same place and words whether the address was new or had an account elsewhere (then the person
      // was invited and the answered id leads nowhere): docs/decisions.md "Accounts: creating a user whose
      // address has an account elsewhere".
      onCreated(form.send_welcome ? t('new.created', { email: form.email.trim().toLowerCase() }) : t('new.createdNoMail'))
    } catch (err) {
      const f = fieldErrors(err)
      if (Object.keys(f).length) setErrors(f)
      else setFailure(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title={t('new.title')} titleId={titleId}>
      <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label={t('fields.email')} type="email" value={form.email} error={errors.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        <SelectField label={t('fields.title')} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })}
          options={[{ value: '', label: t('fields.noTitle') }, { value: 'mr', label: t('fields.mr') }, { value: 'ms', label: t('fields.ms') }]} />
        <TextField label={t('fields.first_name')} value={form.first_name} error={errors.first_name} onChange={(e) => setForm({ ...form, first_name: e.target.value })} />
        <TextField label={t('fields.last_name')} value={form.last_name} error={errors.last_name} onChange={(e) => setForm({ ...form, last_name: e.target.value })} />
        <TextField label={t('fields.description')} value={form.description} maxLength={255} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        <SelectField label={t('fields.role')} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })}
          options={(['installation_user', 'installation_admin'] as const).map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
        <SelectField label={t('fields.language')} value={form.language} onChange={(e) => setForm({ ...form, language: e.target.value })}
          options={LANGUAGES.map((l) => ({ value: l, label: tc(`language.${l}`) }))} />
        <SelectField label={t('fields.region')} value={form.region} onChange={(e) => setForm({ ...form, region: e.target.value })}
          options={COUNTRIES.map((c) => ({ value: c, label: t(`countries.${c}`) }))} />
        <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
          <input type="checkbox" checked={form.send_welcome} onChange={(e) => setForm({ ...form, send_welcome: e.target.checked })} />
          {t('new.sendWelcome')}
        </label>
        {failure ? <Notice tone="error" role="alert" className="sm:col-span-2">{failure}</Notice> : null}
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>{busy ? t('saving') : t('new.submit')}</button>
          <button type="button" className="btn-secondary" onClick={onCancel}>{t('cancel')}</button>
        </div>
      </form>
    </Card>
  )
}
