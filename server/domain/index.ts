import type { Db } from '../db/connection.ts'
import { createAuthService } from './auth/service.ts'
import { createInstallationService } from './installations/service.ts'
import { createMeasurementService } from './measurements/service.ts'
import { createMetricsService } from './measurements/metrics.ts'
import { createSessionService } from './sessions/service.ts'
import { createStationService } from './stations/service.ts'
import { createTariffService } from './tariffs/service.ts'
import { createUserService } from './users/service.ts'
import { createDeviceService } from './devices/service.ts'
import { createMailService } from './mail/service.ts'

/** All domain services wired with their dependencies; routes and devices use this. */
export function createDomain({ db, jwtSecret }: { db: Db; jwtSecret: Uint8Array }) {
  const installations = createInstallationService({ db })
  const tariffs = createTariffService({ db })
  const measurements = createMeasurementService({ db })
  return {
    db,
    auth: createAuthService({ db, secret: jwtSecret }),
    users: createUserService({ db }),
    installations,
    tariffs,
    measurements,
    metrics: createMetricsService({ db, installations, measurements }),
    stations: createStationService({ db, installations }),
    sessions: createSessionService({ db, installations, tariffs }),
    devices: createDeviceService({ db }),
    mail: createMailService({ db }),
  }
}
export type Domain = ReturnType<typeof createDomain>
