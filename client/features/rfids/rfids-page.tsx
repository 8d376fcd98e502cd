import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { Rfid, RfidPendingChange } from '../../../shared/schemas/rfid.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import { errorMessage } from '../../api/errors.ts'
import { live } from '../../live/store.ts'
import type { InstallationLive } from '../../live/store.ts'
import { retainStream } from '../../live/connection.ts'
import { useRights } from '../../app/use-rights.ts'
import { useFormats } from '../../components/use-formats.ts'
import { Badge, Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { RfidForm } from './rfid-form.tsx'
import { OrderForm } from './order-form.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { createRfid, deleteRfid, ignoreLearned, listRfids, listStations, registerLearned, rfidKeys, setLearning, updateRfid } from './api.ts'
import type { RfidFields } from './api.ts'
import { clientNow } from '../../api/clock.ts'
import { learningSettled, type LearningAwait } from './learning-settle.ts'

/**
 * RFIDs (SPEC §2): the cards the caller may read with an empty state, each with what waits for the
 * facility while it is offline; admins add by tag, edit, delete (with confirmation) and use learning mode per station, whose learned tags arrive live through the
 * stations topic (ARCHITECTURE §5) to be registered or ignored. Residents rename the cards they may
 * change (their own, read_and_write); cards they may only read have no edit button.
 */
export default function RfidsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('rfids.title'))
  const { rights } = useRights(installation)
  const admin = rights?.manageRfids ?? false
  const queryClient = useQueryClient()
  const rfidsQuery = useQuery({ queryKey: rfidKeys.list(installation.id), queryFn: ({ signal }) => listRfids(installation.id, signal) })
  const stationsQuery = useQuery({ queryKey: rfidKeys.stations(installation.id), queryFn: ({ signal }) => listStations(installation.id, signal) })
  // The cards show once the station names they refer to are there too.
  const rfids = rfidsQuery.data && stationsQuery.data ? rfidsQuery.data.results : null
  const stations = useMemo(() => (stationsQuery.data?.results ?? []).map((x) => ({ id: x.id, name: x.name })), [stationsQuery.data])
  const loadFailed = (rfidsQuery.isError || stationsQuery.isError) && !rfidsQuery.isFetching && !stationsQuery.isFetching
  const [editing, setEditing] = useState<Rfid | 'new' | null>(null)
  const [ordering, setOrdering] = useState(false)
  const [toDelete, setToDelete] = useState<Rfid | null>(null)
  const [deleting, setDeleting] = useState(false)
  const [done, setDone] = useState<string | null>(null)
  const [actionError, setActionError] = useState<string | null>(null)

  // A card change shows on this list, a user's page and the permissions editor (one shared list).
  const cardsChanged = () => queryClient.invalidateQueries({ queryKey: rfidKeys.all(installation.id) })

  async function save(fields: RfidFields) {
    let saved: Rfid | null = null
    if (editing === 'new') saved = await createRfid(installation.id, fields)
    else if (editing) saved = await updateRfid(installation.id, editing.id, fields)
    setEditing(null)
    setDone(saved?.pending_changes.length ? t('rfids.savedPending') : t('rfids.saved'))
    await cardsChanged()
  }

  async function confirmDelete() {
    if (!toDelete) return
    setDeleting(true)
    setActionError(null)
    try {
      await deleteRfid(installation.id, toDelete.id)
      setToDelete(null)
      // Offline the card stays, marked, until the deletion is sent: the refreshed list tells.
      await cardsChanged()
      const still = queryClient.getQueryData<PageOf<Rfid>>(rfidKeys.list(installation.id))?.results.some((r) => r.id === toDelete.id)
      setDone(still ? t('rfids.deletePending', { tag: toDelete.tag }) : t('rfids.deleted', { tag: toDelete.tag }))
    } catch (err) {
      setActionError(errorMessage(err, tc))
      setToDelete(null)
    } finally {
      setDeleting(false)
    }
  }

  const stationName = (id: number) => stations.find((s) => s.id === id)?.name ?? `#${id}`
  // What waits for the offline facility, in words.
  const pendingText = (c: RfidPendingChange): string => {
    if (c.field === 'create') return t('rfids.pendingCreate')
    if (c.field === 'active') return t('rfids.pendingDelete')
    if (c.field === 'tag') return t('rfids.pendingTag', { tag: String(c.value) })
    const v = c.value as { all_stations: boolean; station_ids: number[] }
    return v.all_stations ? t('rfids.allStations') : v.station_ids.length ? v.station_ids.map(stationName).join(', ') : t('rfids.noStations')
  }

  return (
    <div className="mx-auto max-w-5xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('rfids.title')}</h1>
        <div className="flex flex-wrap gap-2">
          {!ordering ? (
            <button type="button" className="btn-secondary" onClick={() => (setOrdering(true), setDone(null))}>
              {t('order.button')}
            </button>
          ) : null}
          {admin && editing === null ? (
            <button type="button" className="btn-primary" onClick={() => (setEditing('new'), setDone(null))}>
              {t('rfids.add')}
            </button>
          ) : null}
        </div>
      </div>
      {done ? (
        <Notice tone="info" role="status">
          {done}
        </Notice>
      ) : null}
      {actionError ? (
        <Notice tone="error" role="alert">
          {actionError}
        </Notice>
      ) : null}
      {ordering ? <OrderForm installationId={installation.id} onCancel={() => setOrdering(false)} onOrdered={(text) => (setOrdering(false), setDone(text))} /> : null}
      {editing !== null ? (
        <RfidForm
          key={editing === 'new' ? 'new' : editing.id}
          rfid={editing === 'new' ? null : editing}
          admin={admin}
          stations={stations}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : null}

      <Card titleId="rfid-list-title" title={t('rfids.listTitle')}>
        {rfids === null && loadFailed ? (
          <QueryProblem error={rfidsQuery.error ?? stationsQuery.error} onRetry={() => Promise.all([rfidsQuery.refetch(), stationsQuery.refetch()])} />
        ) : rfids === null ? (
          <Loading label={tc('loading')} />
        ) : rfids.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-500">{t('rfids.empty')}</p>
        ) : (
          <ul aria-labelledby="rfid-list-title" className="divide-y divide-slate-100">
            {rfids.map((r) => (
              <li key={r.id} aria-label={r.tag} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="break-all font-mono text-sm font-semibold text-slate-900">{r.tag}</p>
                  <p className="text-sm text-slate-600">{r.description || t('rfids.noDescription')}</p>
                  <p className="text-xs text-slate-500">
                    {r.user_name ? `${t('rfids.user')}: ${r.user_name} · ` : ''}
                    {r.all_stations ? t('rfids.allStations') : r.station_ids.length ? r.station_ids.map(stationName).join(', ') : t('rfids.noStations')}
                  </p>
                  {r.ready_at && new Date(r.ready_at).getTime() > clientNow() ? <Badge tone="amber" className="mt-1">{t('rfids.readySoon')}</Badge> : null}
                  {r.pending_changes.map((c) => (
                    <Badge key={c.field} tone="amber" className="mr-1 mt-1">{t('rfids.pending', { change: pendingText(c) })}</Badge>
                  ))}
                </div>
                <div className="flex items-center gap-2">
                  {rights?.writeRfid(r.id) ? (
                    <button type="button" className="btn-secondary px-3 py-1.5" aria-label={t('rfids.editNamed', { tag: r.tag })} onClick={() => (setEditing(r), setDone(null))}>
                      {t('rfids.edit')}
                    </button>
                  ) : rights ? (
                    <Badge tone="gray">{t('rfids.readOnly')}</Badge>
                  ) : null}
                  {admin ? (
                    <button type="button" className="btn-secondary px-3 py-1.5 text-red-700" aria-label={t('rfids.deleteNamed', { tag: r.tag })} onClick={() => setToDelete(r)}>
                      {t('rfids.delete')}
                    </button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      {admin ? <LearningMode installation={installation} onRegistered={(tag) => (setDone(t('learning.registered', { tag })), void cardsChanged())} /> : null}

      <ConfirmDialog
        open={toDelete !== null}
        title={t('rfids.confirmTitle')}
        confirmLabel={t('rfids.delete')}
        cancelLabel={t('rfids.cancel')}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      >
        {toDelete ? t('rfids.confirmText', { tag: toDelete.tag }) : null}
      </ConfirmDialog>
    </div>
  )
}

/**
 * Learning mode per station (SPEC §4), admins only: on/off per station; the tag a station learned
 * appears live (stations topic) with register (optional description) and ignore.
 */
function LearningMode({ installation, onRegistered }: { installation: Installation; onRegistered: (tag: string) => void }) {
  const { t } = useTranslation('charging')
  const { t: tp } = useTranslation('power')
  const { t: tc } = useTranslation()
  const f = useFormats(installation.timezone)
  useEffect(() => retainStream(installation.id), [installation.id])
  const snap = useSnapshot(live)
  const inst = snap.installations[String(installation.id)] as InstallationLive | undefined
  const slot = inst?.topics.stations
  const stations = Object.values((slot?.data ?? {}) as Record<string, Station>).sort((a, b) => f.compareNames(a.name, b.name))
  const [problem, setProblem] = useState<{ stationId: number; text: string } | null>(null)
  const [busy, setBusy] = useState<number | null>(null)
  // After an action the live data shows its outcome 1–3 s later: the row stays busy until then (at most 10 s).
  const [awaiting, setAwaiting] = useState<Record<number, LearningAwait>>({})
  const waitFor = (stationId: number, next: LearningAwait | null) =>
    setAwaiting((a) => {
      const { [stationId]: _, ...rest } = a
      return next ? { ...rest, [stationId]: next } : rest
    })

  async function run(stationId: number, action: () => Promise<unknown>, outcome: LearningAwait) {
    setBusy(stationId)
    setProblem(null)
    try {
      await action()
      waitFor(stationId, outcome)
      setTimeout(() => waitFor(stationId, null), 10_000)
    } catch (err) {
      setProblem({ stationId, text: errorMessage(err, tc) })
    } finally {
      setBusy(null)
    }
  }

  return (
    <Card titleId="learning-title" title={t('learning.title')}>
      <p className="mb-3 text-sm text-slate-600">{t('learning.intro')}</p>
      {!slot?.loaded ? (
        <Loading label={tc('loading')} />
      ) : stations.length === 0 ? (
        <p className="text-sm text-slate-500">{t('learning.noStations')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {stations.map((s) => (
            <LearningRow
              key={s.id}
              station={s}
              statusText={s.status ? tp(`rawStatus.${s.status}`) : ''}
              busy={busy === s.id || !learningSettled(awaiting[s.id], s)}
              problem={problem?.stationId === s.id ? problem.text : null}
              onToggle={() => run(s.id, () => setLearning(installation.id, s.id, s.rfid_lernmodus === 0), { learning: s.rfid_lernmodus === 0 })}
              onRegister={(description) =>
                run(s.id, async () => {
                  const r = await registerLearned(installation.id, s.id, description)
                  onRegistered(r.tag)
                }, { handledTag: s.pending_rfid?.tag ?? '' })
              }
              onIgnore={() => run(s.id, () => ignoreLearned(installation.id, s.id), { handledTag: s.pending_rfid?.tag ?? '' })}
            />
          ))}
        </ul>
      )}
    </Card>
  )
}

function LearningRow({
  station,
  statusText,
  busy,
  problem,
  onToggle,
  onRegister,
  onIgnore,
}: {
  station: Station
  statusText: string
  busy: boolean
  problem: string | null
  onToggle: () => void
  onRegister: (description: string) => void
  onIgnore: () => void
}) {
  const { t } = useTranslation('charging')
  const descId = useId()
  const [description, setDescription] = useState('')
  const learning = station.rfid_lernmodus > 0
  const pending = station.pending_rfid ?? null
  return (
    <li aria-label={station.name} className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-sm font-semibold text-slate-900">{station.name}</p>
          <p className="text-xs text-slate-500">
            {statusText}
            {learning ? ` · ${t('learning.active')}` : ''}
          </p>
        </div>
        <button type="button" className="btn-secondary px-3 py-1.5" disabled={busy} aria-pressed={learning} onClick={onToggle}>
          {learning ? t('learning.stop', { station: station.name }) : t('learning.start', { station: station.name })}
        </button>
      </div>
      {problem ? (
        <p role="alert" className="mt-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem}
        </p>
      ) : null}
      {learning && !pending ? <p className="mt-2 text-sm text-slate-600">{t('learning.waiting')}</p> : null}
      {pending ? (
        <div role="region" aria-label={t('learning.detectedTitle')} className="mt-2 rounded-xl border border-amber-300 bg-amber-50 p-3">
          <p className="text-sm text-amber-950">
            {t('learning.detected')} <span className="break-all font-mono font-semibold">{pending.tag}</span>
          </p>
          <div className="mt-2 flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <label htmlFor={descId} className="block text-xs font-medium text-slate-700">
                {t('rfids.form.description')} ({t('rfids.form.optional')})
              </label>
              <input
                id={descId}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                maxLength={200}
                className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
              />
            </div>
            <button type="button" className="btn-primary px-3 py-1.5" disabled={busy} onClick={() => onRegister(description.trim())}>
              {t('learning.register')}
            </button>
            <button type="button" className="btn-secondary px-3 py-1.5" disabled={busy} onClick={onIgnore}>
              {t('learning.ignore')}
            </button>
          </div>
        </div>
      ) : null}
    </li>
  )
}
