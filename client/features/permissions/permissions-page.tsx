import { useId, useMemo, useState } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { Permission } from '../../../shared/schemas/permissions.ts'
import type { ManagedUser } from '../../../shared/schemas/accounts.ts'
import { paths } from '../../app/paths.ts'
import { errorMessage } from '../../api/errors.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { fetchObjects, fetchPermissions, permissionKeys, putPermission } from './api.ts'
import { fetchManagedUser, userKeys } from '../users/api.ts'
import { listRfids, listStations, rfidKeys } from '../rfids/api.ts'

type Kind = 'object' | 'charging_station' | 'rfid'
type Level = 'none' | 'read' | 'read_and_write' | 'inherit'
/** Draft levels keyed "kind:id" (id 0 = all of that kind). */
type Draft = Record<string, Level>
const key = (kind: Kind, id: number) => `${kind}:${id}`

interface Loaded {
  user: ManagedUser
  entries: Permission[]
  stations: { id: number; name: string }[]
  rfids: { id: number; tag: string; description: string; user_id: number | null }[]
  objects: { id: number; description: string; depth: number }[]
}

/**
 * The permissions editor (SPEC §2, §5–6): for one user in this installation, a level per charging
 * station and per RFID, one for all stations and one for all RFIDs, and the cost and overview switches.
 * Saving asks for confirmation (SPEC §5), then writes only what changed; "no access" deletes the entry.
 * Admins and superusers have every right: the screen says so instead of offering levels.
 */
