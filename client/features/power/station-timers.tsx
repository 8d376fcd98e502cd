import { useId, useState } from 'react'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Timer } from '../../../shared/schemas/timer.ts'
import { hasRepeatDay, TIME_RE, TIMER_MODES, WEEKDAY_FIELDS } from '../../../shared/schemas/timer.ts'
import { errorMessage } from '../../api/errors.ts'
import { intoFieldErrors, useAction } from '../../components/use-action.ts'
import { Badge, Loading, Notice } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { createTimer, deleteTimer, listTimers, stationKeys, updateTimer, type TimerFields } from './station-api.ts'

const EMPTY: TimerFields = {
  object_type: 'charging_station', object_id: 0, repeat_monday: false, repeat_tuesday: false, repeat_wednesday: false, repeat_thursday: false,
  repeat_friday: false, repeat_saturday: false, repeat_sunday: false, start_time: '', description: '', charging_mode: 'instant',
}

/**
 * The timer tab of a station (SPEC §2 Timers): its timers with repeat days, start time, description and
 * charging mode; admins add, edit and delete (with confirmation); the none-available state. A station
 * follows its timers when its charging mode is "timer".
 */
export function StationTimers({ installationId, stationId, admin, timerMode }: { installationId: number; stationId: number; admin: boolean; timerMode: boolean }) {
  const { t } = useTranslation('charging')
  const { t: tp } = useTranslation('power')
  const { t: tc } = useTranslation()
  const queryClient = useQueryClient()
  const key = stationKeys.timers(installationId, stationId)
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => listTimers(installationId, stationId, signal).then((r) => r.results) })
  const timers = query.data ?? null
  const [deleteError, setDeleteError] = useState<string | null>(null)
  const [editing, setEditing] = useState<Timer | 'new' | null>(null)
  const [toDelete, setToDelete] = useState<Timer | null>(null)
  const reload = () => queryClient.invalidateQueries({ queryKey: key })

  const days = (timer: Timer) => {
    const on = WEEKDAY_FIELDS.filter((d) => timer[d])
    return on.length === 7 ? t('timers.everyDay') : on.length === 0 ? t('timers.never') : on.map((d) => t(`timers.short.${d}`)).join(', ')
  }

  return (
    <div className="space-y-4">
      {!timerMode ? <Notice tone="info">{t('timers.notInTimerMode')}</Notice> : null}
      {deleteError ? (
        <Notice tone="error" role="alert">
          {deleteError}
        </Notice>
      ) : null}
      {timers === null ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : timers.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">{t('timers.none')}</p>
      ) : (
        <ul aria-label={t('timers.listLabel')} className="divide-y divide-slate-100">
          {timers.map((timer) => (
            <li key={timer.id} aria-label={`${timer.start_time} ${timer.description}`.trim()} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="text-sm font-semibold text-slate-900">
                  <span className="tabular-nums">{timer.start_time}</span> · {tp(`mode.${timer.charging_mode}`)}
                  {/* Changed while the facility is offline, not yet sent to it. */}
                  {timer.pending ? <Badge tone="amber" className="ml-2">{t('timers.pending')}</Badge> : null}
                </p>
                <p className="text-xs text-slate-500">
                  {days(timer)}
                  {timer.description ? ` · ${timer.description}` : ''}
                </p>
              </div>
              {admin ? (
                <div className="flex gap-2">
                  <button type="button" className="btn-secondary px-3 py-1.5" aria-label={t('timers.editNamed', { time: timer.start_time })} onClick={() => setEditing(timer)}>
                    {t('rfids.edit')}
                  </button>
                  <button type="button" className="btn-secondary px-3 py-1.5 text-red-700" aria-label={t('timers.deleteNamed', { time: timer.start_time })} onClick={() => setToDelete(timer)}>
                    {t('rfids.delete')}
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {admin && editing === null ? (
        <button type="button" className="btn-primary" onClick={() => setEditing('new')}>
          {t('timers.add')}
        </button>
      ) : null}
      {editing !== null ? (
        <TimerForm
          key={editing === 'new' ? 'new' : editing.id}
          timer={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSave={async (fields) => {
            if (editing === 'new') await createTimer(installationId, { ...fields, object_type: 'charging_station', object_id: stationId })
            else await updateTimer(installationId, editing.id, fields)
            setEditing(null)
            await reload()
          }}
        />
      ) : null}
      <ConfirmDialog
        open={toDelete !== null}
        title={t('timers.confirmTitle')}
        confirmLabel={t('rfids.delete')}
        cancelLabel={t('rfids.cancel')}
        onCancel={() => setToDelete(null)}
        onConfirm={async () => {
          if (!toDelete) return
          setDeleteError(null)
          try {
            await deleteTimer(installationId, toDelete.id)
          } catch (err) {
            setDeleteError(errorMessage(err, tc))
          }
          setToDelete(null)
          await reload()
        }}
      >
        {toDelete ? t('timers.confirmText', { time: toDelete.start_time }) : null}
      </ConfirmDialog>
    </div>
  )
}

function TimerForm({ timer, onSave, onCancel }: { timer: Timer | null; onSave: (fields: TimerFields) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation('charging')
  const { t: tp } = useTranslation('power')
  const ids = { title: useId(), time: useId(), timeError: useId(), daysError: useId(), description: useId(), mode: useId() }
  const [fields, setFields] = useState<TimerFields>(timer ? { ...EMPTY, ...timer } : EMPTY)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const action = useAction()
  const failure = action.feedback?.tone === 'error' ? action.feedback.text : null
  const set = (patch: Partial<TimerFields>) => setFields((f) => ({ ...f, ...patch }))

  async function submit(e: FormEvent) {
    e.preventDefault()
    action.setFeedback(null)
    // The server refuses the same (SPEC §5 wording), and a timer that clashes with another at the same minute.
    const local: Record<string, string> = {}
    if (!TIME_RE.test(fields.start_time)) local.start_time = t('timers.timeInvalid')
    if (!hasRepeatDay(fields)) local.repeat_days = t('timers.daysRequired')
    setErrors(local)
    if (Object.keys(local).length) return
    await action.run(() => onSave(fields), intoFieldErrors(setErrors))
  }
  const invalid = Object.keys(errors).length > 0

  return (
    <form onSubmit={submit} noValidate aria-labelledby={ids.title} className="space-y-4 rounded-2xl border border-slate-200 bg-slate-50 p-4">
      <h3 id={ids.title} className="text-base font-semibold text-slate-900">
        {timer ? t('timers.editTitle') : t('timers.addTitle')}
      </h3>
      {failure || invalid ? (
        <p role="alert" className="text-sm text-red-700">
          {failure ?? t('timers.checkFields')}
        </p>
      ) : null}
      <fieldset aria-invalid={Boolean(errors.repeat_days)} aria-describedby={errors.repeat_days ? ids.daysError : undefined}>
        <legend className="text-sm font-medium text-slate-700">{t('timers.repeat')}</legend>
        <div className="mt-2 flex flex-wrap gap-3">
          {WEEKDAY_FIELDS.map((d) => (
            <label key={d} className="flex items-center gap-1.5 text-sm text-slate-800">
              <input type="checkbox" checked={fields[d]} onChange={(e) => set({ [d]: e.target.checked })} className="h-4 w-4 rounded border-slate-300" />
              {t(`timers.day.${d}`)}
            </label>
          ))}
        </div>
        {errors.repeat_days ? (
          <p id={ids.daysError} className="mt-1 text-sm text-red-700">
            {errors.repeat_days}
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <div>
          <label htmlFor={ids.time} className="block text-sm font-medium text-slate-700">
            {t('timers.startTime')}
          </label>
          <input
            id={ids.time}
            type="time"
            value={fields.start_time}
            onChange={(e) => set({ start_time: e.target.value })}
            aria-invalid={Boolean(errors.start_time)}
            aria-describedby={errors.start_time ? ids.timeError : undefined}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          />
          {errors.start_time ? (
            <p id={ids.timeError} className="mt-1 text-sm text-red-700">
              {errors.start_time}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={ids.mode} className="block text-sm font-medium text-slate-700">
            {t('timers.mode')}
          </label>
          <select id={ids.mode} value={fields.charging_mode} onChange={(e) => set({ charging_mode: e.target.value })} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm">
            {TIMER_MODES.map((m) => (
              <option key={m} value={m}>
                {tp(`mode.${m}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.description} className="block text-sm font-medium text-slate-700">
            {t('rfids.form.description')} <span className="font-normal text-slate-500">({t('rfids.form.optional')})</span>
          </label>
          <input id={ids.description} value={fields.description} maxLength={200} onChange={(e) => set({ description: e.target.value })} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm" />
        </div>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t('rfids.cancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={action.busy}>
          {t('rfids.save')}
        </button>
      </div>
    </form>
  )
}
