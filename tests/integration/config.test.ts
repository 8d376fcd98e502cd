import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ConfigError, FETCH_BLOCKED_PORTS, loadConfig } from '../../config/env.ts'
import { DataDirLockedError, openDatabase } from '../../server/db/connection.ts'

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ port: 3000, demo: false, demoPassword: 'Cockpit-2026!', roles: ['api', 'relay', 'simulator', 'ocpp'] })
    expect(c.intervals).toEqual({ metrics: 5000, stations: 5000, sessions: 30000, info: 120000, energy_return: 900000 })
    expect(c.dataDir).toBe(path.resolve('./data'))
    // Reports' output directories: under DATA_DIR unless REPORTS_DIR says otherwise.
    expect(c.reportsDir).toBe(path.resolve('./data/reports'))
    expect(loadConfig({ DATA_DIR: '/srv/cockpit' }).reportsDir).toBe('/srv/cockpit/reports')
    expect(loadConfig({ REPORTS_DIR: '/mnt/exports' }).reportsDir).toBe('/mnt/exports')
  })
  it('names every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', ROLES: 'api,web', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' })
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError)
      for (const name of ['PORT', 'ROLES', 'DATABASE_URL', 'LOG_LEVEL']) expect((err as Error).message).toContain(name)
    }
  })
  it('takes METRICS_TOKEN (off when unset) and refuses a short one or one with spaces', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined()
    const token = 'a'.repeat(32)
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token)
    for (const bad of ['short', `${'a'.repeat(20)} ${'b'.repeat(20)}`]) expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(/METRICS_TOKEN: must be at least 32 characters/)
  })
  it('requires an upstream and an account for a relay on its own', () => {
    expect(() => loadConfig({ ROLES: 'relay' })).toThrow(/UPSTREAM_URL/)
    expect(() => loadConfig({ ROLES: 'relay', UPSTREAM_URL: 'http://api:3000/api' })).toThrow(/RELAY_UPSTREAM_EMAIL/)
    expect(loadConfig({ ROLES: 'relay', UPSTREAM_URL: 'http://api:3000/api', RELAY_UPSTREAM_EMAIL: 'a@b.ch', RELAY_UPSTREAM_PASSWORD: 'x' }).roles).toEqual(['relay'])
  })
  it('runs the facility gateway only when asked, with the portal, a device key and a folder', () => {
    expect(loadConfig({}).roles).not.toContain('gateway')
    expect(() => loadConfig({ ROLES: 'gateway' })).toThrow(/GATEWAY_URL: required when ROLES has gateway/)
    expect(() => loadConfig({ ROLES: 'gateway', GATEWAY_URL: 'https://cockpit.example.ch' })).toThrow(/GATEWAY_KEY: required/)
    expect(() => loadConfig({ ROLES: 'gateway', GATEWAY_URL: 'cockpit.example.ch', GATEWAY_KEY: 'ck_abc' })).toThrow(/GATEWAY_URL: must be the portal's address/)
    expect(() => loadConfig({ ROLES: 'gateway', GATEWAY_URL: 'https://cockpit.example.ch', GATEWAY_KEY: 'secret' })).toThrow(/GATEWAY_KEY: must be a device key/)
    const c = loadConfig({ ROLES: 'gateway', GATEWAY_URL: 'https://cockpit.example.ch/', GATEWAY_KEY: 'ck_abc', GATEWAY_DIR: '/var/lib/cockpit-gateway' })
    expect(c).toMatchObject({ roles: ['gateway'], gateway: { url: 'https://cockpit.example.ch', key: 'ck_abc', dir: '/var/lib/cockpit-gateway' } })
  })
  it('takes an MQTT broker by mqtt:// or mqtts:// with its account in the URL or apart', () => {
    expect(loadConfig({}).mqtt).toBeUndefined()
    expect(loadConfig({ MQTT_URL: 'mqtts://u:p%40ss@broker.example.ch:8883' }).mqtt).toEqual({ url: 'mqtts://u:p%40ss@broker.example.ch:8883', username: undefined, password: undefined })
    expect(loadConfig({ MQTT_URL: 'mqtt://broker:1883', MQTT_USERNAME: 'u', MQTT_PASSWORD: 'p' }).mqtt).toMatchObject({ username: 'u', password: 'p' })
    expect(() => loadConfig({ MQTT_URL: 'http://broker' })).toThrow(/MQTT_URL: must start with mqtt:\/\/ or mqtts:\/\//)
    expect(() => loadConfig({ MQTT_URL: 'mqtt://broker', MQTT_USERNAME: 'u' })).toThrow(/MQTT_USERNAME and MQTT_PASSWORD/)
  })
})

