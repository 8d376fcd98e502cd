import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { DEVICES } from '../../config/defaults.ts'
import type { Job } from './runner.ts'

/**
 * Every DEVICES.watchdogMs, installations without a device heartbeat for
 * DEVICES.offlineAfterMs (60 s) go offline since their last heartbeat (domain.devices.sweep). Safe to run
 * in several processes at once: the sweep is one UPDATE. "Now" is the domain's clock (ARCHITECTURE §1 "Time").
 */
export function createDeviceWatchdog({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  return {
    name: 'device-watchdog',
    schedule: { everySeconds: DEVICES.watchdogMs / 1000 },
    async run() {
      const ids = await domain.devices.sweep(domain.clock.now())
      if (ids.length) log.warn({ installations: ids }, 'no device heartbeat: installations offline')
    },
  }
}
