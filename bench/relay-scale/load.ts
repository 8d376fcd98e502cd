/**
 * Subscriber load for the relay-scale benchmark (a child process of run.ts): holds `count` SSE streams
 * GET /live/installations/1?topics=… on 127.0.0.1 with `Authorization: Bearer sub-<k>`, each on its own
 * TCP connection read as raw text (like a browser's EventSource, the client costs little: node:http's
 * client stream machinery cost ~20 µs per frame and per stream, CPU the relay shares on this machine).
 * The status line must be 200; chunked transfer framing (the naive design's plugin) is skipped. Frames
 * are parsed minimally: split on a blank line, read `event:` and the first `data:` line, and for
 * metrics and stations find `generated_at` to time the upstream change.
 *
 * IPC in:  init {port, from, count, topics, batch, connectTimeoutMs} → connects in batches (each batch
 *          waits for all its snapshots), then {type:'connected', ready, failed}
 *          measure {t0, t1}: count traffic received in [t0, t1] and latency of updates generated in it
 *          report → LoadReport;  close → end every stream and exit.
 */
import net from 'node:net'
import { exitWithParent, nowMs, type LoadReport } from './common.ts'

if (!process.send) {
  console.error('load.ts is started by bench/relay-scale/run.ts')
  process.exit(2)
}
exitWithParent()
const send = (m: object) => process.send!(m)

interface Sub {
  k: number
  probe: boolean
  buf: string
  /** Topics whose first snapshot arrived. */
  seen: Set<string>
  ready: boolean
  /** Opens so far (first connect and reconnects); gave up after MAX_ATTEMPTS. */
  attempts: number
  gaveUp: boolean
  socket?: net.Socket
  /** Response head not complete yet (raw text before the blank line). */
  head: string | null
}

const subs: Sub[] = []
let topics: string[] = []
let measuring = false
let t0 = 0
let t1 = 0
let closedInWindow = 0
let heartbeats = 0
/** Streams that ended (closed by the relay, refused or broken) before or after all their snapshots arrived. */
let closedEarly = 0
let closedAfterReady = 0
let reconnects = 0
let lastError = ''
let traffic: LoadReport['traffic'] = {}
let latency: LoadReport['latency'] = {}
const probe: LoadReport['probe'] = { snapshot: {}, updates: {} }

/** Bytes of the benchmark's own `generated_at` field in a frame (to show the instrumentation share). */
function instrumentBytes(data: string, gi: number): number {
  // Patch op {"op":"replace","path":"/generated_at","value":…} or the property "generated_at":… in a snapshot or merge patch.
  const opStart = data.lastIndexOf('{"op"', gi)
  if (opStart >= 0 && gi - opStart < 40) return data.indexOf('}', gi) - opStart + 2
  let end = gi + 14
  while (end < data.length && /[0-9.]/.test(data[end])) end++
  return end - gi + 2
}

function handle(sub: Sub, frame: string, t: number): void {
  const c0 = frame.charCodeAt(0)
  if (c0 === 58 /* ':' comment: heartbeat */) {
    if (measuring) heartbeats++
    return
  }
  const e = frame.indexOf('event: ')
  if (e < 0) return // retry: line
  const eEnd = frame.indexOf('\n', e)
  const event = frame.slice(e + 7, eEnd < 0 ? undefined : eEnd)
  const d = frame.indexOf('data: ')
  if (d < 0) return
  const dEnd = frame.indexOf('\n', d)
  const data = frame.slice(d + 6, dEnd < 0 ? undefined : dEnd)
  let topic: string
  if (data.startsWith('{"topic":"')) topic = data.slice(10, data.indexOf('"', 10))
  else topic = /"topic":"(\w+)"/.exec(data)?.[1] ?? '?'
  const bytes = Buffer.byteLength(frame) + 2
  if (event === 'snapshot' && !sub.ready) {
    if (sub.probe && probe.snapshot[topic] === undefined) probe.snapshot[topic] = bytes
    sub.seen.add(topic)
    if (sub.seen.size === topics.length) {
      sub.ready = true
      onChange()
    }
    return
  }
  if (!measuring || t < t0) return
  const inWindow = t <= t1
  if (inWindow) {
    const key = `${event}:${topic}`
    const tr = (traffic[key] ??= { frames: 0, bytes: 0 })
    tr.frames++
    tr.bytes += bytes
  }
  if (event !== 'patch' && event !== 'merge' && event !== 'snapshot') return
  const gi = topic === 'metrics' || topic === 'stations' ? data.indexOf('generated_at') : -1
  if (sub.probe && inWindow) (probe.updates[topic] ??= []).push({ type: event, bytes, instrument: gi >= 0 ? instrumentBytes(data, gi) : 0 })
  if (gi < 0) return
  let j = gi + 12
  while (j < data.length && j < gi + 24 && (data.charCodeAt(j) < 48 || data.charCodeAt(j) > 57)) j++
  let k = j
  while (k < data.length && ((data.charCodeAt(k) >= 48 && data.charCodeAt(k) <= 57) || data.charCodeAt(k) === 46)) k++
  const gs = data.slice(j, k)
  const g = Number(gs)
  if (!(g >= t0 && g <= t1)) return
  const lkey = `${topic}:${gs}`
  const lat = t - g
  const entry = latency[lkey]
  if (!entry) latency[lkey] = { g, n: 1, max: lat, min: lat }
  else {
    entry.n++
    if (lat > entry.max) entry.max = lat
    if (lat < entry.min) entry.min = lat
  }
}

