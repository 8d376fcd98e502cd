/**
 * Live stream figures on the demo facility: time from asking for a ticket to the first live event, and
 * snapshot and patch sizes per topic (bytes on the wire, one admin subscriber), over BENCH_SECONDS
 * (default 40) with the production intervals. Run: `npm run bench`.
 */
import type { AddressInfo } from 'node:net'
import { buildApp, startBackground } from '../server/app.ts'
import { loadConfig } from '../config/env.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 40)
const config = { ...loadConfig({ DEMO: 'on', LOG_LEVEL: 'silent' }), memoryDb: true, port: 0, host: '127.0.0.1' }
const app = await buildApp(config)
await app.listen({ port: 0, host: '127.0.0.1' })
await startBackground(app)
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`

const login = await (await fetch(`${base}/api/authentication/token/`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: config.demoPassword }),
})).json() as { access: string }

const t0 = performance.now()
const { ticket } = await (await fetch(`${base}/live/tickets`, {
  method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access}` }, body: JSON.stringify({ installation_id: 1 }),
})).json() as { ticket: string }
const res = await fetch(`${base}/live/installations/1?ticket=${ticket}`)
const reader = res.body!.getReader()
const sizes: Record<string, { snapshot: number[]; patch: number[] }> = {}
let firstEventMs = 0
let buffer = ''
const end = Date.now() + seconds * 1000
while (Date.now() < end) {
  const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), end - Date.now()))])
  if (!chunk || chunk.done) break
  buffer += new TextDecoder().decode(chunk.value)
  let i
  while ((i = buffer.indexOf('\n\n')) >= 0) {
    const frame = buffer.slice(0, i + 2)
    buffer = buffer.slice(i + 2)
    const type = /^event: (\w+)$/m.exec(frame)?.[1]
    if (type !== 'snapshot' && type !== 'patch' && type !== 'merge') continue
    if (!firstEventMs) firstEventMs = performance.now() - t0
    const topic = JSON.parse(/^data: (.*)$/m.exec(frame)![1]).topic as string
    ;(sizes[topic] ??= { snapshot: [], patch: [] })[type === 'snapshot' ? 'snapshot' : 'patch'].push(Buffer.byteLength(frame))
  }
}
await reader.cancel()

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : 0)
console.log(`time to first live event (ticket request → first snapshot): ${firstEventMs.toFixed(0)} ms`)
console.log(`window: ${seconds} s, one admin subscriber, production intervals\n`)
console.log('topic          snapshot B  updates  median update B  max update B  median update / snapshot   (updates: RFC 7396 merge or RFC 6902 patch frames)')
for (const [topic, s] of Object.entries(sizes)) {
  const snap = s.snapshot[0] ?? 0
  const med = median(s.patch)
  console.log(
    `${topic.padEnd(14)} ${String(snap).padStart(10)}  ${String(s.patch.length).padStart(7)}  ${String(med).padStart(15)}  ${String(Math.max(0, ...s.patch)).padStart(12)}  ${snap && med ? ((med / snap) * 100).toFixed(1) + ' %' : '–'}`,
  )
}
await app.close()
