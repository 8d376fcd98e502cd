/**
 * A relay writer process (issue 6, `RELAY_WRITERS`): holds the sockets of live streams handed over by
 * the relay process and writes the frames it is told to, so the fan-out runs on every core while one
 * process polls, diffs and serializes. It keeps no state besides the sockets: a slow socket is dropped
 * here (the same byte and time limits as in-process) and reported, and so is every close.
 *
 * Messages from the relay (in order, see writers.ts): `adopt` {id, head} with the socket as handle;
 * `ops` {ops: [{k: 'w', b, ids} | {k: 'end', b?, ids} | {k: 'destroy', ids}]}; `exit`.
 * Messages to the relay: `closed` {id, dropped}.
 */
import type { Socket } from 'node:net'
import type { WriterOp, WriterSettings } from './writers.ts'

const settings = JSON.parse(process.env.COCKPIT_WRITER_SETTINGS ?? '{}') as WriterSettings
const sockets = new Map<number, Socket>()
const blockedSince = new Map<number, number>()
const dropped = new Set<number>()
let exiting = false

const send = (m: unknown) => process.connected && process.send!(m)

function drop(id: number, socket: Socket): void {
  dropped.add(id)
  socket.destroy()
}

function write(id: number, bytes: Buffer): void {
  const socket = sockets.get(id)
  if (!socket || socket.destroyed || socket.writableEnded) return
  if (socket.write(bytes)) return
  if (socket.writableLength > settings.maxBufferedBytes) return drop(id, socket)
  if (!blockedSince.has(id)) {
    blockedSince.set(id, Date.now())
    socket.once('drain', () => blockedSince.delete(id))
  }
}

function end(ids: number[], last?: Buffer): void {
  for (const id of ids) {
    const socket = sockets.get(id)
    if (!socket || socket.destroyed || socket.writableEnded) continue
    if (last) socket.end(last)
    else socket.end()
    setTimeout(() => socket.destroyed || socket.destroy(), settings.endGraceMs).unref()
  }
}

function maybeExit(): void {
  if (exiting && !sockets.size) process.exit(0)
}

process.on('message', (m: { t: string; id?: number; head?: string; ops?: WriterOp[] }, handle?: Socket) => {
  if (m.t === 'adopt' && handle && m.id !== undefined) {
    const id = m.id
    sockets.set(id, handle)
    handle.setNoDelay(true)
    handle.on('error', () => handle.destroy())
    handle.once('close', () => {
      sockets.delete(id)
      blockedSince.delete(id)
      send({ t: 'closed', id, dropped: dropped.delete(id) })
      maybeExit()
    })
    handle.write(m.head!)
  } else if (m.t === 'ops') {
    for (const op of m.ops!) {
      const bytes = op.b ? Buffer.from(op.b.buffer, op.b.byteOffset, op.b.byteLength) : undefined
      if (op.k === 'w') for (const id of op.ids) write(id, bytes!)
      else if (op.k === 'end') end(op.ids, bytes)
      else for (const id of op.ids) sockets.get(id)?.destroy()
    }
  } else if (m.t === 'exit') {
    exiting = true
    end([...sockets.keys()])
    setTimeout(() => process.exit(0), settings.endGraceMs + 500).unref()
    maybeExit()
  }
})

// Blocked sockets are dropped after maxBlockedMs, like the in-process sweep does.
setInterval(() => {
  const t = Date.now()
  for (const [id, since] of blockedSince) {
    const socket = sockets.get(id)
    if (socket && t - since > settings.maxBlockedMs) drop(id, socket)
  }
}, settings.sweepMs).unref()

// The relay process went away: its streams cannot be served any more.
process.on('disconnect', () => process.exit(0))
send({ t: 'ready' })
