import { apiFetch } from '../../api/http.ts'
import type { Report, ReportInput, ReportInterval, ReportType } from '../../../shared/schemas/reports.ts'
import { INTERVALS, REPORT_TYPES } from '../../../shared/rules/choices.ts'

export { INTERVALS, REPORT_TYPES, type Report, type ReportInput, type ReportInterval, type ReportType }

/** Query keys of the reports screen. */
export const reportKeys = {
  list: (installationId: number) => ['installations', installationId, 'reports'] as const,
}

const base = (installationId: number) => `/api/cockpit/installations/${installationId}/reports/`

export async function listReports(installationId: number, signal?: AbortSignal): Promise<Report[]> {
  return (await apiFetch<{ results: Report[] }>(base(installationId), { signal })).results
}
export function createReport(installationId: number, body: ReportInput): Promise<Report> {
  return apiFetch<Report>(base(installationId), { method: 'POST', body })
}
export function updateReport(installationId: number, id: number, body: ReportInput): Promise<Report> {
  return apiFetch<Report>(`${base(installationId)}${id}/`, { method: 'PUT', body })
}
export function deleteReport(installationId: number, id: number): Promise<void> {
  return apiFetch<void>(`${base(installationId)}${id}/`, { method: 'DELETE' })
}
/** POST reports/dispatch (SPEC §7: reportId, reportType, year): send now for a calendar year; answers the number of mails queued. */
export function dispatchReport(installationId: number, reportId: number, year: number, reportType?: ReportType): Promise<{ queued: number }> {
  return apiFetch<{ queued: number }>(`${base(installationId)}dispatch`, { method: 'POST', body: { reportId, year, ...(reportType ? { reportType } : {}) } })
}
