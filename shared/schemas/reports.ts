import { z } from 'zod'
// The lists live in a zod-free module for the browser (shared/rules/choices.ts).
import { INTERVALS, REPORT_TYPES } from '../rules/choices.ts'

/**
 * Reports (SPEC §3): the shape the API sends and the client edits. Shared by server/domain/reports and
 * client/features/reports. Intervals (SPEC §9): d day, w week, m month, q quarter, s half year, y year.
 */
export { INTERVALS, REPORT_TYPES }
export type ReportType = (typeof REPORT_TYPES)[number]
export type ReportInterval = (typeof INTERVALS)[number]

/** A report: recipients are e-mail addresses; last_runs maps an interval to its last period sent. */
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

/** Create/PUT body. */
export type ReportInput = Omit<Report, 'id' | 'last_runs'>

/** The zod form of {@link Report} (the API's answer; OpenAPI). */
export const ReportSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  report_type: z.enum(REPORT_TYPES),
  year: z.number().int().nullable(),
  recipients: z.array(z.string()),
  output_directory: z.string().nullable(),
  intervals: z.array(z.enum(INTERVALS)),
  show_deltas: z.boolean(),
  language: z.enum(['en', 'de', 'fr', 'it']),
  last_runs: z.record(z.string(), z.string()),
})
