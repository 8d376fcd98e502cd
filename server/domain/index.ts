import type { ErrorLog } from '../db/connection.ts'
import type { Db } from '../db/connection.ts'
import type { Clock } from '../lib/clock.ts'
import type { Metrics } from '../lib/metrics.ts'
import { createAuthService } from './auth/service.ts'
import { createRightsCache } from './auth/rights-cache.ts'
import { createInstallationService } from './installations/service.ts'
import { createMeasurementService } from './measurements/service.ts'
import { createMetricsService } from './measurements/metrics.ts'
import { createOverviewService } from './measurements/overview.ts'
import { createSessionService } from './sessions/service.ts'
import { createRatioService } from './statistics/ratios.ts'
import { createSessionReviewService } from './sessions/review.ts'
import { createStationService, type StationEvents } from './stations/service.ts'
import { createTariffService } from './tariffs/service.ts'
import { createUserService } from './users/service.ts'
import { createEmailChangeService } from './users/email-change.ts'
import { createDeviceService } from './devices/service.ts'
import { createDeviceLink } from './devices/link.ts'
import { createMailService } from './mail/service.ts'
import { createRfidService } from './rfids/service.ts'
import { createTimerService } from './timers/service.ts'
import { createInvoiceService } from './invoices/service.ts'
import { createJournalService } from './journal/service.ts'
import { createRfidOrderService } from './rfids/order.ts'
import { createStationObjectsService } from './stations/by-object.ts'
import { createStatisticsService } from './statistics/service.ts'
import { createRateService } from './rates/service.ts'
import { createPricingService } from './tariffs/pricing.ts'
import { createObjectService } from './objects/service.ts'
import { createReportService } from './reports/service.ts'
import { createZevService } from './zev/service.ts'
import { createPasswordResetService } from './auth/password-reset.ts'
import { createFirstStartService } from './auth/first-start.ts'
import { createUserManagementService } from './users/management.ts'
import { createInvitationService } from './users/invitations.ts'
import { createPermissionService } from './permissions/service.ts'
import { createLegalService } from './legal/service.ts'
import { createRegistrationService } from './users/registration.ts'
import { createPaymentService } from './payments/service.ts'
import { createDemoProvider } from './payments/provider.ts'
import { createStripeProvider } from './payments/stripe-provider.ts'
import type { PaymentsConfig } from '../../config/env.ts'
import { createSupportService } from './support/service.ts'
import { createShortcutService } from './shortcuts/service.ts'
import { createOcppService } from './ocpp/service.ts'
import { createDisplayService } from './displays/service.ts'
import { createMeterProvisioning } from './meters/provisioning.ts'
import { createStationProvisioning } from './stations/provisioning.ts'
import { createAuditService } from './audit/service.ts'
import { createInstallationProvisioning } from './installations/provisioning.ts'
import { createObjectProvisioning } from './objects/provisioning.ts'
import { createConfigurationService } from './configuration/service.ts'
import { createIngestService } from './ingest/service.ts'
import { createDeviceKeyService } from './ingest/keys.ts'
import { createLoadSettings } from './load/settings.ts'
import { createChargePlanService } from './load/charge-plans.ts'
import type { DemoSignIn } from '../../shared/schemas/setup.ts'

/**
 * All domain services wired with their dependencies; routes and devices use this. `clock` is the
 * process's one clock (ARCHITECTURE §1 "Time"): services, devices and jobs take "now" from it.
 * `processMetrics`, the process's Prometheus registry (server/lib/metrics.ts), counts ingested readings; scripts that
 * open a domain of their own pass none.
 */
