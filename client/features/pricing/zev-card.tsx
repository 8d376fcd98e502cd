import { useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '../../api/http.ts'
import type { ZevModel, ZevSettings } from '../../../shared/schemas/zev.ts'
import { ZEV_FLAT_MAX_PERCENT } from '../../../shared/rules/choices.ts'
import { Card, Notice } from '../../components/ui.tsx'
import { intoFieldErrors, useAction } from '../../components/use-action.ts'
import { parseLocaleNumber } from '../../components/parse-number.ts'
import { useFormats } from '../../components/use-formats.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { pricingKeys, zevSaved } from './api.ts'

const input = 'mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-base sm:text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'

/** GET /api/zev/settings/?installation={id}: the ZEV billing model. */
export function fetchZevSettings(installationId: number, signal?: AbortSignal): Promise<ZevSettings> {
  return apiFetch<ZevSettings>('/api/zev/settings/', { query: { installation: installationId }, signal })
}

/** PUT /api/zev/settings/?installation={id} (admins); 400 with field messages. */
export function saveZevSettings(installationId: number, body: ZevSettings): Promise<ZevSettings> {
  return apiFetch<ZevSettings>('/api/zev/settings/', { method: 'PUT', query: { installation: installationId }, body })
}

/**
 * Pricing, for admins: how the ZEV bills internal energy (EnV Art. 16) — a flat rate of at
 * most 80 % of the external standard electricity product, or the actual costs less feed-in revenue,
 * capped at the standard product. The ZEV report states the model and its cap. The form mounts again
 * (keyed by the load state) when the stored model arrives, so nothing typed before is overwritten by it.
 */
export function ZevCard({ installationId }: { installationId: number }) {
  const query = useQuery({ queryKey: pricingKeys.zev(installationId), queryFn: ({ signal }) => fetchZevSettings(installationId, signal) })
  // The form starts from the stored model once it is there (or from the defaults when it cannot be read).
  const state = query.data ? 'loaded' : query.isError ? 'failed' : 'loading'
  return (
    <ZevForm key={state} installationId={installationId} stored={query.data ?? null} loaded={state !== 'loading'}
      problem={state === 'failed' && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : null} />
  )
}

function ZevForm({ installationId, stored, loaded, problem }: { installationId: number; stored: ZevSettings | null; loaded: boolean; problem: ReactNode }) {
  const { t } = useTranslation('pricing')
  const f = useFormats()
  const queryClient = useQueryClient()
  const [model, setModel] = useState<ZevModel>(stored?.model ?? 'flat_rate')
  const [percent, setPercent] = useState(String(stored?.flat_percent ?? 80))
  // The stored percentage: sent unchanged when the model does not use it (the field is disabled then).
  const [savedPercent, setSavedPercent] = useState(stored?.flat_percent ?? 80)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const { busy, feedback, setFeedback, run } = useAction()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setErrors({})
    const pct = model === 'flat_rate' ? parseLocaleNumber(percent, f.locale) : savedPercent
    await run(async () => {
      const saved = await saveZevSettings(installationId, { model, flat_percent: Number.isNaN(pct) ? -1 : pct })
      void zevSaved(queryClient, installationId, saved)
      setModel(saved.model)
      setPercent(String(saved.flat_percent))
      setSavedPercent(saved.flat_percent)
      return t('zev.saved')
    }, (err) => {
      const handled = intoFieldErrors(setErrors)(err)
      if (handled) setFeedback({ tone: 'error', text: t('checkFields') })
      return handled
    })
  }

  return (
    <Card titleId="pricing-zev" title={t('zev.title')}>
      <p className="text-sm text-slate-600">{t('zev.hint', { max: f.percent(ZEV_FLAT_MAX_PERCENT) })}</p>
      <form onSubmit={submit} className="mt-3 space-y-3" aria-labelledby="pricing-zev" aria-busy={!loaded}>
        {problem}
        {feedback ? <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'}>{feedback.text}</Notice> : null}
        {/* Disabled until the stored model arrives, so nothing typed before is overwritten by it. */}
        <fieldset disabled={!loaded} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div>
            <label className="block text-sm font-medium text-slate-700">
              {t('zev.model')}
              <select className={input} value={model} onChange={(e) => setModel(e.target.value as ZevModel)}>
                <option value="flat_rate">{t('zev.flat_rate')}</option>
                <option value="actual_costs">{t('zev.actual_costs')}</option>
              </select>
            </label>
            {errors.model ? <p className="mt-1 text-xs text-red-700">{errors.model}</p> : null}
          </div>
          <div>
            <label className="block text-sm font-medium text-slate-700">
              {t('zev.percent', { max: f.percent(ZEV_FLAT_MAX_PERCENT) })}
              <input inputMode="decimal" className={input} value={percent} disabled={model !== 'flat_rate'} onChange={(e) => setPercent(e.target.value)}
                {...(errors.flat_percent ? { 'aria-invalid': true as const, 'aria-describedby': 'zev-percent-error' } : {})} />
            </label>
            {errors.flat_percent ? <p id="zev-percent-error" className="mt-1 text-xs text-red-700">{errors.flat_percent}</p> : null}
          </div>
        </fieldset>
        <button type="submit" disabled={busy || !loaded} className="min-h-11 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          {busy ? t('form.saving') : t('zev.save')}
        </button>
      </form>
    </Card>
  )
}
