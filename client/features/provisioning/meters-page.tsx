import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage } from '../../api/errors.ts'
import { Badge, Card, Notice, Outcome, useDocumentTitle } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { parseLocaleNumber } from '../../components/parse-number.ts'
import { useFormats } from '../../components/use-formats.ts'
import {
  createMeter, deleteMeter, fetchAdminMeters, fetchObjectTree, installationChanged, METER_KINDS, METER_SOURCES, MODBUS_MODELS, provisioningKeys, updateMeter,
  type MeterAdmin, type MeterKind, type MeterSource, type ModbusModel,
} from './api.ts'
import { defaultUnit, flattenTree, validateMeter, type FlatObject, type MeterValues } from './validate.ts'
import { FormActions, ListState, useProvisioningForm } from './form.tsx'

/** The delete dialog's steps: the choice, then (for a purge) the second, explicit confirmation. */
type Deleting = { meter: MeterAdmin; purge: boolean; step: 'choose' | 'purge' } | null

/**
 * Management → Meters (admins): the installation's meters (SPEC §3 kinds: main power, PV, battery, hot
 * and cold water, heat, and flats' power sub-meters) with their object, serial, unit and source; add,
 * edit and delete. Deleting keeps the measurements (the meter is archived) unless the admin chooses to
 * delete them too, which asks a second time. A charging station's own meter is managed with its station.
 */
