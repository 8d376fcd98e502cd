import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { connectChargePoint, PASSWORD, startApp } from './helpers.ts'
import { nginxUsable, startNginx, type ShardProxy } from '../scale-out.ts'

/**
 * The scaled-out set-up as an electrician and an operator meet it: a wallbox connects through
 * deploy/nginx.conf (Debian's nginx, run by the test on 127.0.0.1) to the process with the OCPP role,
 * a plain GET of the OCPP path says what to use instead of showing the web page, metrics are not
 * reachable from outside, and every request reaches the processes with nginx's request id.
 * Without nginx installed this file is skipped with a message, unless CI is set (README "Tests").
 */
const usable = nginxUsable()
if (!usable && process.env.CI) throw new Error('nginx is required in CI (apt-get install nginx-light)')
if (!usable) console.warn('proxy.test.ts skipped: Debian nginx not installed (apt-get install nginx-light)')

const METRICS_TOKEN = 'metrics-token-for-the-proxy-test-0123456789'
let ocppApp: FastifyInstance
let apiApp: FastifyInstance
let apiUrl: string
let proxy: ShardProxy
beforeAll(async () => {
  if (!usable) return
  const ocpp = await startApp({ roles: ['api', 'ocpp'] })
  ocppApp = ocpp.app
  ocppApp.ocpp!.start()
  // A second process without the role (a plain API process).
  const api = await startApp({ roles: ['api'], metricsToken: METRICS_TOKEN })
  apiApp = api.app
  apiUrl = api.url
  const host = (u: string) => u.replace(/^http:\/\//, '')
  proxy = await startNginx({ relays: [host(api.url)], apis: [host(api.url)], ocpp: [host(ocpp.url)] })
})
afterAll(async () => {
  await proxy?.close()
  await ocppApp?.ocpp?.stop()
  await ocppApp?.close()
  await apiApp?.close()
})

describe.skipIf(!usable)('behind nginx', () => {
  it('a charge point connects through the proxy with its credentials and boots', async () => {
    const cp = await connectChargePoint(proxy.url, 'DEMO-CP-1', PASSWORD)
    try {
      const boot = (await cp.call('BootNotification', { chargePointVendor: 'Elinta', chargePointModel: 'CityCharge' })) as { status: string }
      expect(boot.status).toBe('Accepted')
      expect(ocppApp.ocpp!.isConnected('DEMO-CP-1')).toBe(true)
    } finally {
      await cp.close({ force: true })
    }
  })

  it('a plain GET of the OCPP path gets 426 where the role runs and 404 where it does not, never the web page', async () => {
    const viaProxy = await fetch(`${proxy.url}/ocpp/DEMO-CP-1`)
    expect(viaProxy.status).toBe(426)
    expect(viaProxy.headers.get('upgrade')).toBe('websocket')
    expect(await viaProxy.text()).toMatch(/WebSocket/)
    const apiOnly = await fetch(`${apiUrl}/ocpp/DEMO-CP-1`)
    expect(apiOnly.status).toBe(404)
    expect(apiOnly.headers.get('content-type')).toMatch(/json/)
  })

  it('metrics are not served through the proxy, even with the token the process itself accepts', async () => {
    const bearer = { authorization: `Bearer ${METRICS_TOKEN}` }
    expect((await fetch(`${apiUrl}/metrics`, { headers: bearer })).status).toBe(200)
    for (const path of ['/live/metrics', '/metrics']) {
      const r = await fetch(`${proxy.url}${path}`, { headers: bearer })
      expect(r.status, path).toBe(404)
      expect(await r.text(), path).not.toContain('process_cpu')
    }
  })

  it("every request reaches the processes with nginx's id, which they echo; a caller's own is replaced", async () => {
    const r = await fetch(`${proxy.url}/api/health`, { headers: { 'x-request-id': 'forged-by-caller' } })
    expect(r.status).toBe(200)
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/)
  })
})
