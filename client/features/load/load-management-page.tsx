import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Card, cx, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { localeSigns } from '../../components/parse-number.ts'
import { useFormats } from '../../components/use-formats.ts'
import { fetchLoadManagement, loadKeys, saveLoadManagement, type LoadManagement, type LoadManagementPut } from './api.ts'
import { newCircuit, removeCircuit, toBody, toDraft, treeOrder, type CircuitDraft, type DraftErrors, type LoadDraft } from './draft.ts'

/**
 * Management → Load management (installation admins and superusers; docs/decisions.md "Load
 * management: model, controller and reasons"): the controller's on/off switch, the grid connection's
 * limit in A per phase and/or kW, the circuits below it (a tree, each with its limit) and which circuit
 * each station hangs on, with the limit the controller set and why. Saved in one PUT; the server's
 * refusals show at their fields (SPEC §5); switching off asks first.
 */
export default function LoadManagementPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('load.title'))
  const query = useQuery({ queryKey: loadKeys.settings(installation.id), queryFn: ({ signal }) => fetchLoadManagement(installation.id, signal) })
  const [message, setMessage] = useState<string | null>(null)
  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('load.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('load.intro')}</p>
      </div>
      {message ? <Notice tone="info">{message}</Notice> : null}
      {query.data ? (
        <LoadForm key={query.data.updated_at ?? 'none'} installationId={installation.id} settings={query.data} onSaved={() => setMessage(t('load.saved'))} onEdit={() => setMessage(null)} />
      ) : query.isError && !query.isFetching ? (
        <QueryProblem error={query.error} onRetry={query.refetch} />
      ) : (
        <Loading label={tc('loading')} />
      )}
    </div>
  )
}

