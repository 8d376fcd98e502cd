import fs from 'node:fs/promises'
import { constants } from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import { Invalid } from '../../lib/errors.ts'

/** Longest output directory accepted (characters) and most folder levels in it. */
export const OUTPUT_DIRECTORY_MAX = 500
const MAX_DEPTH = 10

/**
 * A folder name an admin may use in a report's output directory (SPEC §3 "output directory"): letters,
 * digits, ".", "_", "-", not starting with "." (so never "." or "..", nor a hidden folder), at most 100
 * characters. Everything else (backslash, NUL and other control characters, spaces, ":" of a drive
 * letter) is refused rather than cleaned, so the folder written is the folder the admin typed.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/

/** The 400 of an unsafe output directory: `{output_directory: ["Please enter a valid output directory…"]}`. */
const unsafe = () => new Invalid({ output_directory: ['outputDirectoryInvalid'] })

/**
 * Whether `dir` is a safe relative output directory: folder names (see SEGMENT) separated by single "/",
 * no leading or trailing "/", at most {@link OUTPUT_DIRECTORY_MAX} characters and 10 levels. Absolute
 * paths, "..", ".", empty segments ("a//b"), backslashes and NUL are refused.
 */
export function isSafeOutputDirectory(dir: string): boolean {
  if (dir.length === 0 || dir.length > OUTPUT_DIRECTORY_MAX) return false
  const segments = dir.split('/')
  return segments.length <= MAX_DEPTH && segments.every((s) => SEGMENT.test(s))
}

/** Throws 400 {output_directory: [outputDirectoryInvalid]} unless `dir` is null or {@link isSafeOutputDirectory}. */
export function checkOutputDirectory(dir: string | null | undefined): void {
  if (dir != null && !isSafeOutputDirectory(dir)) throw unsafe()
}

/**
 * A report file's name: the report's name (letters and digits of any script, "_" and "-"; other runs of
 * characters become "-"), the period's first and last day, the extension, e.g.
 * `Monthly-power_2026-03-01_2026-03-31.csv`. `to` is the period's exclusive end (ReportPeriod.to).
 */
export function reportFileName(name: string, fallback: string, period: { from: string; to: string }, ext: string): string {
  const base = name.normalize('NFC').replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || fallback
  return `${base}_${period.from}_${lastDay(period.to)}.${ext}`
}

/**
 * The last day a report period covers, 'YYYY-MM-DD': the day before its end `to` (a period runs from
 * `from` up to, not including, `to`). What people read as "to" in a file name, subject or mail.
 */
export function lastDay(to: string): string {
  const last = new Date(`${to}T00:00:00Z`)
  last.setUTCDate(last.getUTCDate() - 1)
  return last.toISOString().slice(0, 10)
}

/**
 * Write `files` into report output directory `dir` of installation `installationId` under `root`
 * (REPORTS_DIR): `<root>/<installationId>/<dir>/<filename>`, creating the folders. Safety (an admin must
 * not write anywhere else on the server): `dir` is checked again (values stored before the check existed),
 * every folder on the way is created or must be a real folder, never a symbolic link, the resolved folder
 * must lie inside the resolved root, and each file is written to a new temporary name opened with
 * O_EXCL|O_NOFOLLOW and renamed over the target (a rename replaces a link, it does not follow it), so a
 * re-run replaces the file whole. Returns the paths written, relative to the installation's folder.
 * Throws 400 {output_directory} for an unsafe directory, a link on the way or a folder where a file
 * goes; other file-system errors (EACCES, ENOSPC) as they are.
 */
export async function writeReportFiles(root: string, installationId: number, dir: string, files: readonly { filename: string; content: Buffer }[]): Promise<string[]> {
  checkOutputDirectory(dir)
  await fs.mkdir(root, { recursive: true })
  const realRoot = await fs.realpath(root)
  let at = realRoot
  for (const segment of [String(installationId), ...dir.split('/')]) {
    at = path.join(at, segment)
    try {
      await fs.mkdir(at, { mode: 0o750 })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    const st = await fs.lstat(at)
    if (st.isSymbolicLink() || !st.isDirectory()) throw unsafe()
  }
  const real = await fs.realpath(at)
  if (real !== at || !real.startsWith(realRoot + path.sep)) throw unsafe()
  const written: string[] = []
  for (const f of files) {
    const target = path.join(at, f.filename)
    if (path.dirname(target) !== at || f.filename.startsWith('.')) throw unsafe()
    const tmp = path.join(at, `.${crypto.randomBytes(6).toString('hex')}.tmp`)
    const handle = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o640)
    try {
      await handle.writeFile(f.content)
    } finally {
      await handle.close()
    }
    try {
      await fs.rename(tmp, target)
    } catch (err) {
      await fs.rm(tmp, { force: true })
      // A folder where the file should go was made by the admin's own folder names: their input, a 400.
      if (['EISDIR', 'ENOTDIR', 'ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw unsafe()
      throw err
    }
    written.push(`${dir}/${f.filename}`)
  }
  return written
}