describe('the clock (CLOCK_START, CLOCK_SPEED)', () => {
  it('is the wall clock at real speed by default', () => {
    expect(loadConfig({})).toMatchObject({ clockStart: undefined, clockSpeed: 1 })
  })
  it('starts at an ISO 8601 instant with offset and runs at a chosen speed', () => {
    const c = loadConfig({ CLOCK_START: '2026-03-04T21:00:00+01:00', CLOCK_SPEED: '60' })
    expect(c.clockStart?.toISOString()).toBe('2026-03-04T20:00:00.000Z')
    expect(c.clockSpeed).toBe(60)
  })
  it('names a start without offset, a date that is no date and a speed that is not positive', () => {
    for (const [env, name, words] of [
      [{ CLOCK_START: '2026-03-04T21:00:00' }, 'CLOCK_START', 'ISO 8601 instant with offset'],
      [{ CLOCK_START: 'tomorrow' }, 'CLOCK_START', 'ISO 8601 instant with offset'],
      [{ CLOCK_SPEED: '0' }, 'CLOCK_SPEED', 'positive'],
      [{ CLOCK_SPEED: '-2' }, 'CLOCK_SPEED', 'positive'],
      [{ CLOCK_SPEED: 'fast' }, 'CLOCK_SPEED', ''],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError)
      expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: .*${words}`))
    }
  })
})

describe('PORT on the Fetch standard\'s blocked list', () => {
  // Found in an e2e run on 4190: the server listened, but its relay could not reach its own API
  // ("bad port") and every stream ticket answered 503, with nothing in the start-up output.
  it('is refused at start with a message that says why and what to do', () => {
    expect(() => loadConfig({ PORT: '4190' })).toThrow(/PORT: browsers and fetch refuse this port.*choose another/)
    expect(loadConfig({ PORT: '4191' }).port).toBe(4191)
  })

  it('is the list Node\'s fetch itself refuses, so no port the relay cannot reach is let through', async () => {
    // Nothing listens on these ports here: an allowed port fails to connect, a blocked one before trying.
    const refusal = async (port: number) => {
      const err = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) }).then(() => null, (e: Error) => e)
      return String((err?.cause as Error | undefined)?.message ?? err?.message)
    }
    for (const port of FETCH_BLOCKED_PORTS) expect(await refusal(port), `port ${port}`).toBe('bad port')
    for (const port of [3000, 3411, 4191, 8080]) expect(await refusal(port)).not.toBe('bad port')
  })
})

describe('embedded database', () => {
  it('refuses a second opener of the same DATA_DIR with a clear message, and reopens after close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-lock-'))
    const first = await openDatabase({ dataDir: dir })
    // A lock held by another live process (our parent) must be refused.
    fs.writeFileSync(path.join(dir, 'cockpit.lock'), String(process.ppid))
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError)
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by another Cockpit process/)
    fs.writeFileSync(path.join(dir, 'cockpit.lock'), String(process.pid))
    await first.close()
    const again = await openDatabase({ dataDir: dir })
    expect(await again.db.selectFrom('users').select('id').execute()).toEqual([])
    await again.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }, 120_000) // two databases created on disk: slow on a loaded machine
})
