import { useId, useState } from 'react'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Station } from '../../../shared/schemas/station.ts'
import { PLAN_MAX_KWH, type ChargePlan, type ChargePlanPut } from '../../../shared/schemas/charge-plan.ts'
import { TIME_RE, WEEKDAY_FIELDS } from '../../../shared/schemas/timer.ts'
import type { Rights } from '../../app/rights.ts'
import type { Formats } from '../../components/use-formats.ts'
import { intoFieldErrors, useAction } from '../../components/use-action.ts'
import { Loading, Notice } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { deleteStationPlan, setStationPlan, stationKeys, stationPlan } from './station-api.ts'

type Day = (typeof WEEKDAY_FIELDS)[number]
const WORKDAYS: Day[] = ['repeat_monday', 'repeat_tuesday', 'repeat_wednesday', 'repeat_thursday', 'repeat_friday']

/** "weekdays", "every day", "once" or the chosen days, as the plan's summary says them. */
function useWhen() {
  const { t } = useTranslation('charging')
  return (p: Pick<ChargePlan, 'repeat' | Day>) => {
    if (!p.repeat) return t('plan.once')
    const on = WEEKDAY_FIELDS.filter((d) => p[d])
    if (on.length === 7) return t('timers.everyDay')
    if (on.length === 5 && WORKDAYS.every((d) => p[d])) return t('plan.weekdays')
    return on.map((d) => t(`timers.short.${d}`)).join(', ')
  }
}

/**
 * The charge plan on a station's status tab (SPEC §4 charging modes; docs/decisions.md "Load
 * management: charge plans"): what the car charging there needs by when ("30 kWh by 07:00, weekdays"),
 * the slots the load controller planned (solar, low tariff, grid) and its warning when the target cannot
 * be reached; set and removed by whoever may change the station or owns the charging card.
 */
export function StationPlan({ installationId, station, rights, f }: { installationId: number; station: Station; rights: Rights | null; f: Formats }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  const queryClient = useQueryClient()
  const key = stationKeys.plan(installationId, station.id)
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => stationPlan(installationId, station.id, signal), refetchInterval: 30_000 })
  const [editing, setEditing] = useState(false)
  const remove = useAction()
  const when = useWhen()
  const headingId = useId()
  const carHere = station.session_start !== null
  const mayPlan = !!rights && (rights.writeStation(station.id) || (station.rfid !== null && rights.writeRfid(station.rfid.id)))
  const plan = query.data
  const reload = () => queryClient.invalidateQueries({ queryKey: key })
  const energy = (p: ChargePlan) => (p.energy_kwh === 'full' ? t('plan.full') : f.kwh(p.energy_kwh))

  return (
    <section aria-labelledby={headingId} className="space-y-3 rounded-2xl border border-slate-200 p-4">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {t('plan.title')}
      </h3>
      {query.isPending ? (
        <Loading label={tc('loading')} />
      ) : query.isError ? (
        <QueryProblem error={query.error} onRetry={query.refetch} />
      ) : plan ? (
        <div className="space-y-2">
          <p className="text-sm font-semibold text-slate-900" data-testid="plan-summary">
            {t('plan.summary', { energy: energy(plan), time: plan.deadline, when: when(plan) })}
          </p>
          <p className="text-sm text-slate-600">
            {plan.active ? t('plan.progress', { charged: f.kwh(plan.charged_kwh), remaining: f.kwh(plan.remaining_kwh ?? 0) }) : plan.next_deadline ? t('plan.waitingForCar') : t('plan.done')}
          </p>
          {plan.warning ? (
            <Notice tone="warning" role="alert">
              {plan.warning}
            </Notice>
          ) : null}
          {plan.slots.length > 0 ? (
            <ul aria-label={t('plan.slots')} className="divide-y divide-slate-100 text-sm">
              {plan.slots.map((s) => (
                <li key={`${s.start}-${s.source}`} className="flex flex-wrap justify-between gap-2 py-1.5">
                  <span className="tabular-nums">
                    {f.time(s.start)}–{f.time(s.end)}
                  </span>
                  <span>
                    {f.kw(s.kw)} · {t(`plan.source.${s.source}`)}
                  </span>
                </li>
              ))}
            </ul>
          ) : plan.active ? (
            <p className="text-sm text-slate-500">{t('plan.noSlots')}</p>
          ) : null}
          {mayPlan && !editing ? (
            <div className="flex flex-wrap gap-2">
              {carHere ? (
                <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setEditing(true)}>
                  {t('plan.change')}
                </button>
              ) : null}
              <button
                type="button"
                className="btn-secondary px-3 py-1.5 text-red-700"
                disabled={remove.busy}
                onClick={() => remove.run(async () => { await deleteStationPlan(installationId, station.id); await reload() })}
              >
                {t('plan.remove')}
              </button>
            </div>
          ) : null}
          {remove.feedback?.tone === 'error' ? <Notice tone="error" role="alert">{remove.feedback.text}</Notice> : null}
        </div>
      ) : (
        <p className="text-sm text-slate-500">{carHere ? t('plan.none') : t('plan.noCar')}</p>
      )}
      {mayPlan && carHere && !plan && !editing && !query.isPending ? (
        <button type="button" className="btn-primary" onClick={() => setEditing(true)}>
          {t('plan.add')}
        </button>
      ) : null}
      {editing ? (
        <PlanForm
          plan={plan ?? null}
          onCancel={() => setEditing(false)}
          onSave={async (body) => {
            await setStationPlan(installationId, station.id, body)
            setEditing(false)
            await reload()
          }}
        />
      ) : null}
    </section>
  )
}

