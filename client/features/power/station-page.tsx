import { useEffect, useId, useRef, useState } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQueryClient, useQuery, type UseQueryResult } from '@tanstack/react-query'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { JournalEntry } from '../../../shared/schemas/journal.ts'
import type { Rfid } from '../../../shared/schemas/rfid.ts'
import { CHARGING_MODES } from '../../../shared/rules/status.ts'
import type { ChargingMode } from '../../../shared/rules/status.ts'
import { statusCodeName, isSeriousStatusCode } from '../../../shared/rules/status-codes.ts'
import { errorMessage } from '../../api/errors.ts'
import { live } from '../../live/store.ts'
import type { InstallationLive } from '../../live/store.ts'
import { retainStream } from '../../live/connection.ts'
import { useRights } from '../../app/use-rights.ts'
import type { Rights } from '../../app/rights.ts'
import { useFormats } from '../../components/use-formats.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Badge, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { StationCard } from './station-card.tsx'
import { StationTimers } from './station-timers.tsx'
import { StationPlan } from './station-plan.tsx'
import { StationCharts } from './station-charts.tsx'
import { StationOcpp } from './station-ocpp.tsx'
import { updateStation } from './api.ts'
import { stationJournal, stationKeys, stationRfids } from './station-api.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { PinButton } from '../../components/pin-button.tsx'
import { useLive } from '../../live/use-live.ts'

const TABS = ['status', 'timer', 'journal', 'charts', 'rfids', 'management'] as const
type Tab = (typeof TABS)[number]

/**
 * One station of the Power page with its tabs (SPEC §2): status (live), timer, journal, charts, RFIDs and
 * management (name, charging mode: a form with read_and_write on the station, else the values as text;
 * only admins unlock a disabled station, SPEC §6). Tabs follow the WAI-ARIA pattern: arrow keys, Home and
 * End move between them.
 */
