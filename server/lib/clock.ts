/**
 * The one clock of a Cockpit process (ARCHITECTURE §1 "Time"): every "now" and every timer of the server
 * comes from a Clock made once at start (`buildApp`) and passed to the domain, devices, OCPP, jobs, relay
 * and demo seed. Nothing else reads the wall clock for "now" (server/lib/clock-guard.test.ts fails on a
 * new read). Durations that only measure how long something took (a log line's `ms`) use
 * `performance.now()`, which is monotonic and says nothing about the time of day.
 *
 * - {@link createClock}: the process clock. `start` (CLOCK_START) sets the instant the process starts at,
 *   `speed` (CLOCK_SPEED) how many clock seconds pass per real second; timers wait `ms / speed` real ms.
 * - {@link createTestClock}: a clock that only moves when a test says so (`advance`, `set`); its timers
 *   fire during `advance`, in due order, each at its due time.
 */
export interface Clock {
  /** The current instant. */
  now(): Date
  /** The current instant in ms since the epoch (`now().getTime()`). */
  ms(): number
  /** Clock seconds per real second (1 = real time). */
  readonly speed: number
  /** Run `fn` once after `ms` clock milliseconds. */
  setTimeout(fn: () => void, ms: number): ClockTimer
  /** Run `fn` every `ms` clock milliseconds. */
  setInterval(fn: () => void, ms: number): ClockTimer
  /** Cancel a timer of this clock (undefined is ignored). */
  clearTimeout(timer: ClockTimer | undefined): void
  /** Same as clearTimeout, for intervals. */
  clearInterval(timer: ClockTimer | undefined): void
  /** Resolve after `ms` clock milliseconds. */
  sleep(ms: number): Promise<void>
}

/** A timer handle: `unref()` lets the process exit while it is pending, as Node's timers do. */
export interface ClockTimer {
  unref(): ClockTimer
  ref(): ClockTimer
  hasRef(): boolean
}

/** Largest delay Node's timers take (2^31 − 1 ms); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * The process clock. Without `start` it is the wall clock (at `speed`, counted from the process start);
 * with `start` it begins at that instant. `wall` is the only wall-clock read of the server.
 *
 * @param start the instant the clock shows at creation (CLOCK_START), default the wall clock's
 * @param speed clock ms per real ms (CLOCK_SPEED), > 0, default 1
 * @throws RangeError for a speed that is not a positive finite number
 */
export function createClock({ start, speed = 1, wall = () => Date.now() }: { start?: Date; speed?: number; wall?: () => number } = {}): Clock {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`clock speed must be a positive number, got ${speed}`)
  const realStart = wall()
  const clockStart = start ? start.getTime() : realStart
  const ms = () => (speed === 1 && !start ? wall() : clockStart + (wall() - realStart) * speed)
  const real = (clockMs: number) => Math.min(MAX_TIMER_MS, Math.max(0, clockMs / speed))
  return {
    now: () => new Date(ms()),
    ms,
    speed,
    setTimeout: (fn, delay) => setTimeout(fn, real(delay)),
    setInterval: (fn, delay) => setInterval(fn, Math.max(1, real(delay))),
    clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout | undefined),
    clearInterval: (t) => clearInterval(t as NodeJS.Timeout | undefined),
    sleep: (delay) => new Promise((resolve) => setTimeout(resolve, real(delay))),
  }
}

/** A clock for tests: it stands still until `advance` or `set` moves it. */
export interface TestClock extends Clock {
  /**
   * Move the clock forward by `ms`, firing every timer that falls due on the way at its due time, in
   * order; after each, pending promise callbacks and I/O get a turn so async work a timer started runs on.
   */
  advance(ms: number): Promise<void>
  /** Jump to `to` (forward: as advance; backward: timers keep their due times). */
  set(to: Date | string): Promise<void>
  /** How many timers are pending. */
  pending(): number
}

interface PendingTimer extends ClockTimer {
  id: number
  due: number
  every?: number
  fn: () => void
}

/**
 * A clock that starts at `start` and moves only by {@link TestClock.advance} or {@link TestClock.set}.
 * Use it where a test would otherwise sleep for a timer: the test advances fake time instead.
 */
export function createTestClock(start: Date | string): TestClock {
  let current = new Date(start).getTime()
  if (Number.isNaN(current)) throw new RangeError(`not a date: ${String(start)}`)
  let nextId = 0
  const timers = new Map<number, PendingTimer>()
  const add = (fn: () => void, delay: number, every?: number): PendingTimer => {
    const t: PendingTimer = {
      id: ++nextId, due: current + Math.max(0, delay), every, fn,
      unref: () => t, ref: () => t, hasRef: () => true,
    }
    timers.set(t.id, t)
    return t
  }
  const clear = (t: ClockTimer | undefined) => { if (t) timers.delete((t as PendingTimer).id) }
  // A macrotask turn: promise chains and the I/O a timer started (a database query) progress.
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve))
  async function advanceTo(target: number): Promise<void> {
    for (;;) {
      let next: PendingTimer | undefined
      for (const t of timers.values()) if (t.due <= target && (!next || t.due < next.due || (t.due === next.due && t.id < next.id))) next = t
      if (!next) break
      current = Math.max(current, next.due)
      if (next.every !== undefined) next.due += Math.max(1, next.every)
      else timers.delete(next.id)
      next.fn()
      await turn()
    }
    current = Math.max(current, target)
    await turn()
  }
  const clock: TestClock = {
    now: () => new Date(current),
    ms: () => current,
    speed: 1,
    setTimeout: (fn, delay) => add(fn, delay),
    setInterval: (fn, delay) => add(fn, Math.max(1, delay), delay),
    clearTimeout: clear,
    clearInterval: clear,
    sleep: (delay) => new Promise((resolve) => { add(resolve, delay) }),
    advance: (delay) => advanceTo(current + delay),
    async set(to) {
      const target = new Date(to).getTime()
      if (Number.isNaN(target)) throw new RangeError(`not a date: ${String(to)}`)
      if (target >= current) return advanceTo(target)
      current = target
    },
    pending: () => timers.size,
  }
  return clock
}