function PlanForm({ plan, onSave, onCancel }: { plan: ChargePlan | null; onSave: (body: ChargePlanPut) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation('charging')
  const ids = { title: useId(), energy: useId(), energyError: useId(), full: useId(), time: useId(), timeError: useId(), daysError: useId() }
  const [full, setFull] = useState(plan?.energy_kwh === 'full')
  const [energy, setEnergy] = useState(plan && plan.energy_kwh !== 'full' ? String(plan.energy_kwh) : '')
  const [time, setTime] = useState(plan?.deadline ?? '07:00')
  const [repeat, setRepeat] = useState(plan?.repeat ?? false)
  const [days, setDays] = useState<Record<Day, boolean>>(() => Object.fromEntries(WEEKDAY_FIELDS.map((d) => [d, plan ? plan[d] : WORKDAYS.includes(d)])) as Record<Day, boolean>)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const action = useAction()
  const failure = action.feedback?.tone === 'error' ? action.feedback.text : null

  async function submit(e: FormEvent) {
    e.preventDefault()
    // The server checks the same and answers in the user's language (SPEC §5).
    const local: Record<string, string> = {}
    const kwh = Number(energy.replace(',', '.'))
    if (!full && !(energy.trim() !== '' && Number.isFinite(kwh) && kwh > 0 && kwh <= PLAN_MAX_KWH)) local.energy_kwh = t('plan.energyInvalid', { max: PLAN_MAX_KWH })
    if (!TIME_RE.test(time)) local.deadline = t('timers.timeInvalid')
    if (repeat && !WEEKDAY_FIELDS.some((d) => days[d])) local.repeat_days = t('timers.daysRequired')
    setErrors(local)
    if (Object.keys(local).length) return
    await action.run(() => onSave({ energy_kwh: full ? 'full' : kwh, deadline: time, repeat, ...days }), intoFieldErrors(setErrors))
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={ids.title} className="space-y-4 rounded-2xl border border-slate-200 bg-slate-50 p-4">
      <h4 id={ids.title} className="text-sm font-semibold text-slate-900">
        {plan ? t('plan.change') : t('plan.add')}
      </h4>
      {failure ? (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={ids.energy} className="block text-sm font-medium text-slate-700">
            {t('plan.energy')}
          </label>
          <input
            id={ids.energy}
            inputMode="decimal"
            value={energy}
            disabled={full}
            onChange={(e) => setEnergy(e.target.value)}
            aria-invalid={Boolean(errors.energy_kwh)}
            aria-describedby={errors.energy_kwh ? ids.energyError : undefined}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm disabled:bg-slate-100"
          />
          <label htmlFor={ids.full} className="mt-2 flex items-center gap-1.5 text-sm text-slate-800">
            <input id={ids.full} type="checkbox" checked={full} onChange={(e) => setFull(e.target.checked)} className="h-4 w-4 rounded border-slate-300" />
            {t('plan.full')}
          </label>
          {errors.energy_kwh ? (
            <p id={ids.energyError} className="mt-1 text-sm text-red-700">
              {errors.energy_kwh}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={ids.time} className="block text-sm font-medium text-slate-700">
            {t('plan.deadline')}
          </label>
          <input
            id={ids.time}
            type="time"
            value={time}
            onChange={(e) => setTime(e.target.value)}
            aria-invalid={Boolean(errors.deadline)}
            aria-describedby={errors.deadline ? ids.timeError : undefined}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          />
          {errors.deadline ? (
            <p id={ids.timeError} className="mt-1 text-sm text-red-700">
              {errors.deadline}
            </p>
          ) : null}
        </div>
      </div>
      <fieldset aria-invalid={Boolean(errors.repeat_days)} aria-describedby={errors.repeat_days ? ids.daysError : undefined}>
        <legend className="text-sm font-medium text-slate-700">{t('plan.when')}</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          <label className="flex items-center gap-1.5 text-sm text-slate-800">
            <input type="radio" name="plan-repeat" checked={!repeat} onChange={() => setRepeat(false)} className="h-4 w-4" />
            {t('plan.once')}
          </label>
          <label className="flex items-center gap-1.5 text-sm text-slate-800">
            <input type="radio" name="plan-repeat" checked={repeat} onChange={() => setRepeat(true)} className="h-4 w-4" />
            {t('plan.repeatOn')}
          </label>
        </div>
        {repeat ? (
          <div className="mt-2 flex flex-wrap gap-3">
            {WEEKDAY_FIELDS.map((d) => (
              <label key={d} className="flex items-center gap-1.5 text-sm text-slate-800">
                <input type="checkbox" checked={days[d]} onChange={(e) => setDays((x) => ({ ...x, [d]: e.target.checked }))} className="h-4 w-4 rounded border-slate-300" />
                {t(`timers.day.${d}`)}
              </label>
            ))}
          </div>
        ) : null}
        {errors.repeat_days ? (
          <p id={ids.daysError} className="mt-1 text-sm text-red-700">
            {errors.repeat_days}
          </p>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {t('rfids.cancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={action.busy}>
          {t('plan.save')}
        </button>
      </div>
    </form>
  )
}
