import { apiFetch } from '../../api/http.ts'

export type ReportType = 'zev' | 'electrical' | 'water' | 'heat'
export const REPORT_TYPES: ReportType[] = ['zev', 'electrical', 'water', 'heat']
export const INTERVALS = ['d', 'w', 'm', 'q', 's', 'y'] as const
export type ReportInterval = (typeof INTERVALS)[number]

/** A report (server/domain/reports/service.ts). */
export interface Report {
  id: number
  name: string
  report_type: ReportType
  year: number | null
  recipients: string[]
  output_directory: string | null
  intervals: ReportInterval[]
  show_deltas: boolean
  language: 'en' | 'de' | 'fr' | 'it'
  last_runs: Record<string, string>
}
export type ReportInput = Omit<Report, 'id' | 'last_runs'>

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
/** POST reports/dispatch: send now for a calendar year; answers the number of mails queued. */
export function dispatchReport(installationId: number, reportId: number, year: number): Promise<{ queued: number }> {
  return apiFetch<{ queued: number }>(`${base(installationId)}dispatch`, { method: 'POST', body: { reportId, year } })
}
