import type { FormEvent } from 'react'
import { useDeferredValue, useId, useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { paths } from '../../app/paths.ts'
import { clientNow } from '../../api/clock.ts'
import { errorMessage } from '../../api/errors.ts'
import { Badge, Card, Notice, Outcome, useDocumentTitle } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { ensureInstallations } from '../../session/api.ts'
import { meKeys } from '../settings/api.ts'
import { OperatorFields, operatorErrors, operatorFormValues, operatorFromForm, type OperatorFormValues } from '../pricing/operator-card.tsx'
import { createInstallation, fetchInstallationStatus, provisioningKeys, setArchived, STATUS_PAGE, type InstallationStatus } from './api.ts'
import { AddressFields, emptyAddress, toAddress } from './address-fields.tsx'
import { age, DEFAULT_TIMEZONE, timeZones, validateInstallation, type AddressValues } from './validate.ts'
import { FormActions, ListState, useProvisioningForm } from './form.tsx'

/**
 * The operator's Installations list (superusers): every installation with its state — online or
 * offline since when, active alerts, the age of its newest data, stations charging of all — a search,
 * the form for a new installation and archiving (an archived installation keeps its history for
 * bookkeeping and is read-only; SPEC §4 offline states, §5 confirmations).
 */
export default function InstallationsPage() {
  const { t } = useTranslation('provisioning')
  useDocumentTitle(t('installations.title'))
  const [search, setSearch] = useState('')
  const q = useDeferredValue(search.trim())
  // Pages of STATUS_PAGE rows; a new search starts at the first.
  const [page, setPage] = useState({ q, offset: 0 })
  const offset = page.q === q ? page.offset : 0
  const query = useQuery({
    queryKey: provisioningKeys.status(q, offset),
    queryFn: ({ signal }) => fetchInstallationStatus(q, offset, signal),
    placeholderData: keepPreviousData,
  })
  const rows = query.data?.results ?? null
  const total = query.data?.count ?? 0
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<{ id: number; name: string } | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [confirming, setConfirming] = useState<InstallationStatus | null>(null)
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()
  const { t: tc } = useTranslation()
  const listId = useId()

  // The list and the facility selector both change with a new or (un)archived installation.
  async function listsChanged() {
    await Promise.all([queryClient.invalidateQueries({ queryKey: provisioningKeys.statusAll() }), ensureInstallations(true).catch(() => undefined)])
    void queryClient.invalidateQueries({ queryKey: meKeys.installations() })
  }

  async function toggleArchive(row: InstallationStatus) {
    setBusy(true)
    setProblem(null)
    setMessage(null)
    try {
      await setArchived(row.id, !row.archived_at)
      setMessage(t(row.archived_at ? 'installations.unarchived' : 'installations.archived', { name: row.name }))
      setConfirming(null)
      await listsChanged()
    } catch (err) {
      setConfirming(null)
      setProblem(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('installations.title')}</h1>
        <button type="button" className="btn-primary" aria-expanded={creating} onClick={() => (setCreating(!creating), setCreated(null))}>
          {t('installations.new')}
        </button>
      </div>
      {creating ? (
        <NewInstallationForm
          onCancel={() => setCreating(false)}
          onCreated={(i) => {
            setCreating(false)
            setCreated(i)
            void listsChanged()
          }}
        />
      ) : null}
      {created ? (
        <Notice tone="info">
          {t('installations.created', { name: created.name })}{' '}
          <Link href={paths.objects(created.id)} className="font-semibold underline">
            {t('installations.nextObjects')}
          </Link>
        </Notice>
      ) : null}
      <Outcome message={message} problem={problem} />
      <Card
        title={t('installations.list')}
        titleId={listId}
        aside={
          <div className="w-64 max-w-full">
            <TextField label={t('installations.search')} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
        }
      >
        <ListState ready={rows !== null} failed={query.isError && !query.isFetching ? query : undefined} empty={rows?.length === 0} emptyText={q ? t('installations.noMatch') : t('installations.empty')}>
          {() => (
            <ul className="divide-y divide-slate-100" aria-busy={query.isFetching}>
              {rows!.map((row) => (
                <InstallationRow key={row.id} row={row} onArchive={() => (setMessage(null), setConfirming(row))} />
              ))}
            </ul>
          )}
        </ListState>
        {rows && total > STATUS_PAGE ? (
          <nav className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600" aria-label={t('installations.pages')}>
            <span className="tabular-nums">{t('installations.pageRange', { from: offset + 1, to: offset + rows.length, count: total })}</span>
            <span className="flex gap-2">
              <button type="button" className="btn-secondary min-h-11 px-3" disabled={offset === 0} onClick={() => setPage({ q, offset: Math.max(0, offset - STATUS_PAGE) })}>
                {t('installations.previousPage')}
              </button>
              <button type="button" className="btn-secondary min-h-11 px-3" disabled={offset + STATUS_PAGE >= total} onClick={() => setPage({ q, offset: offset + STATUS_PAGE })}>
                {t('installations.nextPage')}
              </button>
            </span>
          </nav>
        ) : null}
      </Card>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t(confirming.archived_at ? 'installations.confirmUnarchive' : 'installations.confirmArchive', { name: confirming.name }) : ''}
        confirmLabel={confirming?.archived_at ? t('installations.unarchive') : t('installations.archive')}
        cancelLabel={t('cancel')}
        busy={busy}
        onConfirm={() => confirming && void toggleArchive(confirming)}
        onCancel={() => setConfirming(null)}
      >
        {confirming ? (confirming.archived_at ? t('installations.unarchiveText') : t('installations.archiveText')) : null}
      </ConfirmDialog>
    </div>
  )
}

/** One installation: name and city, its state as badges (colour and text), and its actions. */
function InstallationRow({ row, onArchive }: { row: InstallationStatus; onArchive: () => void }) {
  const { t } = useTranslation('provisioning')
  const f = useFormats()
  const ago = (at: string) => {
    const a = age(at, clientNow())
    return new Intl.RelativeTimeFormat(f.locale, { numeric: 'auto' }).format(-a.value, a.unit)
  }
  const archived = row.archived_at !== null
  return (
    <li className="flex flex-col gap-2 py-3 md:flex-row md:items-center md:justify-between">
      <div className="min-w-0">
        {archived ? (
          <span className="font-medium text-slate-900">{row.name}</span>
        ) : (
          <Link href={paths.facility(row.id)} className="font-medium text-brand-700 hover:underline">
            {row.name}
          </Link>
        )}
        {row.city ? <span className="text-sm text-slate-600"> · {row.city}</span> : null}
        <div className="mt-1 flex flex-wrap gap-1.5">
          {archived ? (
            <Badge tone="gray">{t('installations.archivedSince', { date: f.date(row.archived_at!) })}</Badge>
          ) : row.online ? (
            <Badge tone="green">{t('installations.online')}</Badge>
          ) : (
            <Badge tone="red">{row.offline_since ? t('installations.offlineSince', { when: ago(row.offline_since) }) : t('installations.offline')}</Badge>
          )}
          {row.alert_count > 0 ? <Badge tone="amber">{t('installations.alerts', { count: row.alert_count })}</Badge> : null}
        </div>
      </div>
      <div className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm md:flex md:items-center md:gap-6">
        {/* A definition list holds only its terms and values (axe definition-list): the button follows it. */}
        <dl className="col-span-2 grid grid-cols-2 gap-x-4 gap-y-1 md:flex md:items-center md:gap-6">
          <div>
            <dt className="text-xs text-slate-500">{t('installations.lastData')}</dt>
            <dd className="tabular-nums text-slate-800">{row.last_data_at ? ago(row.last_data_at) : t('installations.noData')}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">{t('installations.stations')}</dt>
            <dd className="tabular-nums text-slate-800">{t('installations.charging', { count: row.stations_charging, total: row.stations_total })}</dd>
          </div>
        </dl>
        <div className="col-span-2 md:col-span-1">
          <button
            type="button"
            className="btn-secondary min-h-11 px-3"
            aria-label={t(archived ? 'installations.unarchiveNamed' : 'installations.archiveNamed', { name: row.name })}
            onClick={onArchive}
          >
            {archived ? t('installations.unarchive') : t('installations.archive')}
          </button>
        </div>
      </div>
    </li>
  )
}

/**
 * A new installation: name, time zone (Europe/Zurich by default), currency and address; the operator
 * who bills charging can be added now or later under Installation settings.
 */
function NewInstallationForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (i: { id: number; name: string }) => void }) {
  const { t } = useTranslation('provisioning')
  const { locale } = useFormats()
  const titleId = useId()
  const [name, setName] = useState('')
  const [timezone, setTimezone] = useState(DEFAULT_TIMEZONE)
  const [currency, setCurrency] = useState<'CHF' | 'EUR'>('CHF')
  const [address, setAddress] = useState<AddressValues>(emptyAddress())
  const [withOperator, setWithOperator] = useState(false)
  const [operator, setOperator] = useState<OperatorFormValues>(() => operatorFormValues(null))
  const { errors, failure, busy, msg, run } = useProvisioningForm()

  function submit(e: FormEvent) {
    e.preventDefault()
    void run(validateInstallation({ name, timezone, address }), async () => {
      const created = await createInstallation({
        name: name.trim(),
        timezone,
        currency,
        address: toAddress(address),
        operator: withOperator ? operatorFromForm(operator, locale) : null,
      })
      onCreated({ id: created.id, name: created.name })
    })
  }

  const operatorFieldErrors = operatorErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith('operator.'))))
  return (
    <Card title={t('installations.newTitle')} titleId={titleId}>
      <form noValidate onSubmit={submit} aria-busy={busy} className="space-y-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField label={t('fields.name')} value={name} maxLength={100} error={msg('name')} onChange={(e) => setName(e.target.value)} />
          <SelectField label={t('fields.timezone')} value={timezone} error={msg('timezone')} onChange={(e) => setTimezone(e.target.value)}
            options={timeZones().map((z) => ({ value: z, label: z.replaceAll('_', ' ') }))} />
          <SelectField label={t('fields.currency')} value={currency} error={msg('currency')} onChange={(e) => setCurrency(e.target.value as 'CHF' | 'EUR')}
            options={[{ value: 'CHF', label: 'CHF' }, { value: 'EUR', label: 'EUR' }]} />
        </div>
        <AddressFields values={address} onChange={setAddress} error={msg} />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={withOperator} onChange={(e) => setWithOperator(e.target.checked)} />
          {t('installations.withOperator')}
        </label>
        {withOperator ? (
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold text-slate-800">{t('installations.operator')}</legend>
            <OperatorFields values={operator} onChange={setOperator} errors={operatorFieldErrors} idPrefix="new-operator" />
          </fieldset>
        ) : (
          <p className="text-xs text-slate-500">{t('installations.operatorLater')}</p>
        )}
        <FormActions failure={failure} busy={busy} submitLabel={t('installations.create')} onCancel={onCancel} />
      </form>
    </Card>
  )
}
