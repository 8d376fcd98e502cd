import fs from 'node:fs'
import path from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

/**
 * Where the test workers write a Node diagnostic report when V8 ends them with a fatal error
 * (`--report-on-fatalerror`, config/vitest.config.ts): one directory per run of Vitest.
 */
export const FATAL_REPORT_DIR = path.join(process.cwd(), '.tmp', `vitest-fatal-${process.pid}`)

/**
 * A Vitest reporter that names the test files which started and never finished. When a worker process
 * dies (a native crash, a signal, running out of memory), Vitest reports only "Worker exited unexpectedly"
 * and one file fewer in its count; this says which file was running, so the crash can be reproduced
 * with that file alone (docs/decisions.md "CI: a job queue"). A worker that V8 ended with a fatal error
 * (out of memory, a failed check) leaves a Node diagnostic report in {@link FATAL_REPORT_DIR}; its event,
 * the thread and both stacks are printed too.
 */
export default class UnfinishedFilesReporter implements Reporter {
  private readonly running = new Set<string>()

  onTestModuleStart(module: TestModule): void {
    this.running.add(module.moduleId)
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.moduleId)
  }

  onTestRunEnd(): void {
    if (this.running.size === 0) return
    const files = [...this.running].map((f) => `  ${f.replace(`${process.cwd()}/`, '')}`).join('\n')
    console.error(`\nThese test files started and never finished (their worker ended under them):\n${files}\n`)
    for (const name of fs.existsSync(FATAL_REPORT_DIR) ? fs.readdirSync(FATAL_REPORT_DIR) : []) {
      try {
        const report = JSON.parse(fs.readFileSync(path.join(FATAL_REPORT_DIR, name), 'utf8'))
        const js = (report.javascriptStack?.stack ?? []).slice(0, 15).join('\n    ')
        const native = (report.nativeStack ?? []).slice(0, 15).map((f: { symbol?: string }) => f.symbol).join('\n    ')
        console.error(`Fatal error report ${name}: ${report.header?.event} (trigger ${report.header?.trigger}, thread ${report.header?.threadId})\n  JavaScript:\n    ${report.javascriptStack?.message ?? ''}\n    ${js}\n  native:\n    ${native}\n`)
      } catch (err) {
        console.error(`Fatal error report ${name} could not be read: ${String(err)}`)
      }
    }
  }
}