function LoadForm({ installationId, settings, onSaved, onEdit }: { installationId: number; settings: LoadManagement; onSaved: () => void; onEdit: () => void }) {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  const { locale, number } = useFormats()
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState<LoadDraft>(() => toDraft(settings, localeSigns(locale).decimal))
  const [errors, setErrors] = useState<DraftErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirming, setConfirming] = useState<LoadManagementPut | null>(null)
  const generalId = useId()
  const circuitsId = useId()
  const stationsId = useId()
  const peakId = useId()
  const msg = (field: string) => (errors[field] ? (errors[field].startsWith('validation.') ? t(errors[field]) : errors[field]) : null)
  const change = (next: LoadDraft) => {
    onEdit()
    setDraft(next)
  }
  const setCircuit = (key: string, patch: Partial<CircuitDraft>) => change({ ...draft, circuits: draft.circuits.map((c) => (c.key === key ? { ...c, ...patch } : c)) })

  async function save(body: LoadManagementPut) {
    setBusy(true)
    try {
      const saved = await saveLoadManagement(installationId, body)
      // The form remounts with the stored settings (keyed by their updated_at).
      queryClient.setQueryData(loadKeys.settings(installationId), saved)
      onSaved()
    } catch (err) {
      const fields = fieldErrors(err)
      setErrors(fields)
      // A refusal naming no field the form shows (or none) is said in full below the form.
      const shown = Object.keys(fields).some((f) => f === 'grid_limit_a' || f === 'grid_limit_kw' || f === 'peak_shaving.peak_kw' || f.startsWith('circuits.'))
      setFailure(shown ? t('checkFields') : errorMessage(err, tc))
    } finally {
      setBusy(false)
      setConfirming(null)
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    setFailure(null)
    const { body, errors: found } = toBody(draft, locale)
    setErrors(found)
    if (Object.keys(found).length) return setFailure(t('checkFields'))
    // Switching off releases every station: asked first (SPEC §5).
    if (settings.enabled && !body.enabled) return setConfirming(body)
    void save(body)
  }

  const order = treeOrder(draft.circuits)
  const circuitLabel = (c: CircuitDraft) => c.name.trim() || c.id.trim() || t('load.unnamed')
  const parentOptions = (c: CircuitDraft) => [
    { value: '', label: t('load.connection') },
    ...draft.circuits.filter((o) => o.key !== c.key).map((o) => ({ value: o.key, label: circuitLabel(o) })),
  ]
  const stationOptions = [{ value: '', label: t('load.connection') }, ...draft.circuits.map((c) => ({ value: c.key, label: circuitLabel(c) }))]

  return (
    <form noValidate onSubmit={submit} aria-busy={busy} className="space-y-5">
      <Card title={t('load.general')} titleId={generalId}>
        <div className="space-y-4">
          <Switch checked={draft.enabled} label={t('load.enabled')} onChange={(enabled) => change({ ...draft, enabled })}
            description={draft.enabled ? t('load.enabledOn') : t('load.enabledOff')} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField label={t('load.gridLimitA')} inputMode="decimal" value={draft.grid_limit_a} error={msg('grid_limit_a')} onChange={(e) => change({ ...draft, grid_limit_a: e.target.value })} />
            <TextField label={t('load.gridLimitKw')} inputMode="decimal" value={draft.grid_limit_kw} error={msg('grid_limit_kw')} onChange={(e) => change({ ...draft, grid_limit_kw: e.target.value })} />
          </div>
          <p className="text-xs text-slate-500">{t('load.gridHint')}</p>
          <p className="text-sm text-slate-700">
            {settings.effective_grid_limit_a !== null ? t('load.effective', { amps: settings.effective_grid_limit_a }) : t('load.noLimit')}
          </p>
        </div>
      </Card>

      <Card title={t('load.peakTitle')} titleId={peakId}>
        <div className="space-y-4">
          <Switch checked={draft.peak_shaving} label={t('load.peakEnabled')} onChange={(peak_shaving) => change({ ...draft, peak_shaving })}
            description={draft.peak_shaving ? t('load.peakOn') : t('load.peakOff')} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField label={t('load.peakKw')} inputMode="decimal" value={draft.peak_kw} error={msg('peak_shaving.peak_kw')} onChange={(e) => change({ ...draft, peak_kw: e.target.value })} />
          </div>
          <p className="text-xs text-slate-500">{t('load.peakHint')}</p>
          {settings.battery_command ? (
            <p className="text-sm text-slate-700">
              {settings.battery_command.discharge_kw > 0
                ? t('load.peakActing', { kw: number(settings.battery_command.discharge_kw, 1), peak: number(settings.battery_command.peak_kw, 1) })
                : t('load.peakIdle', { peak: number(settings.battery_command.peak_kw, 1) })}
            </p>
          ) : null}
        </div>
      </Card>

      <Card title={t('load.circuits')} titleId={circuitsId}
        aside={<button type="button" className="btn-secondary min-h-11 px-3" onClick={() => change({ ...draft, circuits: [...draft.circuits, newCircuit(draft.circuits)] })}>{t('load.addCircuit')}</button>}>
        <p className="mb-3 text-xs text-slate-500">{t('load.circuitsHint')}</p>
        {order.length === 0 ? (
          <p className="text-sm text-slate-600">{t('load.circuitsEmpty')}</p>
        ) : (
          <ul className="space-y-3">
            {order.map(({ circuit: c, index: i, depth }) => {
              const label = circuitLabel(c)
              const rowError = msg(`circuits.${i}.station_ids`) ?? msg(`circuits.${i}`)
              return (
                <li key={c.key} className={cx('rounded-lg border border-slate-200 bg-slate-50 p-3', ['', 'sm:ml-6', 'sm:ml-12', 'sm:ml-16'][Math.min(depth, 3)])}>
                  <fieldset>
                    <legend className="text-sm font-semibold text-slate-900">{t('load.circuitLabel', { name: label })}</legend>
                    <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
                      <TextField label={t('load.circuitId')} value={c.id} maxLength={40} autoCapitalize="off" spellCheck={false} error={msg(`circuits.${i}.id`)} onChange={(e) => setCircuit(c.key, { id: e.target.value })} />
                      <TextField label={t('load.circuitName')} value={c.name} maxLength={100} error={msg(`circuits.${i}.name`)} onChange={(e) => setCircuit(c.key, { name: e.target.value })} />
                      <SelectField label={t('load.parent')} value={c.parent ?? ''} error={msg(`circuits.${i}.parent_id`)} options={parentOptions(c)} onChange={(e) => setCircuit(c.key, { parent: e.target.value || null })} />
                      <TextField label={t('load.circuitLimit')} inputMode="decimal" value={c.limit_a} error={msg(`circuits.${i}.limit_a`)} onChange={(e) => setCircuit(c.key, { limit_a: e.target.value })} />
                    </div>
                    {rowError ? <p className="mt-2 text-sm text-red-700">{rowError}</p> : null}
                    <button type="button" className="btn-secondary mt-3 min-h-11 px-3 text-red-700" aria-label={t('load.removeNamed', { name: label })} onClick={() => change(removeCircuit(draft, c.key))}>
                      {t('load.removeCircuit')}
                    </button>
                  </fieldset>
                </li>
              )
            })}
          </ul>
        )}
      </Card>

      <Card title={t('load.stations')} titleId={stationsId}>
        <p className="mb-3 text-xs text-slate-500">{t('load.stationsHint')}</p>
        {settings.stations.length === 0 ? (
          <p className="text-sm text-slate-600">{t('load.stationsEmpty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {settings.stations.map((s) => (
              <li key={s.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{s.name}</p>
                  <p className="text-sm text-slate-600">
                    {t('stations.phasesShort', { count: s.phases })} · {s.limit_a !== null ? t('load.limitNow', { amps: s.limit_a }) : t('load.noLimitNow')}
                  </p>
                  <p className="text-sm text-slate-600">{t(`reason.${s.reason.code}`, { ns: 'power', ...s.reason.params, defaultValue: s.reason.text })}</p>
                </div>
                <div className="sm:w-64">
                  <SelectField label={t('load.stationCircuit', { name: s.name })} value={draft.stations[s.id] ?? ''} options={stationOptions}
                    onChange={(e) => change({ ...draft, stations: { ...draft.stations, [s.id]: e.target.value || null } })} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      {failure ? <Notice tone="error" role="alert">{failure}</Notice> : null}
      <button type="submit" className="btn-primary" disabled={busy}>{busy ? t('saving') : t('save')}</button>

      <ConfirmDialog
        open={confirming !== null}
        title={t('load.confirmOff')}
        confirmLabel={t('load.switchOff')}
        cancelLabel={t('cancel')}
        busy={busy}
        onConfirm={() => confirming && void save(confirming)}
        onCancel={() => setConfirming(null)}
      >
        {t('load.confirmOffText')}
      </ConfirmDialog>
    </form>
  )
}

/** An on/off switch (a button with role switch: Space and Enter toggle it; its state is announced). */
function Switch({ checked, label, description, onChange }: { checked: boolean; label: string; description: string; onChange: (checked: boolean) => void }) {
  const labelId = useId()
  const descriptionId = useId()
  return (
    <div className="flex items-start gap-3">
      <button type="button" role="switch" aria-checked={checked} aria-labelledby={labelId} aria-describedby={descriptionId} onClick={() => onChange(!checked)}
        className={cx('relative mt-0.5 inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2',
          checked ? 'bg-brand-600' : 'bg-slate-300')}>
        <span aria-hidden="true" className={cx('inline-block h-5 w-5 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-6' : 'translate-x-1')} />
      </button>
      <div>
        <p id={labelId} className="text-sm font-medium text-slate-900">{label}</p>
        <p id={descriptionId} className="text-sm text-slate-600">{description}</p>
      </div>
    </div>
  )
}
