import { describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Runs `code` in a fresh node (ESM, from the repository root); resolves with how and when it ended. */
function run(code: string) {
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  return new Promise<{ code: number | null; signal: string | null; ms: number }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, ms: performance.now() - t0 })))
}

describe('exit watchdog', () => {
  // The case main.ts's own 10 s timer could not handle: the main thread busy, no timer of it fires.
  it('ends the process at its deadline while the main thread never yields', async () => {
    const r = await run(`
      import { startExitWatchdog } from './server/lib/exit-watchdog.ts'
      startExitWatchdog(500)
      const end = Date.now() + 8000
      while (Date.now() < end);
      process.exit(0)`)
    expect(r.signal).toBe('SIGKILL')
    expect(r.ms).toBeLessThan(4000)
  }, 20_000)

  it('does not keep a process alive that is done', async () => {
    const r = await run(`
      import { startExitWatchdog } from './server/lib/exit-watchdog.ts'
      startExitWatchdog(8000)`)
    expect(r).toMatchObject({ code: 0, signal: null })
    expect(r.ms).toBeLessThan(4000)
  }, 20_000)
})