export function createDomain({ db, clock, jwtSecret, publicUrl = 'http://localhost:3000', supportAddress = 'support@cockpit.local', reportsDir, log, payments: paymentsConfig = { provider: 'demo' }, processMetrics, demo = null }: { db: Db; clock: Clock; jwtSecret: Uint8Array; publicUrl?: string; supportAddress?: string; reportsDir?: string; log?: ErrorLog; payments?: PaymentsConfig; processMetrics?: Pick<Metrics, 'observeIngest'>; demo?: DemoSignIn | null }) {
  const mail = createMailService({ db, clock })
  // Sign-in and rights facts kept while the rights revision stands.
  const rights = createRightsCache(db)
  const auth = createAuthService({ db, clock, secret: jwtSecret, rights })
  const installations = createInstallationService({ db, clock, rights })
  const legal = createLegalService({ db, clock })
  const emailChange = createEmailChangeService({ db, clock, publicUrl, endSessions: auth.endSessions })
  const invitations = createInvitationService({ db, clock, mail, publicUrl, installations })
  const passwordReset = createPasswordResetService({ db, clock, mail, publicUrl, log: (err) => (log ? log.error({ err }, 'password reset mail failed') : console.error('password reset mail failed', err)) })
  const tariffs = createTariffService({ db })
  const measurements = createMeasurementService({ db, clock })
  const sessions = createSessionService({ db, clock, installations, tariffs })
  // Sessions held for review (implausible charger figures, debit ceilings) and what admins do with them.
  const sessionReview = createSessionReviewService({ db, clock, installations, sessions, tariffs, mail, publicUrl })
  // Heartbeats, offline state and the changes that wait for a facility's devices.
  const deviceLink = createDeviceLink({ db })
  // Station mode changes reach OCPP charge points; the OCPP service is made after stations.
  const stationEvents: StationEvents = {}
  const stations = createStationService({ db, clock, installations, link: deviceLink, events: stationEvents })
  const metrics = createMetricsService({ db, clock, installations, measurements })
  const statistics = createStatisticsService({ db, clock, installations })
  // PAYMENT_PROVIDER (config/env.ts): the demo, or Stripe with its keys.
  const provider = paymentsConfig.provider === 'stripe' ? createStripeProvider(paymentsConfig) : createDemoProvider()
  const payments = createPaymentService({ db, clock, sessions, provider, secret: jwtSecret, hold: sessionReview.hold, publicUrl })
  const ocpp = createOcppService({ db, clock, installations, sessions, stations, measurements, tariffs, review: sessionReview })
  stationEvents.modeChanged = ocpp.modeChanged
  return {
    db,
    clock,
    auth,
    ocpp,
    displays: createDisplayService({ db, clock, installations, publicUrl }),
    users: createUserService({ db, clock, emailChange, endSessions: auth.endSessions }),
    emailChange,
    installations,
    tariffs,
    measurements,
    metrics,
    overview: createOverviewService({ clock, installations, metrics, statistics }),
    stations,
    meterProvisioning: createMeterProvisioning({ db, clock, installations }),
    stationProvisioning: createStationProvisioning({ db, clock, installations, stations, ocpp, publicUrl }),
    sessions,
    sessionReview,
    invoices: createInvoiceService({ db, sessions, payments }),
    journal: createJournalService({ db, installations }),
    rfidOrders: createRfidOrderService({ db, installations, mail, payments }),
    payments,
    stationObjects: createStationObjectsService({ db, installations, stations }),
    devices: { ...createDeviceService({ db, clock }), heartbeat: deviceLink.heartbeat, reported: deviceLink.reported, sweep: deviceLink.sweep, disconnect: deviceLink.disconnect, onOnlineChanged: deviceLink.onOnlineChanged },
    rfids: createRfidService({ db, clock, installations, link: deviceLink }),
    timers: createTimerService({ db, clock, installations, link: deviceLink, stationTimersChanged: ocpp.timersChanged }),
    statistics,
    // Self-sufficiency, self-consumption and the previous period's figures (Charts).
    ratios: createRatioService({ installations, statistics, clock }),
    rates: createRateService({ db, clock, installations }),
    pricing: createPricingService({ db, clock, installations, tariffs }),
    // Statistics are stateless, so reports get their own instance.
    reports: createReportService({ db, clock, installations, mail, statistics: createStatisticsService({ db, clock, installations }), reportsDir }),
    objects: createObjectService({ db, clock, installations }),
    zev: createZevService({ db, installations }),
    mail,
    passwordReset,
    setup: createFirstStartService({ db, clock, auth, publicUrl, demo }),
    permissions: createPermissionService({ db, clock, installations }),
    legal,
    registration: createRegistrationService({ db, clock, mail, legal, publicUrl }),
    invitations,
    userManagement: createUserManagementService({ db, clock, installations, mail, passwordReset, invitations, endSessions: auth.endSessions }),
    support: createSupportService({ db, clock, mail, supportAddress, publicUrl }),
    shortcuts: createShortcutService({ db, clock, installations }),
    audit: createAuditService({ db, installations }),
    installationProvisioning: createInstallationProvisioning({ db, clock, installations }),
    objectProvisioning: createObjectProvisioning({ db, clock, installations }),
    configuration: createConfigurationService({ db, clock, installations, ocpp, publicUrl }),
    // Readings of real meters (and the simulator's) through one checked path, and the keys devices send them with.
    ingest: createIngestService({ db, clock, metrics: processMetrics }),
    deviceKeys: createDeviceKeyService({ db, clock, installations }),

    loadSettings: createLoadSettings({ db, clock, installations }),
    chargePlans: createChargePlanService({ db, clock, installations }),
  }
}
export type Domain = ReturnType<typeof createDomain>
