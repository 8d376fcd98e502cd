import { spawn } from 'node:child_process'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import readline from 'node:readline'

/**
 * `npm test`: every check of the project, as jobs that a few runners take from one queue, so the cores
 * stay busy until the end (docs/performance.md "Test suite time", docs/decisions.md "CI: a job queue"):
 * - `check`: type-check and locale check (`npm run check`);
 * - `build`, then `e2e`: the client build, then the browser tests (Playwright, which need the build);
 * - `pglite 1/2`, `pglite 2/2`: the unit and integration tests on PGlite, in two shards (Vitest
 *   `--shard`, one test file at a time each);
 * - `postgres 1/2`, `postgres 2/2`: the integration tests on a throwaway Postgres cluster each
 *   (`npm run test:pg`), in two shards.
 * Runners: TEST_RUNNERS, else the machine's cores (at least 2, at most 4). Each job mostly keeps one core
 * busy; the queue is in order of expected length, longest chain first, so no runner is left with a long
 * job at the end. Each line a job prints is shown as it comes, prefixed with the job's name. A failed job
 * fails the run: no runner starts another job after it (the running ones finish, so their output is
 * complete). Exit code: 0 when every job passed, else 1.
 */
interface Job { name: string; command: string; args: string[]; after?: string }

const SHARDS = 2
const shards = (name: string, script: string): Job[] =>
  Array.from({ length: SHARDS }, (_, i) => ({ name: `${name} ${i + 1}/${SHARDS}`, command: 'npm', args: ['run', '--silent', script, '--', `--shard=${i + 1}/${SHARDS}`] }))

const queue: Job[] = [
  { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] },
  { name: 'check', command: 'npm', args: ['run', '--silent', 'check'] },
  { name: 'e2e', command: 'npx', args: ['playwright', 'test', '--config', 'config/playwright.config.ts'], after: 'build' },
  ...shards('pglite', 'test:unit'),
  ...shards('postgres', 'test:pg'),
]
const runners = Number(process.env.TEST_RUNNERS) || Math.min(4, Math.max(2, os.availableParallelism()))

const width = Math.max(...queue.map((j) => j.name.length))
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`

/** Run `job`, printing its lines prefixed; resolves to whether it exited with 0. */
function run(job: Job): Promise<boolean> {
  const started = performance.now()
  const prefix = `[${job.name.padEnd(width)}]`
  console.log(`${prefix} ▶ ${[job.command, ...job.args].join(' ')}`)
  const child = spawn(job.command, job.args, { stdio: ['ignore', 'pipe', 'pipe'] })
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
const done = new Set<string>()
/** Jobs whose `after` has not passed yet wait in the queue; a runner takes the first job it may start. */
const waiting = [...queue]
let wake: () => void = () => {}
let changed = new Promise<void>((resolve) => (wake = resolve))
async function runner(): Promise<void> {
  while (!failed.length && waiting.length) {
    const i = waiting.findIndex((j) => !j.after || done.has(j.after))
    if (i < 0) {
      await changed
      continue
    }
    const [job] = waiting.splice(i, 1)
    if (await run(job)) done.add(job.name)
    else failed.push(job.name)
    wake()
    changed = new Promise<void>((resolve) => (wake = resolve))
  }
}
await Promise.all(Array.from({ length: runners }, runner))
if (failed.length) {
  console.log(`✗ ${failed.join(', ')} failed; the run stops after ${seconds(started)}`)
  process.exit(1)
}
console.log(`✓ all checks passed in ${seconds(started)}`)
