/**
 * Helpers shared by the relay-scale benchmark's processes (run.ts, stub.ts, load.ts, poll.ts): the topic
 * table with benchmark and production intervals, IPC message shapes, /proc readers and statistics.
 */
import fs from 'node:fs'
import { execFileSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { TOPICS, type Topic } from '../../shared/live.ts'
import { POLL_INTERVALS_MS } from '../../config/defaults.ts'

export { TOPICS, type Topic }

/** Production poll intervals (config/defaults.ts). */
export const PROD_INTERVALS: Record<Topic, number> = { ...POLL_INTERVALS_MS }

/** Benchmark poll intervals: short so a 30 s window holds enough updates of every topic. */
export const DEFAULT_BENCH_INTERVALS: Record<Topic, number> = { metrics: 1000, stations: 1000, sessions: 3000, info: 4000, energy_return: 6000 }

/** Wall-clock time in ms with sub-ms precision, comparable across processes of this machine. */
export const nowMs = (): number => performance.timeOrigin + performance.now()

/** Parse `metrics=1000,stations=1000,…` over the defaults. */
export function parseIntervals(spec: string | undefined): Record<Topic, number> {
  const out = { ...DEFAULT_BENCH_INTERVALS }
  for (const part of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [k, v] = part.split('=')
    if (!(TOPICS as readonly string[]).includes(k) || !(Number(v) >= 500)) throw new Error(`BENCH_INTERVALS_MS: bad entry "${part}" (topic=ms, ms ≥ 500)`)
    out[k as Topic] = Number(v)
  }
  return out
}

/** User id of subscriber `k` when the subscribers are `users` distinct users (0: every subscriber its own user). */
export const userOf = (k: number, users: number) => 1000 + (users > 0 ? k % users : k)

/**
 * The stub's access answer for a user when there are `profiles` permission profiles: 1 → everybody is an
 * installation admin (one shared profile); more → installation users whose station subsets differ by
 * `user_id % profiles` (the relay keys a non-admin profile by user, so distinct users never share bytes).
 */
export function accessFor(userId: number, profiles: number, stationCount: number) {
  if (profiles <= 1) return { user_id: userId, installation_id: 1, role: 'installation_admin', cost: true, overview: true, stations: 'all', rfids: 'all' }
  const p = userId % profiles
  // Every profile sees station 1 (it carries the latency probe) and every `profiles`-th other station.
  const stations = [1, ...Array.from({ length: stationCount }, (_, i) => i + 1).filter((id) => id !== 1 && (id - 1) % profiles === p)]
  return { user_id: userId, installation_id: 1, role: 'installation_user', cost: p % 2 === 0, overview: p % 3 !== 0, stations, rfids: [p + 1] }
}

// ---------------------------------------------------------------------------------------------------
// IPC between run.ts and its children

export interface StubCounters {
  /** Per pathname: requests and response body bytes since the stub started. */
  paths: Record<string, { requests: number; bytes: number }>
}

/** What a load process reports at the end of a measurement window. */
export interface LoadReport {
  type: 'report'
  ready: number
  failed: number
  /** Streams that closed during the window (dropped by the relay or broken); they reconnect after 3 s. */
  closedInWindow: number
  reconnects: number
  lastError: string
  /** Per `event:topic` (e.g. `patch:metrics`): frames and bytes received by all subscribers in the window. */
  traffic: Record<string, { frames: number; bytes: number }>
  /** Frame sizes seen by this process's probe subscriber: first snapshot per topic, and every update in the window. */
  probe: { snapshot: Record<string, number>; updates: Record<string, { type: string; bytes: number; instrument: number }[]> }
  /** Per update (`topic:generated_at`): receive − generated_at over this process's subscribers. */
  latency: Record<string, { g: number; n: number; max: number; min: number }>
  heartbeats: number
}

/** Wait for one IPC message of `type` from `child`, or fail after `timeoutMs`. */
export function waitMessage<T extends { type: string }>(child: ChildProcess, type: string, timeoutMs: number, onOther?: (m: { type: string }) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`timeout waiting for "${type}" from pid ${child.pid}`)), timeoutMs)
    const onMessage = (m: { type: string }) => {
      if (m && m.type === type) done(null, m as T)
      else if (m && m.type === 'error') done(new Error(`pid ${child.pid}: ${(m as unknown as { message: string }).message}`))
      else onOther?.(m)
    }
    const onExit = (code: number | null, signal: string | null) => done(new Error(`pid ${child.pid} exited (${code ?? signal}) while waiting for "${type}"`))
    function done(err: Error | null, m?: T) {
      clearTimeout(timer)
      child.off('message', onMessage)
      child.off('exit', onExit)
      if (err) reject(err)
      else resolve(m!)
    }
    child.on('message', onMessage)
    child.on('exit', onExit)
  })
}

/**
 * For child processes: exit when the parent goes away (IPC channel closed or re-parented), so no
 * process outlives the benchmark even when run.ts is killed with SIGKILL.
 */
export function exitWithParent(): void {
  const parent = process.ppid
  process.on('disconnect', () => process.exit(0))
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0)
  }, 1000).unref()
}

// ---------------------------------------------------------------------------------------------------
// /proc

let clkTck = 0
/** Clock ticks per second for /proc/<pid>/stat times. */
export function clockTicks(): number {
  if (!clkTck) {
    try {
      clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      clkTck = 100
    }
  }
  return clkTck
}

/** CPU seconds (user + system) a process has used; 0 when it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  const t = cpuTimes(pid)
  return t.user + t.system
}

/** User and system CPU seconds of a process from /proc/<pid>/stat. */
export function cpuTimes(pid: number | undefined): { user: number; system: number } {
  if (!pid) return { user: 0, system: 0 }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // After "pid (comm) ": state is field 3, utime 14, stime 15 → indexes 11 and 12 here.
    return { user: Number(f[11]) / clockTicks(), system: Number(f[12]) / clockTicks() }
  } catch {
    return { user: 0, system: 0 }
  }
}

/** VmRSS (or another /proc/<pid>/status field) in KiB; 0 when the process is gone. */
export function statusKiB(pid: number | undefined, field = 'VmRSS'): number {
  if (!pid) return 0
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : 0
  } catch {
    return 0
  }
}

/** Machine-wide busy and total CPU seconds (all cores) from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    const total = line.reduce((a, b) => a + b, 0)
    const idle = line[3] + (line[4] ?? 0)
    return { busy: (total - idle) / clockTicks(), total: total / clockTicks() }
  } catch {
    return { busy: 0, total: 0 }
  }
}

// ---------------------------------------------------------------------------------------------------
// statistics

/** Percentile by nearest rank (p in 0..100); NaN for an empty list. */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
}

export const median = (xs: readonly number[]) => percentile(xs, 50)

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
