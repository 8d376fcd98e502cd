import { useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Loading, Notice, useDocumentTitle, Outcome } from '../../components/ui.tsx'
import { PinButton } from '../../components/pin-button.tsx'
import { paths } from '../../app/paths.ts'
import { createReport, deleteReport, dispatchReport, INTERVALS, listReports, REPORT_TYPES, reportKeys, updateReport, type Report, type ReportInput } from './api.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { clientDate } from '../../api/clock.ts'

const input = 'mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'
const button = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'

/**
 * Management → Reports (SPEC §2): ZEV, electricity, water and heat reports with recipients,
 * year, output directory (SPEC §3), intervals and deltas; send now for the report's year (SPEC §7
 * reports/dispatch, the current one when it has none); delete with confirmation. The ZEV report on
 * screen is listed first and opens the charts' ZEV view.
 */
export default function ReportsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('reports')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('title'))
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: reportKeys.list(installation.id), queryFn: ({ signal }) => listReports(installation.id, signal) })
  const reports = query.data ?? null
  // A failed action; a failed read shows with its retry below.
  const [problem, setProblem] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [editing, setEditing] = useState<Report | 'new' | null>(null)
  const [confirming, setConfirming] = useState<number | null>(null)
  // The ZEV report on screen lives with the charts (it shares their period navigation); a month opens.
  const zevHref = `${paths.charts(installation.id)}?kind=zev&period=month`

  const changed = () => queryClient.invalidateQueries({ queryKey: reportKeys.list(installation.id) })

  // Sending changes a report too (its last runs), so every action refreshes the list.
  const act = async (fn: () => Promise<unknown>, done: string) => {
    setProblem(null)
    try {
      await fn()
      setMessage(done)
      void changed()
    } catch (err) {
      setProblem(errorMessage(err, tc))
    }
  }

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        <PinButton installationId={installation.id} name={t('title')} url={paths.reports(installation.id)} />
      </div>
      <Outcome message={message} problem={problem} />
      {editing ? (
        <ReportForm
          key={editing === 'new' ? 'new' : editing.id}
          report={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSave={async (body) => {
            if (editing === 'new') await createReport(installation.id, body)
            else await updateReport(installation.id, editing.id, body)
            setEditing(null)
            setMessage(t('saved'))
            void changed()
          }}
        />
      ) : (
        <button type="button" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700" onClick={() => (setMessage(null), setEditing('new'))}>
          {t('new')}
        </button>
      )}
      <section aria-labelledby="reports-zev" className="rounded-2xl border border-brand-100 bg-brand-50 p-4">
        <h2 id="reports-zev" className="text-base font-semibold text-slate-900">
          {t('type.zev')}
        </h2>
        <p className="text-sm text-slate-700">{t('zevIntro')}</p>
        <Link href={zevHref} className="mt-2 inline-block rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
          {t('openZev')}
        </Link>
      </section>
      {reports === null ? query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={t('loading')} /> : null}
      {reports?.length === 0 ? <p className="text-sm text-slate-600">{t('empty')}</p> : null}
      <ul className="space-y-3">
        {(reports ?? []).map((r) => (
          <li key={r.id}>
            <article aria-labelledby={`report-${r.id}`} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <h2 id={`report-${r.id}`} className="text-base font-semibold text-slate-900">
                {r.name}
              </h2>
              <p className="text-sm text-slate-600">
                {t(`type.${r.report_type}`)} · {r.intervals.length ? r.intervals.map((i) => t(`interval.${i}`)).join(', ') : t('noSchedule')}
                {r.show_deltas ? ` · ${t('showDeltas')}` : ''}
              </p>
              <p className="text-sm text-slate-600">
                {t('recipients')}: {r.recipients.length ? r.recipients.join(', ') : t('none')}
              </p>
              <p className="text-sm text-slate-600">
                {t('year')}: {r.year ?? t('currentYear')} · {t('outputDirectory')}: {r.output_directory ?? t('none')}
              </p>
              {r.report_type === 'zev' ? (
                <p className="text-sm">
                  <Link href={zevHref} className="font-medium text-brand-700 underline">
                    {t('openZevNamed', { name: r.name })}
                  </Link>
                </p>
              ) : null}
              <div className="mt-3 flex flex-wrap gap-2">
                <button type="button" className={button} aria-label={t('editNamed', { name: r.name })} onClick={() => (setMessage(null), setEditing(r))}>
                  {t('edit')}
                </button>
                <button type="button" className={button} aria-label={t('sendNamed', { name: r.name })} disabled={!r.recipients.length && !r.output_directory} onClick={() => act(() => dispatchReport(installation.id, r.id, r.year ?? clientDate().getFullYear(), r.report_type), t('sent'))}>
                  {t('send')}
                </button>
                {confirming === r.id ? (
                  <div role="alertdialog" aria-label={t('confirmDelete', { name: r.name })} className="flex flex-wrap items-center gap-2 text-sm">
                    <span>{t('confirmDelete', { name: r.name })}</span>
                    <button type="button" className="rounded-md bg-red-600 px-3 py-1.5 text-white" onClick={() => act(() => deleteReport(installation.id, r.id), t('deleted')).then(() => setConfirming(null))}>
                      {t('delete')}
                    </button>
                    <button type="button" className={button} onClick={() => setConfirming(null)}>
                      {t('cancel')}
                    </button>
                  </div>
                ) : (
                  <button type="button" className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-700" aria-label={t('deleteNamed', { name: r.name })} onClick={() => setConfirming(r.id)}>
                    {t('delete')}
                  </button>
                )}
              </div>
            </article>
          </li>
        ))}
      </ul>
    </div>
  )
}

