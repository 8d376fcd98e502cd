import { Worker } from 'node:worker_threads'

/**
 * The thread's code: at the deadline, SIGKILL the process. A worker cannot end the whole process with an
 * exit code (its process.exit ends the thread), but it can signal it. The deadline is a duration, not a
 * time of day (so not the process clock, ARCHITECTURE §1 "Time"): `performance.timeOrigin +
 * performance.now()` in ms, which both threads count alike though each has its own time origin.
 * Written to run as a script or a module: a worker takes the process's flags, `--input-type=module`
 * among them.
 */
const WATCHDOG = `
const { workerData } = process.getBuiltinModule('node:worker_threads')
setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), Math.max(0, workerData.deadline - (performance.timeOrigin + performance.now())))
`

/**
 * Ends this process (SIGKILL) `ms` from now unless it has exited by then, from a thread of its own.
 * A timer on the main thread cannot do it when that thread is busy: under a statistics load a SIGTERM
 * found it serializing answers back to back, and no timer fires while microtasks keep
 * coming. This thread has its own event loop, so the deadline holds whatever the main thread does.
 * The worker is unref'd: it never keeps the process alive; a normal exit ends it with the process.
 */
export function startExitWatchdog(ms: number): Worker {
  const worker = new Worker(WATCHDOG, { eval: true, workerData: { pid: process.pid, deadline: performance.timeOrigin + performance.now() + ms } })
  // Said where an operator looks: a watchdog that failed to start leaves only main.ts's own timer.
  worker.on('error', (err) => console.error('exit watchdog failed:', err))
  worker.unref()
  return worker
}
