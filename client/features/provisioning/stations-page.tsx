import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage } from '../../api/errors.ts'
import { Card, Notice, Outcome, useDocumentTitle } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { localeSigns, parseLocaleNumber } from '../../components/parse-number.ts'
import { useFormats } from '../../components/use-formats.ts'
import {
  createStation, deleteStation, fetchObjectTree, fetchStations, installationChanged, provisioningKeys, rotateOcppPassword, updateStationSetup,
  type OcppCredentials, type Station,
} from './api.ts'
import { OcppCredentialsPanel } from './ocpp-credentials.tsx'
import { flattenTree, validateStation, type FlatObject, type StationValues } from './validate.ts'
import { FormActions, ListState, useProvisioningForm } from './form.tsx'

/** Credentials to show once: the station they belong to and what the server answered. */
type Shown = { stationName: string; credentials: OcppCredentials } | null

/**
 * Management → Charging stations (admins): the installation's stations with their object and
 * capacity; add a station (name, object, capacity, phases, OCPP charge point id), change its capacity
 * and phases, give its charge point a
 * new password, delete it (its charging sessions are kept; refused while one is open). After creating
 * or a new password, the OCPP credentials are shown once ({@link OcppCredentialsPanel}).
 */
export default function StationsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('stations.title'))
  const f = useFormats(installation.timezone)
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: provisioningKeys.stations(installation.id), queryFn: ({ signal }) => fetchStations(installation.id, signal) })
  const objectsQuery = useQuery({ queryKey: provisioningKeys.objects(installation.id), queryFn: ({ signal }) => fetchObjectTree(installation.id, signal) })
  const objects = objectsQuery.data ? flattenTree(objectsQuery.data) : null
  const stations = query.data ?? null
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<number | null>(null)
  const [shown, setShown] = useState<Shown>(null)
  const [confirming, setConfirming] = useState<{ station: Station; action: 'rotate' | 'delete' } | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const listId = useId()
  const objectName = (id: number | null) => (id === null ? '—' : (objects?.find((o) => o.id === id)?.path ?? `#${id}`))

  async function act(station: Station, action: 'rotate' | 'delete') {
    setBusy(true)
    setProblem(null)
    setMessage(null)
    try {
      if (action === 'rotate') {
        setShown({ stationName: station.name, credentials: await rotateOcppPassword(installation.id, station.id) })
      } else {
        await deleteStation(installation.id, station.id)
        setMessage(t('stations.deleted', { name: station.name }))
        void installationChanged(queryClient, installation.id)
      }
    } catch (err) {
      setProblem(errorMessage(err, tc))
    } finally {
      setConfirming(null)
      setBusy(false)
    }
  }

  const failed = [query, objectsQuery].find((q) => q.isError && !q.isFetching)
  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('stations.title')}</h1>
        <button type="button" className="btn-primary" aria-expanded={adding} disabled={!objects} onClick={() => (setMessage(null), setAdding(!adding))}>
          {t('stations.new')}
        </button>
      </div>
      {shown ? <OcppCredentialsPanel stationName={shown.stationName} credentials={shown.credentials} onDone={() => setShown(null)} /> : null}
      <Outcome message={message} problem={problem} />
      {adding && objects ? (
        <StationForm
          installationId={installation.id}
          objects={objects}
          onCancel={() => setAdding(false)}
          onCreated={(name, ocpp) => {
            setAdding(false)
            if (ocpp) setShown({ stationName: name, credentials: ocpp })
            else setMessage(t('stations.created', { name }))
          }}
        />
      ) : null}
      {objects && objects.length === 0 ? <Notice tone="info">{t('stations.noObjects')}</Notice> : null}
      <Card title={t('stations.list')} titleId={listId}>
        <ListState ready={stations !== null && objects !== null} failed={failed} empty={stations?.length === 0} emptyText={t('stations.empty')}>
          {() => (
          <ul className="divide-y divide-slate-100">
            {stations!.map((s) => (
              <li key={s.id} className="py-3">
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{s.name}</p>
                  <p className="text-sm text-slate-600">
                    {objectName(s.object_id)} · {f.kw(s.capacity_kw)} · {t('stations.phasesShort', { count: s.phases ?? 3 })}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <button type="button" className="btn-secondary min-h-11 px-3" aria-expanded={editing === s.id} aria-label={t('stations.editNamed', { name: s.name })}
                    onClick={() => (setMessage(null), setEditing(editing === s.id ? null : s.id))}>
                    {t('edit')}
                  </button>
                  <button type="button" className="btn-secondary min-h-11 px-3" aria-label={t('stations.rotateNamed', { name: s.name })} onClick={() => setConfirming({ station: s, action: 'rotate' })}>
                    {t('stations.rotate')}
                  </button>
                  <button type="button" className="btn-secondary min-h-11 px-3 text-red-700" aria-label={t('stations.deleteNamed', { name: s.name })} onClick={() => setConfirming({ station: s, action: 'delete' })}>
                    {t('delete')}
                  </button>
                </div>
                </div>
                {editing === s.id ? (
                  <StationSetupForm installationId={installation.id} station={s} onCancel={() => setEditing(null)}
                    onSaved={(name) => (setEditing(null), setMessage(t('stations.saved', { name })))} />
                ) : null}
              </li>
            ))}
          </ul>
          )}
        </ListState>
      </Card>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t(confirming.action === 'rotate' ? 'stations.confirmRotate' : 'stations.confirmDelete', { name: confirming.station.name }) : ''}
        confirmLabel={confirming?.action === 'rotate' ? t('stations.rotate') : t('delete')}
        cancelLabel={t('cancel')}
        busy={busy}
        onConfirm={() => confirming && void act(confirming.station, confirming.action)}
        onCancel={() => setConfirming(null)}
      >
        {confirming ? t(confirming.action === 'rotate' ? 'stations.rotateText' : 'stations.deleteText') : null}
      </ConfirmDialog>
    </div>
  )
}

