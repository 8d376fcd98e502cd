import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { DEVICES } from '../../config/defaults.ts'
import type { Job } from './retention.ts'

/**
 * Issue 13 §3: every DEVICES.watchdogMs, installations without a device heartbeat for
 * DEVICES.offlineAfterMs (60 s) go offline since their last heartbeat (domain.devices.sweep).
 */
export function createDeviceWatchdog({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  let timer: NodeJS.Timeout | undefined
  const run = async () => {
    const ids = await domain.devices.sweep(new Date())
    if (ids.length) log.warn({ installations: ids }, 'no device heartbeat: installations offline')
  }
  return {
    start() {
      timer = setInterval(() => void run().catch((err) => log.error({ err }, 'device watchdog failed')), DEVICES.watchdogMs)
      timer.unref()
    },
    stop() {
      clearInterval(timer)
    },
  }
}
