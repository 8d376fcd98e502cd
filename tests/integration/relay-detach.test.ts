import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import net from 'node:net'
import type { FastifyInstance } from 'fastify'
import { login, startApp, until } from './helpers.ts'

/**
 * Live streams hold only their socket (≤ 16 KiB per idle subscriber): node:http's parser,
 * request and response are released once the stream is open (server/relay/detach.ts relies on node
 * internals, so this runs on the Node in use), and the relay still sees every way a client goes away.
 */
let app: FastifyInstance
let url: string
let token: string
const serverSockets: net.Socket[] = []

beforeAll(async () => {
  ;({ app, url } = await startApp())
  app.server.on('connection', (s: net.Socket) => serverSockets.push(s))
  token = await login(app, 'admin@example.com')
})
afterAll(async () => app?.close())

/** A raw client: sends the stream request, collects what arrives. */
function rawStream() {
  const port = Number(new URL(url).port)
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true })
  let text = ''
  socket.on('data', (b) => (text += b))
  const closed = new Promise<void>((r) => socket.once('close', () => r()))
  const ended = new Promise<void>((r) => socket.once('end', () => r()))
  socket.write(`GET /live/installations/1?topics=metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`)
  return { socket, text: () => text, closed, ended }
}

const subscribers = () => app.relay!.hub.stats.subscribers

describe('live stream sockets', () => {
  it('keep no HTTP parser, request or response once the stream is open, and keep streaming', async () => {
    const c = rawStream()
    await until(() => c.text().includes('event: snapshot'), 5000, 'a snapshot')
    const server = serverSockets.find((s) => s.remotePort === c.socket.localPort) as net.Socket & { parser?: unknown; _httpMessage?: unknown }
    await until(() => server.parser === null, 2000, 'the parser to be released')
    expect(server._httpMessage).toBeNull()
    expect(server.listeners('data').map((fn) => fn.name)).not.toContain('bound socketOnData')
    expect(c.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(c.text()).toMatch(/content-type: text\/event-stream/i)
    expect(c.text()).not.toMatch(/transfer-encoding/i)
    const length = c.text().length
    await app.simulator!.tick(new Date(app.clock.ms() + 5000))
    await until(() => c.text().length > length && /event: (merge|patch|snapshot)/.test(c.text().slice(length)), 5000, 'updates after the detach')
    c.socket.destroy()
  })

  it('notice a client that resets the connection', async () => {
    await until(() => subscribers() === 0, 5000, 'no other streams')
    const n = 0
    const c = rawStream()
    await until(() => subscribers() === n + 1, 5000, 'the stream to subscribe')
    await new Promise((r) => setTimeout(r, 50))
    c.socket.resetAndDestroy()
    await until(() => subscribers() === n, 5000, 'the subscriber to go')
  })

  it('answer a client that half-closes with a close, and let it go', async () => {
    await until(() => subscribers() === 0, 5000, 'no other streams')
    const n = 0
    const c = rawStream()
    await until(() => subscribers() === n + 1, 5000, 'the stream to subscribe')
    await new Promise((r) => setTimeout(r, 50))
    c.socket.end()
    await c.ended
    await until(() => subscribers() === n, 5000, 'the subscriber to go')
    c.socket.destroy()
  })
})
