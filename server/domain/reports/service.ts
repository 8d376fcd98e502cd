import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { localIso, type StatisticsService } from '../statistics/service.ts'
import type { DataGap } from '../../../shared/schemas/statistics.ts'
import type { MailService } from '../mail/service.ts'
import { Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { LANGS, type Lang } from '../../lib/messages.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import { localDate, localMidnight } from '../../../shared/rules/granularity.ts'
import { dueRuns, type ReportInterval, type ReportPeriod } from './periods.ts'
import { fill, REPORT_TEXT } from './labels.ts'
import { pdfCells, tablePdf } from './pdf.ts'
import { tableXlsx } from './xlsx.ts'
import { checkOutputDirectory, lastDay, reportFileName, writeReportFiles } from './output.ts'
import type { Report, ReportInput, ReportType } from '../../../shared/schemas/reports.ts'
import type { Clock } from '../../lib/clock.ts'

export type { Report, ReportInput, ReportType }

type Row = { id: number; installation_id: number; name: string; report_type: ReportType; year: number | null; recipients: string[]; output_directory: string | null; intervals: ReportInterval[]; show_deltas: boolean; language: string; last_runs: Record<string, string> }

const toReport = (r: Row): Report => ({
  id: r.id, name: r.name, report_type: r.report_type, year: r.year, recipients: r.recipients, output_directory: r.output_directory,
  intervals: r.intervals, show_deltas: r.show_deltas, language: ((LANGS as readonly string[]).includes(r.language) ? r.language : 'en') as Lang, last_runs: r.last_runs,
})

const csvCell = (v: string | number) => {
  const s = String(v)
  return /[";\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
/** CSV with ";" separators (what Swiss spreadsheet programs open directly) and a UTF-8 BOM. */
const csv = (rows: (string | number)[][]) => '\ufeff' + rows.map((r) => r.map(csvCell).join(';')).join('\r\n') + '\r\n'

/**
 * A report figure as printed in the CSV, PDF and workbook: money (CHF) to the centime, 2 decimals (issue
 * 12 §9); energy and volumes to 3 decimals (Wh, litres).
 */
export function reportNumber(value: number, unit: string): string {
  return value.toFixed(unit === 'CHF' ? 2 : 3)
}

/**
 * Reports: CRUD and the ZEV report settings for admins; dispatch now (POST
 * reports/dispatch) or on schedule (`runDue`, called by server/jobs/reports.ts). Each run renders a CSV
 * (";"-separated, UTF-8 with BOM), an XLSX and a PDF of the same table in the recipient's language and
 * enqueues one mail per recipient through the mail outbox. When the report has an output directory
 * (SPEC §3) and `reportsDir` (REPORTS_DIR) is set, the same three files in the report's language are also
 * written to `<reportsDir>/<installation id>/<output directory>/` (server/domain/reports/output.ts).
 * "The current year" is the installation-local year of `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createReportService({ db, clock, installations, statistics, mail, reportsDir }: { db: Db; clock: Clock; installations: InstallationService; statistics: StatisticsService; mail: MailService; reportsDir?: string }) {
  async function requireAdmin(actor: Actor, installationId: number) {
    const role = await installations.requireRole(actor, installationId)
    if (!isAdmin(role)) throw Forbidden()
  }
  async function row(installationId: number, id: number): Promise<Row> {
    const r = await db.selectFrom('reports').selectAll().where('installation_id', '=', installationId).where('id', '=', id).executeTakeFirst()
    if (!r) throw NotFound()
    return r as Row
  }
  const values = (i: ReportInput) => ({
    name: i.name, report_type: i.report_type, year: i.year, recipients: JSON.stringify(i.recipients), output_directory: i.output_directory,
    intervals: JSON.stringify([...new Set(i.intervals)]), show_deltas: i.show_deltas, language: i.language,
  })

  /** Language of a recipient: their account's language when they have one, else the report's. */
  async function langOf(email: string, fallback: Lang): Promise<Lang> {
    const u = await db.selectFrom('users').select('ietf_lang_tag').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst()
    const tag = u?.ietf_lang_tag?.slice(0, 2)
    return (LANGS as readonly string[]).includes(tag ?? '') ? (tag as Lang) : fallback
  }

  /**
   * The ZEV table: participants in the report's stable order, then the total row; stations
   * named as billed per charging session (no ZEV money). Notes state the model, the cap and, when the
   * period misses meter data, a warning.
   */
  async function renderZev(installationId: number, period: { start: Date; end: Date }, lang: Lang): Promise<{ table: (string | number)[][]; notes: string[] }> {
    const c = REPORT_TEXT.col
    const z = REPORT_TEXT.zev
    const { rows, summary: s } = await statistics.reportZev(installationId, period.start, period.end)
    const line = (name: string, r: (typeof rows)[number]) =>
      [name, r.consumption_kwh.toFixed(3), r.pv_kwh.toFixed(3), r.battery_kwh.toFixed(3), r.grid_kwh.toFixed(3), (r.grid_chf ?? 0).toFixed(2), (r.internal_chf ?? 0).toFixed(2), (r.cost_chf ?? 0).toFixed(2)]
    const name = (r: (typeof rows)[number]) => (r.kind === 'building' ? REPORT_TEXT.series.building[lang] : r.kind === 'station' ? fill(z.sessions[lang], { name: r.name }) : r.name)
    const notes = [
      s.model === 'flat_rate' ? fill(z.flat_rate[lang], { percent: String(s.flat_percent) }) : fill(z.actual_costs[lang], { feedIn: (s.feed_in_revenue_chf ?? 0).toFixed(2) }),
      fill(z.cap[lang], { percent: String(s.cap_percent), cap: s.cap_chf_per_kwh.toFixed(4), standard: s.standard_chf_per_kwh.toFixed(4) }),
      ...(s.missing_intervals > 0 ? [fill(z.missing[lang], { missing: String(s.missing_intervals), expected: String(s.expected_intervals) })] : []),
      ...(s.unbalanced_intervals > 0 ? [fill(z.unbalanced[lang], { count: String(s.unbalanced_intervals), kwh: s.unbalanced_kwh.toFixed(3) })] : []),
    ]
    return {
      table: [
        [c.consumer[lang], c.consumption[lang], c.pv[lang], c.battery[lang], c.grid[lang], c.gridCost[lang], c.internalCost[lang], c.cost[lang]],
        ...rows.map((r) => line(name(r), r)),
        line(z.total[lang], s.total),
      ],
      notes,
    }
  }

  async function render(installationId: number, type: ReportType, period: { start: Date; end: Date; from: string; to: string }, showDeltas: boolean, lang: Lang): Promise<{ table: (string | number)[][]; notes: string[] }> {
    const c = REPORT_TEXT.col
    if (type === 'zev') return renderZev(installationId, period, lang)
    const now = await statistics.reportTotals(installationId, type, period.start, period.end)
    const header = [c.series[lang], c.unit[lang], c.value[lang], ...(showDeltas ? [c.previous[lang], c.delta[lang]] : [])]
    let prev: Record<string, number> = {}
    if (showDeltas) {
      const length = period.end.getTime() - period.start.getTime()
      prev = (await statistics.reportTotals(installationId, type, new Date(period.start.getTime() - length), period.start)).series
    }
    return {
      table: [
        header,
        ...Object.entries(now.series).map(([name, v]) => {
          const fixed = (x: number) => reportNumber(x, now.units[name])
          return [REPORT_TEXT.series[name]?.[lang] ?? name, now.units[name], fixed(v), ...(showDeltas ? [fixed(prev[name] ?? 0), fixed(v - (prev[name] ?? 0))] : [])]
        }),
      ],
      notes: await gapNotes(installationId, now.data_quality?.gaps ?? [], lang),
    }
  }

  /** At most this many stretches without readings are named in a report; the rest are counted. */
  const GAP_NOTES = 10

  /**
   * A note per stretch a meter sent no readings in (statistics reportTotals' data_quality), in the
   * installation's local time, so a report never shows a period without data as measured 0 kWh (SPEC §2).
   */
  async function gapNotes(installationId: number, gaps: DataGap[], lang: Lang): Promise<string[]> {
    if (!gaps.length) return []
    const { timezone } = await db.selectFrom('installations').select('timezone').where('id', '=', installationId).executeTakeFirstOrThrow()
    const local = (t: string) => localIso(new Date(t), timezone).slice(0, 16).replace('T', ' ')
    const g = REPORT_TEXT.gaps
    return [
      ...gaps.slice(0, GAP_NOTES).map((x) => fill(g.gap[lang], { meter: x.meter_name, from: local(x.start), to: local(x.end) })),
      ...(gaps.length > GAP_NOTES ? [fill(g.more[lang], { count: String(gaps.length - GAP_NOTES) })] : []),
    ]
  }

  /**
   * Render one report run and enqueue it to every recipient (each in their language); with an output
   * directory, also write the files in the report's language there (the very bytes mailed to a recipient
   * of that language). Returns the mails enqueued and the files written (relative to the installation's
   * folder). The files are written first, so an unsafe directory (400) queues no mail; with
   * `onWriteError` (scheduled runs) a file that cannot be written is handed to it and the mails still go.
   */
  async function send(report: Row, type: ReportType, period: { start: Date; end: Date; from: string; to: string }, onWriteError?: (err: unknown) => void): Promise<{ queued: number; files: string[] }> {
    const inst = await db.selectFrom('installations').select(['name']).where('id', '=', report.installation_id).executeTakeFirstOrThrow()
    const fallback = toReport(report).language
    // One rendering per language: the statistics are read once for recipients sharing a language.
    const rendered = new Map<Lang, Promise<{ title: string; text: string; attachments: { filename: string; ext: string; contentType: string; content: Buffer }[] }>>()
    const renderIn = (lang: Lang) => {
      let r = rendered.get(lang)
      if (!r) {
        r = (async () => {
          const title = REPORT_TEXT.type[type][lang]
          const { table: [header, ...rows], notes } = await render(report.installation_id, type, period, report.show_deltas, lang)
          // "from … to …" as people read it: the period's first and last day.
          const text = [fill(REPORT_TEXT.body[lang], { report: title, installation: inst.name, from: period.from, to: lastDay(period.to) }), ...notes].join('\n')
          // The PDF is read by people: numbers as the recipient's language writes them (3'780.970, 3 780,970).
          const pdf = await tablePdf(`${title} ${inst.name}`, `${period.from} – ${lastDay(period.to)}`, header.map(String), pdfCells(rows, lang), notes)
          // CSV and workbook: the table first (its header stays the first line), the notes below it.
          const withNotes = notes.length ? [...rows, [], ...notes.map((n) => [n])] : rows
          const xlsx = await tableXlsx(title, header.map(String), withNotes)
          return {
            title, text,
            attachments: [
              { filename: `${type}-report-${period.from}.csv`, ext: 'csv', contentType: 'text/csv; charset=utf-8', content: Buffer.from(csv([header, ...withNotes]), 'utf8') },
              { filename: `${type}-report-${period.from}.pdf`, ext: 'pdf', contentType: 'application/pdf', content: pdf },
              { filename: `${type}-report-${period.from}.xlsx`, ext: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: xlsx },
            ],
          }
        })()
        rendered.set(lang, r)
      }
      return r
    }
    let files: string[] = []
    if (report.output_directory && reportsDir) {
      const own = await renderIn(fallback)
      try {
        files = await writeReportFiles(reportsDir, report.installation_id, report.output_directory,
          own.attachments.map((a) => ({ filename: reportFileName(report.name, `${type}-report`, period, a.ext), content: a.content })))
      } catch (err) {
        if (!onWriteError) throw err
        onWriteError(err)
      }
    }
    let queued = 0
    for (const to of report.recipients) {
      const r = await renderIn(await langOf(to, fallback))
      await mail.enqueue({
        // The report's own name first: two reports of one installation differ by more than a date.
        kind: 'report', to, subject: `${report.name}: ${r.title} ${inst.name} ${period.from} – ${lastDay(period.to)}`, text: r.text,
        attachments: r.attachments.map(({ filename, contentType, content }) => ({ filename, contentType, content })),
      })
      queued++
    }
    return { queued, files }
  }

  return {
    async list(actor: Actor, installationId: number) {
      await requireAdmin(actor, installationId)
      const rows = await db.selectFrom('reports').selectAll().where('installation_id', '=', installationId).orderBy('id').execute()
      const results = rows.map((r) => toReport(r as Row))
      return { count: results.length, next: null, previous: null, results }
    },
    async get(actor: Actor, installationId: number, id: number) {
      await requireAdmin(actor, installationId)
      return toReport(await row(installationId, id))
    },
    async create(actor: Actor, installationId: number, input: ReportInput) {
      await requireAdmin(actor, installationId)
      checkOutputDirectory(input.output_directory)
      const r = await db.insertInto('reports').values({ installation_id: installationId, ...values(input) }).returningAll().executeTakeFirstOrThrow()
      return toReport(r as Row)
    },
    async update(actor: Actor, installationId: number, id: number, input: Partial<ReportInput>) {
      await requireAdmin(actor, installationId)
      checkOutputDirectory(input.output_directory)
      const current = toReport(await row(installationId, id))
      const r = await db.updateTable('reports').set(values({ ...current, ...input })).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      return toReport(r as Row)
    },
    async remove(actor: Actor, installationId: number, id: number) {
      await requireAdmin(actor, installationId)
      await row(installationId, id)
      await db.deleteFrom('reports').where('id', '=', id).execute()
    },

    /** GET reports/zev: the installation's ZEV report (created with defaults on first use). */
    async zev(actor: Actor, installationId: number): Promise<Report> {
      await requireAdmin(actor, installationId)
      const found = await db.selectFrom('reports').selectAll().where('installation_id', '=', installationId).where('report_type', '=', 'zev').orderBy('id').executeTakeFirst()
      if (found) return toReport(found as Row)
      const r = await db.insertInto('reports').values({ installation_id: installationId, ...values({ name: 'ZEV', report_type: 'zev', year: null, recipients: [], output_directory: null, intervals: ['m'], show_deltas: false, language: 'de' }) }).returningAll().executeTakeFirstOrThrow()
      return toReport(r as Row)
    },
    /** PUT / PATCH reports/zev. */
    async updateZev(actor: Actor, installationId: number, input: Partial<ReportInput>): Promise<Report> {
      const current = await this.zev(actor, installationId)
      return this.update(actor, installationId, current.id, { ...input, report_type: 'zev' })
    },

    /**
     * POST reports/dispatch {reportId, reportType?, year?}: send the report now for calendar year
     * `year` (default: the report's year, else the current one up to today) to its recipients and write
     * it to its output directory. Returns the mails enqueued and the files written. 400 {recipients}
     * when it has neither recipients nor an output directory; 400 {output_directory} when that is unsafe.
     */
    async dispatch(actor: Actor, installationId: number, body: { reportId: number; reportType?: ReportType; year?: number }) {
      await requireAdmin(actor, installationId)
      const r = await row(installationId, body.reportId)
      if (!r.recipients.length && !r.output_directory) throw new Invalid({ recipients: ['required'] })
      const inst = await installations.describe(installationId)
      const year = body.year ?? r.year ?? Number(localDate(clock.now(), inst.timezone).slice(0, 4))
      const from = `${year}-01-01`
      const to = `${year + 1}-01-01`
      const period = { from, to, start: new Date(localMidnight(from, inst.timezone)), end: new Date(localMidnight(to, inst.timezone)) }
      return send(r, body.reportType ?? r.report_type, period)
    },

    /**
     * Scheduled runs: every report's due periods at `now` (server/domain/reports/periods.ts) are sent
     * and recorded, so each period goes out once and a run missed while the server was down is made up.
     * Each run lists the files it wrote to the output directory; a file that could not be written is
     * named in `error` (the mails still go out and the period counts as sent).
     */
    async runDue(now: Date): Promise<{ report: number; period: ReportPeriod; files: string[]; error?: string }[]> {
      const done: { report: number; period: ReportPeriod; files: string[]; error?: string }[] = []
      const rows = await db.selectFrom('reports').innerJoin('installations', 'installations.id', 'reports.installation_id').selectAll('reports').select('installations.timezone').execute()
      for (const r of rows) {
        for (const period of dueRuns(r.intervals, r.last_runs, now, r.timezone)) {
          let files: string[] = []
          let error: string | undefined
          if (r.recipients.length || r.output_directory) {
            // A folder that cannot be written (unsafe, or a file-system error) does not hold back the mails.
            files = (await send(r as Row, r.report_type, period, (err) => {
              error = err instanceof Invalid ? 'unsafe output directory' : String((err as Error)?.message ?? err)
            })).files
          }
          const fresh = await db.selectFrom('reports').select('last_runs').where('id', '=', r.id).executeTakeFirstOrThrow()
          await db.updateTable('reports').set({ last_runs: JSON.stringify({ ...fresh.last_runs, [period.interval]: period.end.toISOString() }) }).where('id', '=', r.id).execute()
          done.push({ report: r.id, period, files, ...(error ? { error } : {}) })
        }
      }
      return done
    },
  }
}
export type ReportService = ReturnType<typeof createReportService>