export default function StationPage({ installation, stationId }: { installation: Installation; stationId: string }) {
  const { t } = useTranslation('charging')
  const { t: tp } = useTranslation('power')
  const { t: tc } = useTranslation()
  const f = useFormats(installation.timezone)
  const { rights } = useRights(installation)
  const admin = rights?.admin ?? false
  const [tab, setTab] = useState<Tab>('status')
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({})
  const baseId = useId()
  useEffect(() => retainStream(installation.id), [installation.id])
  const snap = useSnapshot(live)
  const inst = snap.installations[String(installation.id)] as InstallationLive | undefined
  const slot = inst?.topics.stations
  const station = (slot?.data as Record<string, Station> | null | undefined)?.[stationId]
  useDocumentTitle(station?.name ?? tp('stations.title'))

  function onKey(e: KeyboardEvent) {
    const i = TABS.indexOf(tab)
    const next = e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i - 1 + TABS.length) % TABS.length : e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : -1
    if (next < 0) return
    e.preventDefault()
    setTab(TABS[next])
    tabRefs.current[TABS[next]]?.focus()
  }

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <Link href={`/facility/${installation.id}/power`} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('station.back')}
      </Link>
      {!slot?.loaded ? (
        <Loading label={tc('loading')} />
      ) : !station ? (
        <Notice tone="warning" role="alert">
          {t('station.notFound')}
        </Notice>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{station.name}</h1>
            <PinButton installationId={installation.id} name={station.name} url={`/facility/${installation.id}/power/stations/${station.id}`} />
          </div>
          <div role="tablist" aria-label={t('station.tabs')} // Wrapping, not scrolling sideways: on a phone every tab, Management (the charging mode) too, is on the first view.
            className="flex flex-wrap gap-x-1 border-b border-slate-200" onKeyDown={onKey}>
            {TABS.map((name) => (
              <button
                key={name}
                ref={(el) => {
                  tabRefs.current[name] = el
                }}
                id={`${baseId}-tab-${name}`}
                role="tab"
                type="button"
                aria-selected={tab === name}
                aria-controls={`${baseId}-panel-${name}`}
                tabIndex={tab === name ? 0 : -1}
                onClick={() => setTab(name)}
                className={`whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${tab === name ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
              >
                {t(`station.tab.${name}`)}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`} tabIndex={0} className="focus:outline-none">
            {tab === 'status' ? <StatusTab installationId={installation.id} station={station} admin={admin} rights={rights ?? null} f={f} /> : null}
            {tab === 'timer' ? <StationTimers installationId={installation.id} stationId={station.id} admin={rights?.manageTimers ?? false} timerMode={station.charging_mode === 'timer'} /> : null}
            {tab === 'journal' ? <JournalTab installationId={installation.id} stationId={station.id} f={f} /> : null}
            {tab === 'charts' ? <StationCharts installationId={installation.id} stationId={station.id} f={f} /> : null}
            {tab === 'rfids' ? <RfidsTab installationId={installation.id} stationId={station.id} /> : null}
            {tab === 'management' ? (
              rights ? (
                <>
                  <ManagementTab installationId={installation.id} station={station} rights={rights} />
                  {rights.admin ? <StationOcpp installationId={installation.id} stationId={station.id} f={f} /> : null}
                </>
              ) : (
                <Loading label={tc('loading')} />
              )
            ) : null}
          </div>
        </>
      )}
    </div>
  )
}

function StatusTab({ installationId, station, admin, rights, f }: { installationId: number; station: Station; admin: boolean; rights: Rights | null; f: Formats }) {
  const { t } = useTranslation('charging')
  const code = statusCodeName(station.status_code)
  const facilityOffline = useLive(installationId, (inst) => inst?.topics.info.data?.online === false)
  return (
    <div className="space-y-3">
      <StationCard station={station} admin={admin} f={f} facilityOffline={facilityOffline} />
      <p className="text-sm text-slate-600">
        {t('station.statusCode')}: {code ? t('station.codeLabel', { code: station.status_code, name: t(`station.codes.${code}`) }) : station.status_code}{' '}
        {isSeriousStatusCode(station.status_code) ? <Badge tone="red">{t('station.serious')}</Badge> : null}
      </p>
      <StationPlan installationId={installationId} station={station} rights={rights} f={f} />
    </div>
  )
}

/** A list tab's loading, failure (with "Try again") and empty states around its rows. */
function Frame<T>({ query, empty, children }: { query: UseQueryResult<T[]>; empty: string; children: (data: T[]) => ReactNode }) {
  const { t: tc } = useTranslation()
  if (query.data === undefined) {
    return query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
  }
  if (query.data.length === 0) return <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">{empty}</p>
  return <>{children(query.data)}</>
}

function JournalTab({ installationId, stationId, f }: { installationId: number; stationId: number; f: Formats }) {
  const { t } = useTranslation('charging')
  const { t: tp } = useTranslation('power')
  const id = useId()
  const [payment, setPayment] = useState<'all' | 'paid' | 'unpaid'>('all')
  const journal = useQuery({
    queryKey: stationKeys.journal(installationId, stationId, payment),
    queryFn: ({ signal }) => stationJournal(installationId, stationId, { payment_status: payment }, signal).then((r) => r.results),
  })
  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {t('journal.filter')}
        </label>
        <select id={id} value={payment} onChange={(e) => setPayment(e.target.value as typeof payment)} className="mt-1 rounded-lg border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm">
          <option value="all">{t('journal.all')}</option>
          <option value="paid">{t('journal.paid')}</option>
          <option value="unpaid">{t('journal.unpaid')}</option>
        </select>
      </div>
      <Frame<JournalEntry> query={journal} empty={t('journal.empty')}>
        {(entries) => (
          <ul aria-label={t('journal.title')} className="divide-y divide-slate-100">
            {entries.map((e) =>
              e.type === 'journal_entry' || e.type === 'rfid_session_journal_entry' ? (
                <li key={`${e.type}-${e.id}`} className="py-2 text-sm">
                  <p className="font-medium text-slate-900">{f.dateTime(e.start)}</p>
                  <p className="text-slate-600">
                    {t(`journal.kind.${e.type}`)} ·{' '}
                    {e.detail === 'rfid_learned'
                      ? t('journal.learned', { tag: e.rfid ?? '' })
                      : e.detail === 'rfid_ignored'
                      ? t('journal.ignored', { tag: e.rfid ?? '' })
                      : e.detail?.startsWith('ocpp:')
                        ? t('journal.ocpp', { action: e.detail.split(':')[1], status: e.detail.split(':')[2] })
                        : e.detail?.startsWith('offline_')
                          ? offlineOutcome(e.detail, tp(`mode.${e.charging_mode}`, { defaultValue: e.charging_mode }), t, e.rfid)
                          : t('journal.modeChanged', { mode: tp(`mode.${e.charging_mode}`, { defaultValue: e.charging_mode }) })}
                    {e.set_by_timer ? ` · ${t('journal.byTimer')}` : ''}
                  </p>
                </li>
              ) : (
              <li key={`${e.type}-${e.id}`} className="py-2 text-sm">
                <p className="font-medium text-slate-900">
                  {f.dateTime(e.start)} – {e.end ? f.dateTime(e.end) : t('sessions.running')}
                </p>
                <p className="text-slate-600">
                  {t(`journal.kind.${e.type}`)} · {f.kwh(e.charge)} ({t('sessions.high')} {f.kwh(e.peak)}, {t('sessions.low')} {f.kwh(e.off_peak)})
                  {e.cost !== null ? ` · ${f.money(e.cost)}` : ''}
                  {e.payment_status ? ` · ${t(`sessions.status.${e.payment_status}`)}` : ''}
                  {e.set_by_timer ? ` · ${t('journal.byTimer')}` : ''}
                </p>
                {e.badged_in ? (
                  <p className="text-xs text-slate-500">
                    {t('journal.badgedIn')} {f.time(e.badged_in)}
                    {e.badged_out ? ` · ${t('journal.badgedOut')} ${f.time(e.badged_out)}` : ''}
                    {e.rfid ? ` · ${e.rfid}` : ''}
                    {e.rfid_user ? ` (${e.rfid_user})` : ''}
                  </p>
                ) : null}
              </li>
              ),
            )}
          </ul>
        )}
      </Frame>
    </div>
  )
}

