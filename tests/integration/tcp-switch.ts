import net from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A TCP relay on a free port of 127.0.0.1 to `targetPort` that a test switches off and on: while off,
 * every connection (new or open) is cut, as when a facility's uplink goes down.
 */
export async function startTcpSwitch(targetPort: number) {
  let on = true
  const open = new Set<net.Socket>()
  const server = net.createServer((client) => {
    if (!on) return client.destroy()
    const upstream = net.connect(targetPort, '127.0.0.1')
    open.add(client)
    open.add(upstream)
    client.pipe(upstream).pipe(client)
    const close = () => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on('error', close).on('close', close)
    upstream.on('error', close).on('close', close)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    off() {
      on = false
      for (const s of open) s.destroy()
      open.clear()
    },
    on() {
      on = true
    },
    async close() {
      this.off()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