/** A new station: name, object, capacity in kW (1–350), phases (1 or 3) and, for OCPP, its charge point id. */
function StationForm({ installationId, objects, onCancel, onCreated }: { installationId: number; objects: FlatObject[]; onCancel: () => void; onCreated: (name: string, ocpp: OcppCredentials | null) => void }) {
  const { t } = useTranslation('provisioning')
  const { locale } = useFormats()
  const queryClient = useQueryClient()
  const titleId = useId()
  const [v, setV] = useState<StationValues>({ name: '', object_id: objects[0] ? String(objects[0].id) : '', capacity_kw: '11', phases: '3', ocpp_charge_point_id: '' })
  const { failure, busy, msg, run } = useProvisioningForm()

  function submit(e: FormEvent) {
    e.preventDefault()
    // A charge point id used anywhere (409) or an object out of reach (404) name their field.
    void run(validateStation(v, locale), async () => {
      const cp = v.ocpp_charge_point_id.trim()
      const created = await createStation(installationId, {
        name: v.name.trim(),
        object_id: Number(v.object_id),
        capacity_kw: parseLocaleNumber(v.capacity_kw, locale),
        phases: v.phases === '1' ? 1 : 3,
        ...(cp ? { ocpp_charge_point_id: cp } : {}),
      })
      // Only the station's public fields reach the cache, through a fresh read: never the password.
      void installationChanged(queryClient, installationId)
      onCreated(created.name, created.ocpp)
    }, { namedFields: ['ocpp_charge_point_id', 'object_id'] })
  }

  return (
    <Card title={t('stations.newTitle')} titleId={titleId}>
      <form noValidate onSubmit={submit} aria-busy={busy} className="space-y-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField label={t('fields.name')} value={v.name} maxLength={100} error={msg('name')} onChange={(e) => setV({ ...v, name: e.target.value })} />
          <SelectField label={t('fields.object')} value={v.object_id} error={msg('object_id')} onChange={(e) => setV({ ...v, object_id: e.target.value })}
            options={objects.map((o) => ({ value: String(o.id), label: o.path }))} />
          <TextField label={t('fields.capacityKw')} inputMode="decimal" value={v.capacity_kw} error={msg('capacity_kw')} onChange={(e) => setV({ ...v, capacity_kw: e.target.value })} />
          <SelectField label={t('fields.phases')} value={v.phases} error={msg('phases')} onChange={(e) => setV({ ...v, phases: e.target.value })}
            options={[{ value: '3', label: t('phases.3') }, { value: '1', label: t('phases.1') }]} />
          <div className="sm:col-span-2">
            <TextField label={t('fields.chargePointId')} value={v.ocpp_charge_point_id} maxLength={48} autoCapitalize="off" spellCheck={false} error={msg('ocpp_charge_point_id')}
              onChange={(e) => setV({ ...v, ocpp_charge_point_id: e.target.value })} />
            <p className="mt-1 text-xs text-slate-500">{t('stations.chargePointHint')}</p>
          </div>
        </div>
        <FormActions failure={failure} busy={busy} submitLabel={t('stations.create')} onCancel={onCancel} />
      </form>
    </Card>
  )
}

/** A station's capacity in kW (1–350) and phases (1 or 3), changed by an admin (PATCH, audited by the server). */
function StationSetupForm({ installationId, station, onCancel, onSaved }: { installationId: number; station: Station; onCancel: () => void; onSaved: (name: string) => void }) {
  const { t } = useTranslation('provisioning')
  const { locale } = useFormats()
  const queryClient = useQueryClient()
  // The capacity as the locale writes it (decimal sign), so it reads back the same.
  const [v, setV] = useState({ capacity_kw: String(station.capacity_kw).replace('.', localeSigns(locale).decimal), phases: String(station.phases ?? 3) })
  const { failure, busy, msg, run } = useProvisioningForm()

  function submit(e: FormEvent) {
    e.preventDefault()
    // The same checks as a new station's, on these two fields.
    void run(validateStation({ name: station.name, object_id: '1', capacity_kw: v.capacity_kw, phases: v.phases, ocpp_charge_point_id: '' }, locale), async () => {
      const saved = await updateStationSetup(installationId, station.id, { capacity_kw: parseLocaleNumber(v.capacity_kw, locale), phases: v.phases === '1' ? 1 : 3 })
      void installationChanged(queryClient, installationId)
      onSaved(saved.name)
    })
  }

  return (
    <form noValidate onSubmit={submit} aria-busy={busy} aria-label={t('stations.editTitle', { name: station.name })} className="mt-3 space-y-3 rounded-lg bg-slate-50 p-3">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label={t('fields.capacityKw')} inputMode="decimal" value={v.capacity_kw} error={msg('capacity_kw')} onChange={(e) => setV({ ...v, capacity_kw: e.target.value })} />
        <SelectField label={t('fields.phases')} value={v.phases} error={msg('phases')} onChange={(e) => setV({ ...v, phases: e.target.value })}
          options={[{ value: '3', label: t('phases.3') }, { value: '1', label: t('phases.1') }]} />
      </div>
      <FormActions failure={failure} busy={busy} onCancel={onCancel} />
    </form>
  )
}