/**
 * A change made while the facility was offline, sent on reconnect: journal detail
 * `offline_applied:<field>` or `offline_failed:<field>:<reason>`; timers `offline_applied:timer_<op>:<HH:mm>`; RFID
 * cards `offline_applied:card_<create|tag|stations|active>` (the card's tag only for those who may read it).
 */
function offlineOutcome(detail: string, mode: string, t: (key: string, opts?: Record<string, string>) => string, rfid: string | null): string {
  const [outcome, field, ...rest] = detail.split(':')
  const change = field === 'charging_mode' ? t('journal.modeChanged', { mode })
    : field.startsWith('card_') ? t(`journal.${{ card_create: 'rfidCreated', card_tag: 'rfidTag', card_stations: 'rfidStations' }[field] ?? 'rfidDeleted'}`, { tag: rfid ? ` ${rfid}` : '' })
    : field.startsWith('timer_') ? t(`journal.${field === 'timer_create' ? 'timerCreated' : field === 'timer_delete' ? 'timerDeleted' : 'timerChanged'}`, { time: rest.join(':') })
    : t('journal.learningMode')
  return outcome === 'offline_applied' ? t('journal.offlineApplied', { change }) : t('journal.offlineFailed', { change })
}

function RfidsTab({ installationId, stationId }: { installationId: number; stationId: number }) {
  const { t } = useTranslation('charging')
  const rfids = useQuery({
    queryKey: stationKeys.rfids(installationId, stationId),
    queryFn: ({ signal }) => stationRfids(installationId, stationId, signal).then((r) => r.results),
  })
  return (
    <Frame<Rfid> query={rfids} empty={t('rfids.empty')}>
      {(cards) => (
        <ul aria-label={t('rfids.listTitle')} className="divide-y divide-slate-100">
          {cards.map((r) => (
            <li key={r.id} className="py-2 text-sm">
              <span className="font-mono font-semibold text-slate-900">{r.tag}</span>
              <span className="text-slate-600"> {r.description ? `· ${r.description}` : ''}</span>
            </li>
          ))}
        </ul>
      )}
    </Frame>
  )
}

