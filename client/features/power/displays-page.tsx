import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { Display, DisplayCreated } from '../../../shared/schemas/display.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Card, Loading, Notice, useDocumentTitle, Outcome } from '../../components/ui.tsx'
import { TextField } from '../../components/text-field.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { createDisplay, listDisplays, powerKeys, revokeDisplay } from './api.ts'

/**
 * Management → Display links: admins create a link for a wall display (name, optional end
 * date), copy its URL (shown once: only its hash is kept), list the links and revoke one with confirmation.
 */
export default function DisplaysPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('power')
  const { t: tc } = useTranslation()
  const f = useFormats(installation.timezone)
  useDocumentTitle(t('displays.title'))
  const queryClient = useQueryClient()
  const key = powerKeys.displays(installation.id)
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => listDisplays(installation.id, signal) })
  const displays = query.data ?? null
  const reload = () => void queryClient.invalidateQueries({ queryKey: key })
  const [problem, setProblem] = useState<string | null>(null)
  const [created, setCreated] = useState<DisplayCreated | null>(null)
  const [revoking, setRevoking] = useState<Display | null>(null)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string | null>(null)

  const revoke = async (d: Display) => {
    setBusy(true)
    setProblem(null)
    try {
      await revokeDisplay(installation.id, d.id)
      setMessage(t('displays.revoked', { name: d.name }))
      if (created?.id === d.id) setCreated(null)
      reload()
    } catch (err) {
      setProblem(errorMessage(err, tc))
    } finally {
      setBusy(false)
      setRevoking(null)
    }
  }

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('displays.title')}</h1>
      <p className="text-sm text-slate-600">{t('displays.intro')}</p>
      <Outcome message={message} problem={problem} />
      <CreateForm
        installationId={installation.id}
        onCreated={(d) => {
          setCreated(d)
          setMessage(null)
          reload()
        }}
      />
      {created ? <CreatedLink link={created} /> : null}
      <Card titleId="displays-list" title={t('displays.list')}>
        {displays === null ? (
          query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
        ) : displays.length === 0 ? (
          <p className="text-sm text-slate-500">{t('displays.empty')}</p>
        ) : (
          <ul aria-labelledby="displays-list" className="divide-y divide-slate-200">
            {displays.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{d.name}</p>
                  <p className="text-sm text-slate-500">
                    {t('displays.created', { date: f.dateTime(d.created_at) })} ·{' '}
                    {d.valid_until ? t('displays.validUntil', { date: f.dateTime(d.valid_until) }) : t('displays.untilRevoked')}
                  </p>
                </div>
                <button type="button" className="btn-secondary min-h-11 text-red-700" onClick={() => setRevoking(d)}>
                  {t('displays.revoke', { name: d.name })}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        title={t('displays.confirmTitle')}
        confirmLabel={t('displays.confirm')}
        cancelLabel={t('displays.cancel')}
        busy={busy}
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        {revoking ? t('displays.confirmText', { name: revoking.name }) : null}
      </ConfirmDialog>
    </div>
  )
}

function CreateForm({ installationId, onCreated }: { installationId: number; onCreated: (d: DisplayCreated) => void }) {
  const { t } = useTranslation('power')
  const { t: tc } = useTranslation()
  const [name, setName] = useState('')
  const [until, setUntil] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setErrors({})
    setProblem(null)
    if (!name.trim()) return setErrors({ name: t('displays.required') })
    setBusy(true)
    try {
      // The end date counts to the end of that day in the browser's time zone.
      const validUntil = until ? new Date(`${until}T23:59:59`).toISOString() : null
      onCreated(await createDisplay(installationId, { name: name.trim(), valid_until: validUntil }))
      setName('')
      setUntil('')
    } catch (err) {
      const fields = fieldErrors(err)
      if (Object.keys(fields).length) setErrors(fields)
      else setProblem(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card titleId="displays-new" title={t('displays.new')}>
      <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end" noValidate>
        <TextField label={t('displays.name')} value={name} onChange={(e) => setName(e.target.value)} error={errors.name} maxLength={255} required />
        <TextField label={t('displays.until')} type="date" value={until} onChange={(e) => setUntil(e.target.value)} error={errors.valid_until} />
        <button type="submit" className="btn-primary min-h-11" disabled={busy}>
          {t('displays.create')}
        </button>
      </form>
      {problem ? (
        <Notice tone="error" role="alert" className="mt-3">
          {problem}
        </Notice>
      ) : null}
    </Card>
  )
}

/** The new link's URL, once: copy it to the clipboard or open it. */
function CreatedLink({ link }: { link: DisplayCreated }) {
  const { t } = useTranslation('power')
  const id = useId()
  const [copied, setCopied] = useState<boolean | null>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <Notice tone="info" title={t('displays.createdTitle', { name: link.name })}>
      <p>{t('displays.onlyOnce')}</p>
      <label htmlFor={id} className="sr-only">
        {t('displays.url')}
      </label>
      <div className="mt-2 flex flex-wrap gap-2">
        <input id={id} readOnly value={link.url} onFocus={(e) => e.target.select()} className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-base text-slate-900" />
        <button type="button" className="btn-primary min-h-11" onClick={() => void copy()}>
          {t('displays.copy')}
        </button>
        <a className="btn-secondary min-h-11" href={link.url} target="_blank" rel="noopener noreferrer">
          {t('displays.open')}
        </a>
      </div>
      {copied !== null ? <p role="status" className="mt-2">{copied ? t('displays.copied') : t('displays.copyFailed')}</p> : null}
    </Notice>
  )
}
