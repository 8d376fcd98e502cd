import type { FastifyInstance } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { authRoutes } from './auth.ts'
import { requireSignIn } from './http.ts'
import { rightsRequestScope } from '../domain/auth/rights-cache.ts'
import { installationRoutes } from './installations.ts'
import { liveDataRoutes } from './metrics.ts'
import { userRoutes } from './users.ts'
import { accountRoutes } from './accounts.ts'
import { accessRoutes } from './access.ts'
import { rfidRoutes } from './rfids.ts'
import { timerRoutes } from './timers.ts'
import { stationRoutes } from './stations.ts'
import { sessionRoutes } from './sessions.ts'
import { statisticsRoutes } from './statistics.ts'
import { rateRoutes } from './rates.ts'
import { tariffRoutes } from './tariffs.ts'
import { objectRoutes } from './objects.ts'
import { reportRoutes } from './reports.ts'
import { paymentRoutes } from './payments.ts'
import { deviceRoutes } from './devices.ts'
import { zevRoutes } from './zev.ts'
import { openApiPlugin } from './openapi.ts'
import { refuseNulBytes } from './nul-guard.ts'
import { supportRoutes } from './support.ts'
import { shortcutRoutes } from './shortcuts.ts'
import { ocppRoutes } from './ocpp.ts'
import { sessionReviewRoutes } from './session-review.ts'
import { displayRoutes } from './displays.ts'
import { provisioningDeviceRoutes } from './provisioning-devices.ts'
import { auditRoutes } from './audit.ts'
import { configurationRoutes } from './configuration.ts'
import { setupRoutes } from './setup.ts'
import { ingestRoutes } from './ingest.ts'
import { ingestConfigRoutes } from './ingest-config.ts'
import { loadManagementRoutes } from './load-management.ts'
import { chargePlanRoutes } from './charge-plans.ts'
import { gateHeavyRoutes } from './heavy-gate.ts'
import { refuseWritesWhenArchived } from './archived-guard.ts'

/** The REST API of SPEC §7 under /api (register with prefix '/api'). */
export async function apiPlugin(app: FastifyInstance, { domain }: { domain: Domain }) {
  app.addHook('preValidation', refuseNulBytes)
  // One read of the rights revision per request, before sign-in reads the token's user.
  app.addHook('onRequest', rightsRequestScope)
  requireSignIn(app, domain)
  refuseWritesWhenArchived(app, domain)
  await openApiPlugin(app)
  // Before the routes: the onRoute hook wraps the heavy ones as they are registered.
  gateHeavyRoutes(app, domain)
  authRoutes(app, domain)
  setupRoutes(app, domain)
  accountRoutes(app, domain)
  userRoutes(app, domain)
  installationRoutes(app, domain)
  liveDataRoutes(app, domain)
  accessRoutes(app, domain)
  rfidRoutes(app, domain)
  timerRoutes(app, domain)
  stationRoutes(app, domain)
  sessionRoutes(app, domain)
  statisticsRoutes(app, domain)
  rateRoutes(app, domain)
  tariffRoutes(app, domain)
  objectRoutes(app, domain)
  reportRoutes(app, domain)
  paymentRoutes(app, domain)
  deviceRoutes(app, domain)
  zevRoutes(app, domain)
  supportRoutes(app, domain)
  shortcutRoutes(app, domain)
  ocppRoutes(app, domain)
  sessionReviewRoutes(app, domain)
  displayRoutes(app, domain)
  provisioningDeviceRoutes(app, domain)
  auditRoutes(app, domain)
  configurationRoutes(app, domain)
  ingestRoutes(app, domain)
  ingestConfigRoutes(app, domain)

  loadManagementRoutes(app, domain)
  chargePlanRoutes(app, domain)
}
