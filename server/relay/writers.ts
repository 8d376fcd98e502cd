import { fork, type ChildProcess } from 'node:child_process'
import type { Socket } from 'node:net'
import type { LiveOut } from './hub.ts'

/** What a writer process needs to know (passed in its environment). */
export interface WriterSettings {
  maxBufferedBytes: number
  maxBlockedMs: number
  endGraceMs: number
  sweepMs: number
}

/** One step of a writer's work, in stream order: write bytes, end (with a last chunk), or destroy the streams `ids`. */
export interface WriterOp {
  k: 'w' | 'end' | 'destroy'
  /** Bytes to write (`w`), or the last chunk (`end`, optional). */
  b?: Buffer
  ids: number[]
}

interface Writer {
  proc: ChildProcess
  streams: number
  ops: WriterOp[]
  outs: Set<RemoteOut>
  /** Sockets sent but not yet confirmed sent: this process still holds them. */
  sending: Map<number, Socket>
}

/**
 * A stream whose socket lives in a writer process. Writes are queued for the writer and sent once per
 * tick, so a hub flush to thousands of subscribers becomes one message per writer. Back-pressure is
 * the writer's business (it drops slow sockets and reports them), so `write` always accepts.
 */
export class RemoteOut implements LiveOut {
  destroyed = false
  writableEnded = false
  readonly writableLength = 0
  readonly id: number
  private readonly queue: (op: WriterOp) => void
  private closeHandlers: (() => void)[] = []
  constructor(id: number, queue: (op: WriterOp) => void) {
    this.id = id
    this.queue = queue
  }

  write(chunk: Buffer | string): boolean {
    if (this.destroyed || this.writableEnded) return false
    this.queue({ k: 'w', b: typeof chunk === 'string' ? Buffer.from(chunk) : chunk, ids: [this.id] })
    return true
  }
  end(chunk?: string): void {
    if (this.destroyed || this.writableEnded) return
    this.writableEnded = true
    this.queue({ k: 'end', b: chunk ? Buffer.from(chunk) : undefined, ids: [this.id] })
  }
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.queue({ k: 'destroy', ids: [this.id] })
  }
  once(): this {
    return this // never blocked: 'drain' is not emitted here
  }
  onClose(fn: () => void): void {
    this.closeHandlers.push(fn)
  }
  /** The writer reported the socket closed (or the writer went away). */
  closed(): void {
    this.destroyed = true
    const handlers = this.closeHandlers
    this.closeHandlers = []
    for (const fn of handlers) fn()
  }
}

/**
 * Writer processes for the relay's fan-out (`RELAY_WRITERS`, issue 6): a stream's socket is handed to the
 * least busy writer right after the request was accepted; the relay keeps the subscriber (profile,
 * topics, ring, rights) and sends each writer, once per tick, the shared frames with the stream ids to
 * write them to. One process polls and serializes; all cores write. A writer that dies takes its
 * streams with it (clients reconnect and resume) and is replaced.
 */
export function createWriters({ count, settings, onDropped }: { count: number; settings: WriterSettings; onDropped: () => void }) {
  const writers: Writer[] = []
  const byId = new Map<number, { writer: Writer; out: RemoteOut }>()
  let nextId = 0
  let scheduled = false
  let closing = false

  function spawn(): Writer {
    const proc = fork(new URL('./writer-process.ts', import.meta.url).pathname, [], {
      serialization: 'advanced',
      env: { ...process.env, COCKPIT_WRITER_SETTINGS: JSON.stringify(settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    const w: Writer = { proc, streams: 0, ops: [], outs: new Set(), sending: new Map() }
    proc.on('message', (m: { t: string; id?: number; dropped?: boolean }) => {
      if (m.t !== 'closed' || m.id === undefined) return
      const entry = byId.get(m.id)
      if (!entry) return
      byId.delete(m.id)
      entry.writer.streams--
      entry.writer.outs.delete(entry.out)
      if (m.dropped) onDropped()
      entry.out.closed()
    })
    proc.on('exit', () => {
      const i = writers.indexOf(w)
      if (i >= 0) writers.splice(i, 1)
      // Sockets that never reached it are still this process's: close them.
      for (const socket of w.sending.values()) socket.destroy()
      w.sending.clear()
      for (const out of w.outs) {
        byId.delete(out.id)
        out.closed()
      }
      w.outs.clear()
      if (!closing) writers.push(spawn())
    })
    return w
  }
  for (let i = 0; i < count; i++) writers.push(spawn())

  function flush(): void {
    scheduled = false
    for (const w of writers) {
      if (!w.ops.length || !w.proc.connected) continue
      const ops = w.ops
      w.ops = []
      w.proc.send({ t: 'ops', ops })
    }
  }

  function queue(w: Writer, op: WriterOp): void {
    // Consecutive writes of the same bytes (a hub flush to one profile) become one op with many ids.
    const last = w.ops.at(-1)
    if (last && last.k === op.k && last.b === op.b) last.ids.push(...op.ids)
    else w.ops.push(op)
    if (!scheduled) {
      scheduled = true
      process.nextTick(flush)
    }
  }

  return {
    /**
     * Hand a stream's socket to a writer, which writes `head` (the HTTP response head) first. The relay
     * process lets go of the socket once it is sent. Returns the stream's LiveOut for the hub.
     */
    adopt(socket: Socket, head: string): RemoteOut {
      const id = ++nextId
      const live = writers.filter((x) => x.proc.connected)
      if (closing || !live.length) {
        // Shutting down (or no writer left): the client retries and reaches another relay.
        const out = new RemoteOut(id, () => {})
        socket.end(head + 'retry: 1000\n\n')
        setTimeout(() => socket.destroy(), 100).unref()
        queueMicrotask(() => out.closed())
        return out
      }
      const w = live.reduce((a, b) => (b.streams < a.streams ? b : a))
      const out = new RemoteOut(id, (op) => queue(w, op))
      byId.set(id, { writer: w, out })
      w.outs.add(out)
      w.streams++
      // Frames queued for this stream go out after the adopt message (one ordered channel).
      flush()
      // Node tracks sockets sent to a child for `server.close()` when `socket.server` is set, and then
      // waits for that child forever once it has exited (zero workers never report). The connection is
      // the writer's now: this process counts it until the socket object is destroyed below.
      ;(socket as unknown as { server: unknown }).server = null
      w.sending.set(id, socket)
      w.proc.send({ t: 'adopt', id, head }, socket, {}, (err) => {
        w.sending.delete(id)
        // The handle went to the writer; release this process's socket object (and the HTTP server's
        // request state with it) without touching the connection.
        socket.destroy()
        if (err) {
          byId.delete(id)
          w.outs.delete(out)
          w.streams--
          out.closed()
        }
      })
      return out
    },
    /** Streams per writer, and the writers' process ids (for metrics, tests and the benchmark). */
    streams: () => writers.map((w) => w.streams),
    pids: () => writers.map((w) => w.proc.pid!),
    /** Let the writers end their streams and exit (after the hub ended them). */
    close(): Promise<void> {
      closing = true
      flush()
      return Promise.all(
        writers.map((w) => new Promise<void>((resolve) => {
          if (w.proc.exitCode !== null || !w.proc.connected) return resolve()
          w.proc.once('exit', () => resolve())
          w.proc.send({ t: 'exit' })
        })),
      ).then(() => undefined)
    },
  }
}
export type Writers = ReturnType<typeof createWriters>
