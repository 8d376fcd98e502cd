import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { Station } from '../../../shared/schemas/station.ts'
import { displayStatus, isSeriousAlert } from '../../../shared/rules/status.ts'
import type { StatusDisplay } from '../../../shared/rules/status.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Badge } from '../../components/ui.tsx'
import { clientNow } from '../../api/clock.ts'
import { elapsed } from './elapsed.ts'
import type { Tone } from '../../components/ui.tsx'

const STATUS_TONE: Record<StatusDisplay, Tone> = { ready: 'green', running: 'blue', error: 'red', disabled: 'gray' }

/** Disabled in the sense of SPEC §6: switched off or locked; an admin can unlock it. */
export function isLockedStation(s: Pick<Station, 'status' | 'charging_mode'>): boolean {
  return s.status === 'off' || s.charging_mode === 'locked'
}

/**
 * One station (SPEC §2 Power, station status page): display status (SPEC §4), charging mode,
 * power, energy charged, session start, RFID, capacity, changes waiting for an offline facility,
 * why it charges as it does (its reason, in the user's language from the code and its values), alerts
 * (serious ones marked) and the disabled-station notice for non-admins (SPEC §6). While its facility is
 * offline (`facilityOffline`, SPEC §4) the status shows as unknown, with the last one known beside it.
 */
export function StationCard({ station, admin, f, facilityOffline = false }: { station: Station; admin: boolean; f: Formats; facilityOffline?: boolean }) {
  const { t } = useTranslation('power')
  const titleId = useId()
  // An offline facility sends nothing: its stations' status is the last one known, not "Ready" now.
  const display = facilityOffline ? null : displayStatus(station.status)
  const alerts = [...station.alerts].sort((a, b) => Number(isSeriousAlert(b)) - Number(isSeriousAlert(a)))
  const serious = alerts.some(isSeriousAlert)
  // The start and how long ago (the card renders again with each live update, so the minutes move on).
  const sessionStart = () => {
    if (!station.session_start) return t('station.none')
    const start = f.dateTime(station.session_start)
    const e = elapsed(Date.parse(station.session_start), clientNow())
    return e ? t('station.sessionSince', { start, elapsed: t(`station.${e.key}`, e) }) : start
  }
  const rfid = station.rfid ? (station.rfid.description ? `${station.rfid.tag} (${station.rfid.description})` : station.rfid.tag) : null

  return (
    <article
      aria-labelledby={titleId}
      className={`flex h-full flex-col rounded-2xl border bg-white p-4 shadow-sm ${serious ? 'border-red-300 ring-1 ring-red-200' : 'border-slate-200'}`}
    >
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="truncate text-base font-semibold text-slate-900">
            {station.name}
          </h3>
          {station.status ? (
            <p className="text-xs text-slate-500">
              {facilityOffline ? t('status.lastKnown', { status: t(`rawStatus.${station.status}`) }) : t(`rawStatus.${station.status}`)}
            </p>
          ) : null}
        </div>
        {facilityOffline ? <Badge tone="gray">{t('status.facilityOffline')}</Badge> : display ? <Badge tone={STATUS_TONE[display]}>{t(`status.${display}`)}</Badge> : null}
      </header>

      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <Field label={t('station.power')} value={f.kw(station.power_kw)} strong />
        <Field label={t('station.energy')} value={f.kwh(station.energy_kwh)} strong />
        <Field label={t('station.mode')} value={t(`mode.${station.charging_mode}`)} />
        <Field label={t('station.capacity')} value={f.kw(station.capacity_kw)} />
        <Field label={t('station.sessionStart')} value={sessionStart()} wide />
        <Field label={t('station.rfid')} value={rfid ?? t('station.none')} wide />
      </dl>

      {station.pending_changes?.length ? (
        <div role="note" aria-label={t('station.pending.title')} className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <p className="font-semibold">{t('station.pending.title')}</p>
          <ul>
            {station.pending_changes.map((c) => (
              <li key={c.field}>
                {c.field === 'charging_mode' ? t('station.pending.mode', { mode: t(`mode.${c.value}`, { defaultValue: String(c.value) }) }) : c.value ? t('station.pending.learningOn') : t('station.pending.learningOff')}{' '}
                <span className="text-xs text-amber-800">({t('station.pending.since', { date: f.dateTime(c.requested_at) })})</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {station.reason ? (
        <p className="mt-3 text-sm text-slate-700">
          <span className="font-semibold">{t('station.reason')}:</span>{' '}
          {t(`reason.${station.reason.code}`, { ...station.reason.params, defaultValue: station.reason.text })}
        </p>
      ) : null}
      {alerts.length > 0 ? (
        <div className="mt-3">
          <p className="sr-only">{t('station.alerts')}</p>
          <ul className="flex flex-wrap gap-1.5">
            {alerts.map((a) =>
              isSeriousAlert(a) ? (
                <li key={a}>
                  <Badge tone="red">
                    <span className="font-bold">{t('station.serious')}:</span> {t(`alert.${a}`, { defaultValue: a })}
                  </Badge>
                </li>
              ) : (
                <li key={a}>
                  <Badge tone="amber">{t(`alert.${a}`, { defaultValue: a })}</Badge>
                </li>
              ),
            )}
          </ul>
        </div>
      ) : null}

      {isLockedStation(station) ? (
        <p role="note" className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {admin ? t('station.adminUnlock') : t('station.contactAdmin')}
        </p>
      ) : null}
    </article>
  )
}

function Field({ label, value, strong = false, wide = false }: { label: string; value: string; strong?: boolean; wide?: boolean }) {
  return (
    <div className={wide ? 'col-span-2 min-w-0' : 'min-w-0'}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={`break-words tabular-nums ${strong ? 'text-base font-semibold text-slate-900' : 'text-slate-800'}`}>{value}</dd>
    </div>
  )
}
