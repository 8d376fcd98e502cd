/**
 * The naive design for comparison (a child process of run.ts): `clients` browser-like clients, each
 * polling the stub's five topic paths itself at the same intervals as the relay (fixed rate, random
 * phase), over keep-alive node:http. Counts requests, body bytes and errors.
 *
 * IPC in:  init {port, from, clients, intervals, topics} → starts polling, replies {type:'started'}
 *          report → {type:'report', requests, bytes, errors, late};  close → stop and exit.
 */
import http from 'node:http'
import { topicPath, type Topic } from '../../shared/live.ts'
import { exitWithParent } from './common.ts'

if (!process.send) {
  console.error('poll.ts is started by bench/relay-scale/run.ts')
  process.exit(2)
}
exitWithParent()

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
/** The pending timer of each (client, topic) loop. */
const loops: { timer?: NodeJS.Timeout }[] = []
let stopped = false
let requests = 0
let bytes = 0
let errors = 0
/** Polls skipped because the previous one of the same client and topic had not answered yet. */
let late = 0

function get(port: number, path: string, k: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: `/api${path}`, agent, headers: { authorization: `Bearer sub-${k}`, accept: 'application/json' } }, (res) => {
      res.on('data', (c: Buffer) => (bytes += c.length))
      res.on('end', () => {
        requests++
        if (res.statusCode !== 200) errors++
        resolve()
      })
      res.on('error', () => {
        errors++
        resolve()
      })
    })
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')))
    req.on('error', () => {
      errors++
      resolve()
    })
  })
}

function startClient(port: number, k: number, intervals: Record<Topic, number>, topics: Topic[]): void {
  for (const topic of topics) {
    const every = intervals[topic]
    const first = Date.now() + Math.random() * every
    let n = 0
    let busy = false
    const loop: { timer?: NodeJS.Timeout } = {}
    loops.push(loop)
    const tick = () => {
      if (stopped) return
      if (busy) late++
      else {
        busy = true
        void get(port, topicPath(topic, 1, new Date()), k).then(() => (busy = false))
      }
      n++
      loop.timer = setTimeout(tick, Math.max(0, first + n * every - Date.now()))
    }
    loop.timer = setTimeout(tick, first - Date.now())
  }
}

process.on('message', (m: { type: string; [k: string]: unknown }) => {
  if (m.type === 'init') {
    for (let i = 0; i < (m.clients as number); i++) startClient(m.port as number, (m.from as number) + i, m.intervals as Record<Topic, number>, m.topics as Topic[])
    process.send!({ type: 'started' })
  } else if (m.type === 'report') {
    process.send!({ type: 'report', requests, bytes, errors, late })
  } else if (m.type === 'close') {
    stopped = true
    for (const l of loops) clearTimeout(l.timer)
    agent.destroy()
    setTimeout(() => process.exit(0), 100)
  }
})
process.send({ type: 'ready' })