/** Chunk-size lines of chunked transfer encoding between frames (`\r\n1a3\r\n`), dropped. */
const CHUNK_LINE = /^(?:\r\n)?[0-9a-f]+\r\n/

function onData(sub: Sub, chunk: string): void {
  const t = nowMs()
  const buf = sub.buf ? sub.buf + chunk : chunk
  let start = 0
  let i: number
  while ((i = buf.indexOf('\n\n', start)) >= 0) {
    let f = buf.slice(start, i)
    if (f.charCodeAt(0) === 13 || (f.charCodeAt(0) !== 105 && f.charCodeAt(0) !== 101 && f.charCodeAt(0) !== 58 && f.charCodeAt(0) !== 114)) f = f.replace(CHUNK_LINE, '')
    handle(sub, f, t)
    start = i + 2
  }
  sub.buf = start < buf.length ? buf.slice(start) : ''
}

const RETRY_MS = 3000
/** EventSource retries for ever; the benchmark gives a stream up after this many opens. */
const MAX_ATTEMPTS = 20
let stopping = false
/** Called whenever a stream becomes ready or closes (connectAll waits on it). */
let onChange = () => {}

/** Open (or reopen, like EventSource after `retry:`) one stream. */
function open(port: number, sub: Sub): void {
  sub.attempts++
  sub.ready = false
  sub.seen.clear()
  sub.buf = ''
  sub.head = ''
  const socket = net.connect({ host: '127.0.0.1', port })
  sub.socket = socket
  socket.setEncoding('utf8')
  let ended = false
  const end = (why: string) => {
    if (ended) return
    ended = true
    socket.destroy()
    const wasReady = sub.ready
    sub.ready = false
    if (stopping) return
    if (measuring) closedInWindow++
    if (wasReady) closedAfterReady++
    else closedEarly++
    if (!lastError) lastError = why
    if (sub.attempts < MAX_ATTEMPTS) {
      reconnects++
      setTimeout(() => !stopping && open(port, sub), RETRY_MS)
    } else sub.gaveUp = true
    onChange()
  }
  socket.on('connect', () => {
    socket.write(`GET /live/installations/1?topics=${topics.join(',')} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer sub-${sub.k}\r\nAccept: text/event-stream\r\n\r\n`)
  })
  socket.on('data', (chunk: string) => {
    if (sub.head === null) return onData(sub, chunk)
    sub.head += chunk
    const h = sub.head.indexOf('\r\n\r\n')
    if (h < 0) return
    const status = /^HTTP\/1\.1 (\d+)/.exec(sub.head)?.[1]
    const rest = sub.head.slice(h + 4)
    sub.head = null
    if (status !== '200') return end(`HTTP ${status}`)
    if (rest) onData(sub, rest)
  })
  socket.on('close', () => end(sub.ready ? 'closed by the relay' : 'closed by the relay before all snapshots'))
  socket.on('error', (err) => end(err.message))
}

/** Resolve when `done()` holds (checked on every stream change) or after `ms`. */
function until(done: () => boolean, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer)
      onChange = () => {}
      resolve()
    }
    const timer = setTimeout(finish, ms)
    onChange = () => done() && finish()
    if (done()) finish()
  })
}

async function connectAll(port: number, from: number, count: number, batch: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let lastProgress = Date.now()
  for (let b = 0; b < count && Date.now() < deadline; b += batch) {
    const n = Math.min(batch, count - b)
    const mine: Sub[] = []
    for (let i = 0; i < n; i++) {
      const sub: Sub = { k: from + b + i, probe: b + i === 0, buf: '', head: '', seen: new Set(), ready: false, attempts: 0, gaveUp: false }
      subs.push(sub)
      mine.push(sub)
      open(port, sub)
    }
    await until(() => mine.every((s) => s.ready || s.gaveUp), Math.max(1000, Math.min(30_000, deadline - Date.now())))
    if (Date.now() - lastProgress > 2000) {
      lastProgress = Date.now()
      send({ type: 'progress', ready: subs.filter((s) => s.ready).length })
    }
  }
  // Streams the relay closed meanwhile reconnect after RETRY_MS: wait for them too.
  await until(() => subs.every((s) => s.ready || s.gaveUp), Math.max(0, deadline - Date.now()))
}

process.on('message', (m: { type: string; [k: string]: unknown }) => {
  switch (m.type) {
    case 'init': {
      topics = m.topics as string[]
      const started = Date.now()
      void connectAll(m.port as number, m.from as number, m.count as number, m.batch as number, m.connectTimeoutMs as number).then(() => {
        send({ type: 'connected', ready: subs.filter((s) => s.ready).length, failed: subs.filter((s) => !s.ready).length, closedEarly, closedAfterReady, reconnects, lastError, ms: Date.now() - started })
        closedEarly = closedAfterReady = reconnects = 0
        lastError = ''
      })
      break
    }
    case 'measure':
      t0 = m.t0 as number
      t1 = m.t1 as number
      traffic = {}
      latency = {}
      probe.updates = {}
      closedInWindow = 0
      heartbeats = 0
      measuring = true
      break
    case 'report': {
      const report: LoadReport = {
        type: 'report', ready: subs.filter((s) => s.ready).length, failed: subs.filter((s) => !s.ready).length, closedInWindow, reconnects, lastError, traffic, probe, latency, heartbeats,
      }
      send(report)
      break
    }
    case 'close':
      measuring = false
      stopping = true
      for (const s of subs) s.socket?.destroy()
      setTimeout(() => process.exit(0), 200)
      break
  }
})
send({ type: 'ready' })
