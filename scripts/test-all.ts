import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import readline from 'node:readline'

/**
 * `npm test`: every check of the project, in two lanes that run side by side on the 2 cores; the jobs of
 * a lane run one after the other (docs/performance.md "Test suite time", docs/decisions.md "CI: two
 * lanes"):
 * - lane 1: type-check and locale check (`npm run check`), then the unit and integration tests on PGlite
 *   (Vitest, one test file at a time);
 * - lane 2: the client build (`npm run build`), then the browser tests (Playwright, which need the
 *   build), then the integration tests on a throwaway Postgres cluster (`npm run test:pg`).
 * Each job mostly keeps one core busy, so the lanes together take about as long as the longer one
 * instead of the sum. Each line a job prints is shown as it comes, prefixed with the job's name. A
 * failed job fails the run: no lane starts another job after it (the running ones finish, so their
 * output is complete). Exit code: 0 when every job passed, else 1.
 */
interface Job { name: string; command: string; args: string[]; env?: Record<string, string> }

const lanes: Job[][] = [
  [
    { name: 'check', command: 'npm', args: ['run', '--silent', 'check'] },
    { name: 'pglite', command: 'npm', args: ['run', '--silent', 'test:unit'] },
  ],
  [
    { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] },
    { name: 'e2e', command: 'npx', args: ['playwright', 'test', '--config', 'config/playwright.config.ts'] },
    { name: 'postgres', command: 'npm', args: ['run', '--silent', 'test:pg'] },
  ],
]

const width = Math.max(...lanes.flat().map((j) => j.name.length))
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`

/** Run `job`, printing its lines prefixed; resolves to whether it exited with 0. */
function run(job: Job): Promise<boolean> {
  const started = performance.now()
  const prefix = `[${job.name.padEnd(width)}]`
  console.log(`${prefix} ▶ ${[job.command, ...job.args].join(' ')}`)
  const child = spawn(job.command, job.args, { env: { ...process.env, ...job.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  for (const stream of [child.stdout, child.stderr]) readline.createInterface({ input: stream }).on('line', (line) => console.log(`${prefix} ${line}`))
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.log(`${prefix} ✗ could not start: ${err.message}`)
      resolve(false)
    })
    child.on('close', (code, signal) => {
      const ok = code === 0
      console.log(`${prefix} ${ok ? '✓ passed' : `✗ failed (${signal ?? `exit ${code}`})`} after ${seconds(started)}`)
      resolve(ok)
    })
  })
}

const started = performance.now()
const failed: string[] = []
await Promise.all(lanes.map(async (lane) => {
  for (const job of lane) {
    if (failed.length) return
    if (!(await run(job))) failed.push(job.name)
  }
}))
if (failed.length) {
  console.log(`✗ ${failed.join(', ')} failed; the run stops after ${seconds(started)}`)
  process.exit(1)
}
console.log(`✓ all checks passed in ${seconds(started)}`)