/** Read-only settings of a station the user may only read: the values as text and why. */
function ManagementReadOnly({ station }: { station: Station }) {
  const { t } = useTranslation('charging')
  const { t: tp } = useTranslation('power')
  return (
    <div className="space-y-4">
      <Notice tone="info" role="note">
        {t('station.readOnly')}
      </Notice>
      {station.charging_mode === 'locked' ? <Notice tone="warning">{tp('station.contactAdmin')}</Notice> : null}
      <dl className="grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm font-medium text-slate-700">{t('station.name')}</dt>
          <dd className="mt-1 text-sm text-slate-900">{station.name}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-700">{tp('station.mode')}</dt>
          <dd className="mt-1 text-sm text-slate-900">{tp(`mode.${station.charging_mode}`)}</dd>
        </div>
      </dl>
    </div>
  )
}

function ManagementTab({ installationId, station, rights }: { installationId: number; station: Station; rights: Rights }) {
  if (!rights.writeStation(station.id)) return <ManagementReadOnly station={station} />
  return <ManagementForm installationId={installationId} station={station} unlock={rights.unlockStations} />
}

/** Name and charging mode of a station the user may change; a locked one stays locked unless they may unlock (SPEC §6). */
function ManagementForm({ installationId, station, unlock }: { installationId: number; station: Station; unlock: boolean }) {
  const { t } = useTranslation('charging')
  const { t: tp } = useTranslation('power')
  const { t: tc } = useTranslation()
  const ids = { name: useId(), mode: useId(), locked: useId() }
  const modeFixed = station.charging_mode === 'locked' && !unlock
  const [name, setName] = useState(station.name)
  const [mode, setMode] = useState<ChargingMode>(station.charging_mode)
  const [message, setMessage] = useState<{ tone: 'info' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()
  async function save() {
    setBusy(true)
    setMessage(null)
    try {
      const saved = await updateStation(installationId, station.id, modeFixed ? { name: name.trim() } : { name: name.trim(), charging_mode: mode })
      // A mode change is a journal entry; the station itself comes back through the live stream.
      void queryClient.invalidateQueries({ queryKey: stationKeys.journals(installationId, station.id) })
      // Offline facility: the mode waits; say so rather than "saved" alone.
      setMessage({ tone: 'info', text: saved.pending_changes?.length ? tp('station.pending.saved') : t('rfids.saved') })
    } catch (err) {
      setMessage({ tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      {modeFixed ? (
        <div id={ids.locked}>
          <Notice tone="warning">{tp('station.contactAdmin')}</Notice>
        </div>
      ) : null}
      {message ? (
        <Notice tone={message.tone} role={message.tone === 'error' ? 'alert' : 'status'}>
          {message.text}
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={ids.name} className="block text-sm font-medium text-slate-700">
            {t('station.name')}
          </label>
          <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm" />
        </div>
        <div>
          <label htmlFor={ids.mode} className="block text-sm font-medium text-slate-700">
            {tp('station.mode')}
          </label>
          <select id={ids.mode} value={mode} disabled={modeFixed} aria-describedby={modeFixed ? ids.locked : undefined} onChange={(e) => setMode(e.target.value as ChargingMode)} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm disabled:bg-slate-100 disabled:text-slate-500">
            {CHARGING_MODES.map((m) => (
              <option key={m} value={m}>
                {tp(`mode.${m}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="btn-primary" disabled={busy || !name.trim()}>
        {t('rfids.save')}
      </button>
    </form>
  )
}
