import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import readline from 'node:readline'

/**
 * `npm test`: every check of the project in stages; the jobs of one stage run at the same time
 * (docs/performance.md "Test suite time"):
 * 1. type-check and locale check (`npm run check`) beside the client build (`npm run build`): both
 *    mostly use one core, so side by side on 2 cores they take 36 s instead of 46 s;
 * 2. unit and integration tests on PGlite (Vitest, one test file at a time);
 * 3. the integration tests on a throwaway Postgres cluster (`npm run test:pg`). Run beside stage 2
 *    they were not faster (2 of 2 measurements) and starve the timing-sensitive tests;
 * 4. the browser tests (Playwright), which need the build.
 * Each line a job prints is shown as it comes, prefixed with the job's name. A failed job fails the
 * run once its stage has ended (the other jobs of the stage finish, so their output is complete), and
 * the later stages are not started. Exit code: 0 when every job passed, else 1.
 */
interface Job { name: string; command: string; args: string[]; env?: Record<string, string> }

const stages: Job[][] = [
  [
    { name: 'check', command: 'npm', args: ['run', '--silent', 'check'] },
    { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] },
  ],
  [{ name: 'pglite', command: 'npm', args: ['run', '--silent', 'test:unit'] }],
  [{ name: 'postgres', command: 'npm', args: ['run', '--silent', 'test:pg'] }],
  [{ name: 'e2e', command: 'npx', args: ['playwright', 'test', '--config', 'config/playwright.config.ts'] }],
]

const width = Math.max(...stages.flat().map((j) => j.name.length))
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
for (const stage of stages) {
  const results = await Promise.all(stage.map(run))
  const failed = stage.filter((_, i) => !results[i]).map((j) => j.name)
  if (failed.length) {
    console.log(`✗ ${failed.join(', ')} failed; the run stops after ${seconds(started)}`)
    process.exit(1)
  }
}
console.log(`✓ all checks passed in ${seconds(started)}`)