export default function MetersPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('meters.title'))
  const f = useFormats(installation.timezone)
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: provisioningKeys.meters(installation.id), queryFn: ({ signal }) => fetchAdminMeters(installation.id, signal) })
  const objectsQuery = useQuery({ queryKey: provisioningKeys.objects(installation.id), queryFn: ({ signal }) => fetchObjectTree(installation.id, signal) })
  const objects = objectsQuery.data ? flattenTree(objectsQuery.data) : null
  const meters = (query.data ?? null)?.filter((m) => !m.archived_at) ?? null
  const [editing, setEditing] = useState<MeterAdmin | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Deleting>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const listId = useId()
  const objectName = (id: number | null) => (id === null ? '—' : (objects?.find((o) => o.id === id)?.path ?? `#${id}`))

  async function remove(d: NonNullable<Deleting>) {
    setBusy(true)
    setProblem(null)
    try {
      await deleteMeter(installation.id, d.meter.id, d.purge)
      setMessage(t(d.purge ? 'meters.purged' : 'meters.deleted', { name: d.meter.name }))
      void installationChanged(queryClient, installation.id)
    } catch (err) {
      setProblem(errorMessage(err, tc))
    } finally {
      setDeleting(null)
      setBusy(false)
    }
  }

  const failed = [query, objectsQuery].find((q) => q.isError && !q.isFetching)
  return (
    <div className="mx-auto max-w-5xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('meters.title')}</h1>
        <button type="button" className="btn-primary" aria-expanded={editing === 'new'} disabled={!objects} onClick={() => (setMessage(null), setEditing('new'))}>
          {t('meters.new')}
        </button>
      </div>
      <Outcome message={message} problem={problem} />
      {editing && objects ? (
        <MeterForm
          key={editing === 'new' ? 'new' : editing.id}
          installationId={installation.id}
          meter={editing === 'new' ? null : editing}
          objects={objects}
          onDone={(text) => {
            setEditing(null)
            if (text) setMessage(text)
          }}
        />
      ) : null}
      {objects && objects.length === 0 ? <Notice tone="info">{t('meters.noObjects')}</Notice> : null}
      <Card title={t('meters.list')} titleId={listId}>
        {/* A list, not a table: on a phone each meter wraps onto lines instead of scrolling sideways. */}
        <ListState ready={meters !== null && objects !== null} failed={failed} empty={meters?.length === 0} emptyText={t('meters.empty')}>
          {() => (
          <ul className="divide-y divide-slate-100" aria-labelledby={listId}>
            {meters!.map((m) => (
              <li key={m.id} className="flex flex-col gap-2 py-3 md:flex-row md:items-center md:justify-between">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {m.name}{' '}
                    <Badge tone="gray">{t(`sources.${m.source}`)}</Badge>
                  </p>
                  <p className="text-sm text-slate-600">
                    {t(`meterTypes.${m.meter_type}`)} ({m.unit})
                    {m.capacity !== null ? ` · ${f.unit(m.capacity, m.meter_type === 'battery' ? 'kWh' : 'kW', 1)}` : ''} · {objectName(m.object_id)}
                  </p>
                  <p className="break-all text-xs text-slate-500">
                    {t('fields.serial')}: <span className="font-mono">{m.serial ?? '—'}</span>
                  </p>
                  {m.source === 'modbus' ? (
                    <p className="break-all text-xs text-slate-500">
                      {m.source_config
                        ? t('modbus.summary', { address: `${m.source_config.host}:${m.source_config.port}`, unit: m.source_config.unit_id, model: t(`modbus.models.${m.source_config.model}`), seconds: m.source_config.interval_s })
                        : t('modbus.notSet')}
                    </p>
                  ) : null}
                  {m.source !== 'simulator' || m.last_reading_at ? (
                    <p className="text-xs text-slate-500">
                      {t('meters.lastReading')}: {m.last_reading_at ? f.dateTime(m.last_reading_at) : t('meters.noReading')}
                      {m.max_power_kw !== null ? ` · ${t('meters.maxPower')}: ${f.unit(m.max_power_kw, 'kW', 1)}` : ''}
                    </p>
                  ) : null}
                  {m.data_quality.state === 'flagged' ? (
                    <p className="break-words text-xs text-amber-900">
                      <Badge tone="amber">{t('meters.flagged')}</Badge>{' '}
                      {m.data_quality.at ? `${f.dateTime(m.data_quality.at)}: ` : ''}{m.data_quality.reason}
                    </p>
                  ) : null}
                </div>
                {m.meter_type === 'charging_station' ? (
                  <p className="text-xs text-slate-500">{t('meters.ofStation')}</p>
                ) : (
                  <div className="flex shrink-0 flex-wrap gap-2">
                    <button type="button" className="btn-secondary min-h-11 px-3" aria-label={t('meters.editNamed', { name: m.name })} onClick={() => (setMessage(null), setEditing(m))}>
                      {t('edit')}
                    </button>
                    <button type="button" className="btn-secondary min-h-11 px-3 text-red-700" aria-label={t('meters.deleteNamed', { name: m.name })} onClick={() => (setMessage(null), setDeleting({ meter: m, purge: false, step: 'choose' }))}>
                      {t('delete')}
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
          )}
        </ListState>
      </Card>
      <DeleteMeterDialog deleting={deleting} busy={busy} onChange={setDeleting} onConfirm={(d) => void remove(d)} />
    </div>
  )
}

/**
 * Delete a meter: keep its measurements (the default) or delete them too; the latter asks a second
 * time, naming what is lost, before anything is sent.
 */
function DeleteMeterDialog({ deleting, busy, onChange, onConfirm }: { deleting: Deleting; busy: boolean; onChange: (d: Deleting) => void; onConfirm: (d: NonNullable<Deleting>) => void }) {
  const { t } = useTranslation('provisioning')
  const name = deleting?.meter.name ?? ''
  if (deleting?.step === 'purge') {
    return (
      <ConfirmDialog open title={t('meters.purgeTitle', { name })} confirmLabel={t('meters.purgeConfirm')} cancelLabel={t('cancel')} busy={busy}
        onConfirm={() => onConfirm(deleting)} onCancel={() => onChange(null)}>
        {t('meters.purgeText', { name })}
      </ConfirmDialog>
    )
  }
  return (
    <ConfirmDialog
      open={deleting !== null}
      title={t('meters.confirmDelete', { name })}
      confirmLabel={deleting?.purge ? t('meters.continue') : t('delete')}
      cancelLabel={t('cancel')}
      busy={busy}
      onConfirm={() => deleting && (deleting.purge ? onChange({ ...deleting, step: 'purge' }) : onConfirm(deleting))}
      onCancel={() => onChange(null)}
    >
      {deleting ? (
        <fieldset className="space-y-2">
          <legend className="mb-1">{t('meters.measurements')}</legend>
          <label className="flex items-start gap-2">
            <input type="radio" name="meter-purge" className="mt-0.5" checked={!deleting.purge} onChange={() => onChange({ ...deleting, purge: false })} />
            <span>{t('meters.keep')}</span>
          </label>
          <label className="flex items-start gap-2">
            <input type="radio" name="meter-purge" className="mt-0.5" checked={deleting.purge} onChange={() => onChange({ ...deleting, purge: true })} />
            <span>{t('meters.purge')}</span>
          </label>
        </fieldset>
      ) : null}
    </ConfirmDialog>
  )
}

/** Add or edit a meter: name, object, kind, unit (by kind), capacity, serial, source and, for Modbus, its device. */
function MeterForm({ installationId, meter, objects, onDone }: { installationId: number; meter: MeterAdmin | null; objects: FlatObject[]; onDone: (message: string | null) => void }) {
  const { t } = useTranslation('provisioning')
  const f = useFormats()
  const queryClient = useQueryClient()
  const titleId = useId()
  const kind0: MeterKind = meter && meter.meter_type !== 'charging_station' ? meter.meter_type : 'main_power'
  const [v, setV] = useState<MeterValues>({
    name: meter?.name ?? '',
    object_id: meter?.object_id != null ? String(meter.object_id) : objects[0] ? String(objects[0].id) : '',
    meter_type: kind0,
    serial: meter?.serial ?? '',
    unit: meter?.unit ?? defaultUnit(kind0),
    capacity: meter?.capacity != null ? f.number(meter.capacity, 1) : '',
    source: meter?.source ?? 'ingest',
    host: meter?.source_config?.host ?? '',
    port: String(meter?.source_config?.port ?? 502),
    unit_id: String(meter?.source_config?.unit_id ?? 1),
    model: meter?.source_config?.model ?? 'sdm630',
    interval_s: String(meter?.source_config?.interval_s ?? 5),
  })
  const { failure, busy, msg, run } = useProvisioningForm()
  const withCapacity = v.meter_type === 'pv' || v.meter_type === 'battery' || v.meter_type === 'main_power'

  function submit(e: FormEvent) {
    e.preventDefault()
    const body = {
      name: v.name.trim(),
      object_id: Number(v.object_id),
      meter_type: v.meter_type,
      serial: v.serial.trim() || null,
      unit: v.unit as 'kWh' | 'm3',
      capacity: withCapacity && v.capacity.trim() ? parseLocaleNumber(v.capacity, f.locale) : null,
      source: v.source as MeterSource,
      source_config: v.source === 'modbus'
        ? { host: v.host.trim(), port: Number(v.port), unit_id: Number(v.unit_id), model: v.model as ModbusModel, interval_s: Number(v.interval_s) }
        : null,
    }
    // A serial used twice (409) or an object out of reach (404) name their field.
    void run(validateMeter(v, f.locale), async () => {
      if (meter) await updateMeter(installationId, meter.id, body)
      else await createMeter(installationId, body)
      await installationChanged(queryClient, installationId)
      onDone(t(meter ? 'meters.saved' : 'meters.created', { name: body.name }))
    }, { namedFields: ['serial', 'object_id'], nested: ['source_config'] })
  }

  return (
    <Card title={meter ? t('meters.editTitle', { name: meter.name }) : t('meters.newTitle')} titleId={titleId}>
      <form noValidate onSubmit={submit} aria-busy={busy} className="space-y-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField label={t('fields.name')} value={v.name} maxLength={100} error={msg('name')} onChange={(e) => setV({ ...v, name: e.target.value })} />
          <SelectField label={t('fields.object')} value={v.object_id} error={msg('object_id')} onChange={(e) => setV({ ...v, object_id: e.target.value })}
            options={objects.map((o) => ({ value: String(o.id), label: o.path }))} />
          <SelectField label={t('fields.meterType')} value={v.meter_type} error={msg('meter_type')}
            onChange={(e) => {
              const kind = e.target.value as MeterKind
              setV({ ...v, meter_type: kind, unit: defaultUnit(kind) })
            }}
            options={METER_KINDS.map((k) => ({ value: k, label: t(`meterTypes.${k}`) }))} />
          <div>
            <p className="block text-sm font-medium text-slate-700">{t('fields.unit')}</p>
            <p className="mt-1 py-2 text-slate-900">{v.unit}</p>
            {msg('unit') ? <p className="mt-1 text-sm text-red-700">{msg('unit')}</p> : null}
          </div>
          {withCapacity ? (
            <TextField label={v.meter_type === 'battery' ? t('fields.capacityKwh') : t('fields.capacityKw')} inputMode="decimal" value={v.capacity} error={msg('capacity')}
              onChange={(e) => setV({ ...v, capacity: e.target.value })} />
          ) : null}
          <TextField label={t('fields.serial')} value={v.serial} maxLength={64} error={msg('serial')} onChange={(e) => setV({ ...v, serial: e.target.value })} />
          <SelectField label={t('fields.source')} value={v.source} error={msg('source')} onChange={(e) => setV({ ...v, source: e.target.value })}
            options={METER_SOURCES.map((s) => ({ value: s, label: t(`sources.${s}`) }))} />
        </div>
        {v.source === 'modbus' ? (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">{t('modbus.legend')}</legend>
            <p className="text-sm text-slate-600">{t('modbus.help')}</p>
            {msg('source_config') ? <p className="text-sm text-red-700">{msg('source_config')}</p> : null}
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <TextField label={t('modbus.host')} value={v.host} maxLength={253} autoComplete="off" spellCheck={false} error={msg('host')} onChange={(e) => setV({ ...v, host: e.target.value })} />
              <TextField label={t('modbus.port')} inputMode="numeric" value={v.port} error={msg('port')} onChange={(e) => setV({ ...v, port: e.target.value })} />
              <TextField label={t('modbus.unitId')} inputMode="numeric" value={v.unit_id} error={msg('unit_id')} onChange={(e) => setV({ ...v, unit_id: e.target.value })} />
              <SelectField label={t('modbus.model')} value={v.model} error={msg('model')} onChange={(e) => setV({ ...v, model: e.target.value })}
                options={MODBUS_MODELS.map((m) => ({ value: m, label: t(`modbus.models.${m}`) }))} />
              <TextField label={t('modbus.interval')} inputMode="numeric" value={v.interval_s} error={msg('interval_s')} onChange={(e) => setV({ ...v, interval_s: e.target.value })} />
            </div>
          </fieldset>
        ) : null}
        <FormActions failure={failure} busy={busy} onCancel={() => onDone(null)} />
      </form>
    </Card>
  )
}