export default function PermissionsPage({ installation, userId }: { installation: Installation; userId: number }) {
  const { t } = useTranslation('permissions')
  const { t: tc } = useTranslation()
  const queryClient = useQueryClient()
  const userQuery = useQuery({ queryKey: userKeys.detail(userId), queryFn: ({ signal }) => fetchManagedUser(userId, signal) })
  const entriesQuery = useQuery({ queryKey: permissionKeys.entries(installation.id, userId), queryFn: ({ signal }) => fetchPermissions(installation.id, userId, signal) })
  const stationsQuery = useQuery({ queryKey: rfidKeys.stations(installation.id), queryFn: ({ signal }) => listStations(installation.id, signal) })
  // Cards and objects are optional: when they cannot be read the editor still offers the rest.
  const rfidsQuery = useQuery({ queryKey: rfidKeys.list(installation.id), queryFn: ({ signal }) => listRfids(installation.id, signal) })
  const objectsQuery = useQuery({ queryKey: permissionKeys.objects(installation.id), queryFn: ({ signal }) => fetchObjects(installation.id, signal) })
  const required = [userQuery, entriesQuery, stationsQuery]
  const data = useMemo<Loaded | null>(() => {
    const [user, entries, stations] = [userQuery.data, entriesQuery.data, stationsQuery.data]
    if (!user || !entries || !stations) return null
    if (!(rfidsQuery.data || rfidsQuery.isError) || !(objectsQuery.data || objectsQuery.isError)) return null
    return { user, entries, stations: stations.results, rfids: rfidsQuery.data?.results ?? [], objects: objectsQuery.data ?? [] }
  }, [userQuery.data, entriesQuery.data, stationsQuery.data, rfidsQuery.data, rfidsQuery.isError, objectsQuery.data, objectsQuery.isError])
  const failed = required.find((q) => q.isError)
  const showProblem = !data && failed && !required.some((q) => q.isFetching)
  // What the admin changed, over the saved entries (so an answer arriving later keeps the edits).
  const [edits, setEdits] = useState<Draft>({})
  const [costEdit, setCostEdit] = useState<boolean | null>(null)
  const [overviewEdit, setOverviewEdit] = useState<boolean | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [feedback, setFeedback] = useState<{ tone: 'info' | 'error'; text: string } | null>(null)
  const stationsId = useId()
  const objectsId = useId()
  const rfidsId = useId()
  const switchesId = useId()
  useDocumentTitle(t('title'))

  const original = useMemo(() => {
    const d: Draft = {}
    for (const e of data?.entries ?? []) d[key(e.object_type, e.object_id)] = e.level
    return d
  }, [data])
  const draft: Draft = { ...original, ...edits }
  const cost = costEdit ?? data?.entries.some((e) => e.cost) ?? false
  const overview = overviewEdit ?? data?.entries.some((e) => e.overview) ?? false
  const switchesChanged = data ? cost !== data.entries.some((e) => e.cost) || overview !== data.entries.some((e) => e.overview) : false
  // Without an entry a station or RFID has no access and an object inherits from its parent.
  const byDefault = (k: string): Level => (k.startsWith('object:') ? 'inherit' : 'none')
  const granted = (k: string) => !['none', 'inherit'].includes(draft[k] ?? byDefault(k))
  const changed = Object.keys({ ...original, ...draft }).filter((k) => (draft[k] ?? byDefault(k)) !== (original[k] ?? byDefault(k)) || (switchesChanged && granted(k)))
  const memberRole = data?.user.installations.find((m) => m.id === installation.id)?.role
  const isAdmin = data?.user.is_superuser || memberRole === 'installation_admin'

  async function save() {
    if (!data) return
    setBusy(true)
    setFeedback(null)
    try {
      for (const k of changed) {
        const [kind, id] = k.split(':')
        const level = draft[k] ?? byDefault(k)
        // "Inherit" on an object is the absence of an entry: none deletes it (SPEC §5).
        await putPermission(installation.id, { user_id: userId, object_type: kind as Kind, object_id: Number(id), level: kind === 'object' && level === 'inherit' ? 'none' : level, cost, overview })
      }
      // The saved entries replace the edits once they are read back.
      await queryClient.invalidateQueries({ queryKey: permissionKeys.entries(installation.id, userId) })
      setEdits({})
      setCostEdit(null)
      setOverviewEdit(null)
      setFeedback({ tone: 'info', text: t('saved') })
    } catch (err) {
      setFeedback({ tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
      setConfirming(false)
    }
  }

  const levelSelect = (kind: Kind, id: number, label: string) => {
    const value = draft[key(kind, id)] ?? (kind === 'object' ? 'inherit' : 'none')
    return (
      <LevelSelect label={label} value={value} allowInherit={kind === 'object'} onChange={(v) => setEdits({ ...edits, [key(kind, id)]: v })} />
    )
  }

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <Link href={paths.user(installation.id, userId)} className="text-sm font-medium text-brand-700 hover:underline">{t('back')}</Link>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      {showProblem ? (
        <QueryProblem error={failed?.error} onRetry={() => Promise.all(required.filter((q) => q.isError).map((q) => q.refetch()))} />
      ) : !data ? <Loading label={tc('loading')} /> : (
        <>
          <p className="text-sm text-slate-600">{t('for', { name: data.user.full_name || data.user.email })}</p>
          {isAdmin ? (
            <Notice tone="info">{t('facilityAdmin')}</Notice>
          ) : (
            <>
              {data.objects.length ? (
                <Card title={t('objects')} titleId={objectsId}>
                  <div className="space-y-3">
                    {data.objects.map((o) => (
                      <div key={o.id} style={{ paddingInlineStart: `${o.depth * 0.75}rem` }}>{levelSelect('object', o.id, o.description)}</div>
                    ))}
                  </div>
                  <p className="mt-2 text-xs text-slate-500">{t('objectsHint')}</p>
                </Card>
              ) : null}
              <Card title={t('stations')} titleId={stationsId}>
                <div className="space-y-3">
                  {levelSelect('charging_station', 0, t('allStations'))}
                  {data.stations.map((s) => <div key={s.id}>{levelSelect('charging_station', s.id, s.name)}</div>)}
                </div>
              </Card>
              <Card title={t('rfids')} titleId={rfidsId}>
                <div className="space-y-3">
                  {levelSelect('rfid', 0, t('allRfids'))}
                  {data.rfids.length === 0 ? <p className="text-sm text-slate-600">{t('noRfids')}</p> : null}
                  {data.rfids.map((r) => {
                    const label = r.description ? `${r.description} (${r.tag})` : r.tag
                    // The card's owner always has read and write on it (ARCHITECTURE §4).
                    return r.user_id === userId
                      ? <p key={r.id} className="text-sm text-slate-800">{label}: {t('ownCard')}</p>
                      : <div key={r.id}>{levelSelect('rfid', r.id, label)}</div>
                  })}
                </div>
              </Card>
              <Card title={t('switches')} titleId={switchesId}>
                <label className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="checkbox" checked={cost} onChange={(e) => setCostEdit(e.target.checked)} /> {t('cost')}
                </label>
                <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
                  <input type="checkbox" checked={overview} onChange={(e) => setOverviewEdit(e.target.checked)} /> {t('overview')}
                </label>
                <p className="mt-2 text-xs text-slate-500">{t('switchesHint')}</p>
              </Card>
              <div>
                <button type="button" className="btn-primary" disabled={busy || changed.length === 0} onClick={() => setConfirming(true)}>{t('save')}</button>
                {feedback ? <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'} className="mt-3">{feedback.text}</Notice> : null}
              </div>
              <ConfirmDialog open={confirming} title={t('confirmTitle')} confirmLabel={t('confirm')} cancelLabel={t('cancel')} busy={busy}
                onCancel={() => setConfirming(false)} onConfirm={() => void save()}>
                {t('confirmText', { name: data.user.full_name || data.user.email, count: changed.length })}
              </ConfirmDialog>
            </>
          )}
        </>
      )}
    </div>
  )
}

function LevelSelect({ label, value, onChange, allowInherit = false }: { label: string; value: Level; onChange: (v: Level) => void; allowInherit?: boolean }) {
  const { t } = useTranslation('permissions')
  const id = useId()
  const levels: Level[] = allowInherit || value === 'inherit' ? ['inherit', 'none', 'read', 'read_and_write'] : ['none', 'read', 'read_and_write']
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <label htmlFor={id} className="text-sm text-slate-800">{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Level)}
        className="rounded-lg border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm text-slate-800 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40">
        {levels.map((l) => <option key={l} value={l}>{t(`levels.${l}`)}</option>)}
      </select>
    </div>
  )
}
