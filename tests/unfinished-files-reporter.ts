import type { Reporter, TestModule } from 'vitest/node'

/**
 * A Vitest reporter that names the test files which started and never finished. When a worker process
 * dies (a native crash, a signal, running out of memory), Vitest reports only "Worker exited unexpectedly"
 * and one file fewer in its count; this says which file was running, so the crash can be reproduced
 * with that file alone (docs/decisions.md "CI: a job queue").
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
  }
}