function ReportForm({ report, onSave, onCancel }: { report: Report | null; onSave: (body: ReportInput) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation('reports')
  const { t: tc } = useTranslation()
  const [body, setBody] = useState<ReportInput>(() => ({
    name: report?.name ?? '', report_type: report?.report_type ?? 'electrical', year: report?.year ?? null, recipients: report?.recipients ?? [],
    output_directory: report?.output_directory ?? null, intervals: report?.intervals ?? ['m'], show_deltas: report?.show_deltas ?? false, language: report?.language ?? 'de',
  }))
  const [recipients, setRecipients] = useState((report?.recipients ?? []).join(', '))
  const [year, setYear] = useState(report?.year == null ? '' : String(report.year))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState<string | null>(null)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setErrors({})
    setProblem(null)
    try {
      // An empty year means "the current one" (null); anything else goes as typed, so the server names a bad one.
      await onSave({ ...body, year: year.trim() === '' ? null : Number(year), recipients: recipients.split(/[,;\s]+/).filter(Boolean) })
    } catch (err) {
      const f = fieldErrors(err)
      const recipientError = Object.entries(f).find(([k]) => k.startsWith('recipients'))?.[1]
      setErrors({ ...f, ...(recipientError ? { recipients: recipientError } : {}) })
      setProblem(Object.keys(f).length ? t('checkFields') : errorMessage(err, tc))
    }
  }

  return (
    <form onSubmit={submit} aria-labelledby="report-form-title" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="report-form-title" className="text-base font-semibold">
        {report ? t('editTitle') : t('newTitle')}
      </h2>
      {problem ? (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div>
          <label className="block text-sm font-medium text-slate-700">
            {t('name')}
            <input className={input} value={body.name} onChange={(e) => setBody({ ...body, name: e.target.value })} aria-invalid={errors.name ? true : undefined} />
          </label>
          {errors.name ? <p className="mt-1 text-xs text-red-700">{errors.name}</p> : null}
        </div>
        <div>
          <label htmlFor="report-type" className="block text-sm font-medium text-slate-700">
            {t('reportType')}
          </label>
          <select id="report-type" className={input} value={body.report_type} onChange={(e) => setBody({ ...body, report_type: e.target.value as ReportInput['report_type'] })}>
            {REPORT_TYPES.map((x) => (
              <option key={x} value={x}>
                {t(`type.${x}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="sm:col-span-2">
          <label className="block text-sm font-medium text-slate-700">
            {t('recipients')}
            <input className={input} value={recipients} onChange={(e) => setRecipients(e.target.value)} aria-describedby="report-recipients-hint" aria-invalid={errors.recipients ? true : undefined} />
          </label>
          <p id="report-recipients-hint" className="mt-1 text-xs text-slate-500">
            {t('recipientsHint')}
          </p>
          {errors.recipients ? <p className="mt-1 text-xs text-red-700">{errors.recipients}</p> : null}
        </div>
        <div>
          <label htmlFor="report-language" className="block text-sm font-medium text-slate-700">
            {t('language')}
          </label>
          <select id="report-language" className={input} value={body.language} onChange={(e) => setBody({ ...body, language: e.target.value as ReportInput['language'] })}>
            {(['en', 'de', 'fr', 'it'] as const).map((l) => (
              <option key={l} value={l}>
                {t(`lang.${l}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label className="block text-sm font-medium text-slate-700">
            {t('year')}
            <input className={input} type="number" inputMode="numeric" min={2000} max={2100} value={year} onChange={(e) => setYear(e.target.value)} aria-describedby="report-year-hint" aria-invalid={errors.year ? true : undefined} />
          </label>
          <p id="report-year-hint" className="mt-1 text-xs text-slate-500">
            {t('yearHint')}
          </p>
          {errors.year ? <p className="mt-1 text-xs text-red-700">{errors.year}</p> : null}
        </div>
        <div>
          <label className="block text-sm font-medium text-slate-700">
            {t('outputDirectory')}
            <input className={input} value={body.output_directory ?? ''} onChange={(e) => setBody({ ...body, output_directory: e.target.value.trim() || null })} aria-describedby="report-output-hint" aria-invalid={errors.output_directory ? true : undefined} />
          </label>
          <p id="report-output-hint" className="mt-1 text-xs text-slate-500">
            {t('outputDirectoryHint')}
          </p>
          {errors.output_directory ? <p className="mt-1 text-xs text-red-700">{errors.output_directory}</p> : null}
        </div>
      </div>
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">{t('intervals')}</legend>
        <div className="mt-1 flex flex-wrap gap-3">
          {INTERVALS.map((i) => (
            <label key={i} className="flex items-center gap-1 text-sm text-slate-700">
              <input type="checkbox" checked={body.intervals.includes(i)} onChange={(e) => setBody({ ...body, intervals: e.target.checked ? [...body.intervals, i] : body.intervals.filter((x) => x !== i) })} />
              {t(`interval.${i}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={body.show_deltas} onChange={(e) => setBody({ ...body, show_deltas: e.target.checked })} />
        {t('showDeltas')}
      </label>
      <div className="flex gap-2">
        <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
          {t('save')}
        </button>
        <button type="button" className={button} onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  )
}
