import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { connectChargePoint, PASSWORD, startApp, type ChargePoint } from './helpers.ts'

// The Prometheus text at /live/metrics names every charge point (its OCPP user name) and the relay's
// load: only a monitoring system holding METRICS_TOKEN reads it (Authorization: Bearer); without the
// variable the endpoint is off (docs/decisions.md "Metrics: a token").
const TOKEN = 'metrics-token-for-the-test-0123456789abcdef'

describe('with METRICS_TOKEN', () => {
  let app: FastifyInstance
  let url: string
  let cp: ChargePoint
  beforeAll(async () => {
    ;({ app, url } = await startApp({ roles: ['api', 'relay', 'ocpp'], metricsToken: TOKEN }))
    // The demo's charge point, connected, so its id would be listed.
    cp = await connectChargePoint(url, 'DEMO-CP-1', PASSWORD)
    await cp.call('BootNotification', { chargePointVendor: 'Elinta', chargePointModel: 'CityCharge' })
  })
  afterAll(async () => {
    await cp?.close({ force: true })
    await app?.close()
  })
  const get = (headers: Record<string, string> = {}) => fetch(`${url}/live/metrics`, { headers })

  it('refuses a scrape without a token: 401 naming the Bearer scheme, nothing of the metrics', async () => {
    const r = await get()
    expect(r.status).toBe(401)
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/)
    const text = await r.text()
    expect(text).not.toContain('DEMO-CP-1')
    expect(text).not.toContain('cockpit_')
  })

  it('refuses a wrong token, another scheme, a prefix of the token, and a user’s access token', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer ', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, TOKEN]) {
      const r = await get({ authorization })
      expect(r.status, authorization).toBe(401)
      expect(await r.text()).not.toContain('DEMO-CP-1')
    }
    // Not the token in the query either (it would land in access logs).
    expect((await fetch(`${url}/live/metrics?token=${TOKEN}`)).status).toBe(401)
  })

  it('answers the Prometheus text to the right token, with the charge point’s counters', async () => {
    const r = await get({ authorization: `Bearer ${TOKEN}` })
    expect(r.status).toBe(200)
    expect(r.headers.get('cache-control')).toBe('no-store')
    const text = await r.text()
    expect(text).toContain('cockpit_relay_subscribers')
    expect(text).toMatch(/cockpit_ocpp_charge_point_connected\{charge_point="DEMO-CP-1"\} 1/)
  })
})

describe('without METRICS_TOKEN', () => {
  let app: FastifyInstance
  let url: string
  beforeAll(async () => {
    ;({ app, url } = await startApp({ roles: ['api', 'relay', 'ocpp'] }))
  })
  afterAll(async () => app?.close())

  it('the endpoint is off: 404 to anyone, with or without a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
      const r = await fetch(`${url}/live/metrics`, { headers })
      expect(r.status).toBe(404)
      expect(await r.text()).not.toContain('cockpit_')
    }
  })
})
