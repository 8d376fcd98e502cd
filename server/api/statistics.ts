import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { GRANULARITIES } from '../../shared/rules/granularity.ts'
import { actorOf, parse } from './http.ts'

const instantFormat = z.union([z.iso.datetime({ offset: true }), z.iso.date()])
// A plain string first, so a missing value reads "The field is required." rather than a union error.
const Instant = z.string().min(1).refine((v) => instantFormat.safeParse(v).success)
const Flag = z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1')

/**
 * Query of every statistics call (issue 5 §2): `start` and `end` (ISO-8601 with offset, or a local date
 * "YYYY-MM-DD" meaning installation-local midnight; end exclusive), `granularity` (fifteen_minutes,
 * hour, day, month; default hour), `flow` (add kW series) and `flat` (price at the flat tariff).
 */
export const StatisticsQuerySchema = z.object({
  start: Instant,
  end: Instant,
  granularity: z.enum(GRANULARITIES).default('hour'),
  flow: Flag,
  flat: Flag,
})

const InstallationParams = z.object({ installationId: Id })
const ObjectParams = z.object({ installationId: Id, objectId: Id })
const TypedParams = z.object({ installationId: Id, objectType: z.enum(['object', 'charging_station']), objectId: Id })
const SectionParams = z.object({ installationId: Id, objectType: z.enum(['electrical', 'water', 'heat', 'charging_station']) })

/**
 * GET /api/statistics/{installation_id} and its sub-paths (SPEC §7): /totals, /flow, /battery/states,
 * /heat/{object_id}, /water/{object_id}, /object/charging_stations, /{object_type} (electrical, water,
 * heat, charging_station) and /{object_type}/{object_id} (object, charging_station). Rights and shapes:
 * server/domain/statistics/service.ts.
 */
export function statisticsRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/statistics/:installationId'
  const q = (req: { query: unknown }) => parse(StatisticsQuerySchema, req.query)
  app.get(base, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.statistics.installation(await actorOf(domain, req), installationId, q(req))
  })
  app.get(`${base}/totals`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.statistics.totals(await actorOf(domain, req), installationId, q(req))
  })
  app.get(`${base}/flow`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.statistics.flow(await actorOf(domain, req), installationId, q(req))
  })
  app.get(`${base}/zev`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.statistics.zev(await actorOf(domain, req), installationId, q(req))
  })
  app.get(`${base}/battery/states`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.statistics.batteryStates(await actorOf(domain, req), installationId, q(req))
  })
  app.get(`${base}/heat/:objectId`, async (req) => {
    const { installationId, objectId } = parse(ObjectParams, req.params)
    return domain.statistics.ofObject(await actorOf(domain, req), installationId, objectId, q(req), 'heat')
  })
  app.get(`${base}/water/:objectId`, async (req) => {
    const { installationId, objectId } = parse(ObjectParams, req.params)
    return domain.statistics.ofObject(await actorOf(domain, req), installationId, objectId, q(req), 'water')
  })
  app.get(`${base}/object/charging_stations`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.statistics.perStation(await actorOf(domain, req), installationId, q(req))
  })
  app.get(`${base}/:objectType`, async (req) => {
    const { installationId, objectType } = parse(SectionParams, req.params)
    const actor = await actorOf(domain, req)
    return objectType === 'charging_station'
      ? domain.statistics.perStation(actor, installationId, q(req))
      : domain.statistics.section(actor, installationId, objectType, q(req))
  })
  app.get(`${base}/:objectType/:objectId`, async (req) => {
    const { installationId, objectType, objectId } = parse(TypedParams, req.params)
    const actor = await actorOf(domain, req)
    return objectType === 'object'
      ? domain.statistics.ofObject(actor, installationId, objectId, q(req), 'all')
      : domain.statistics.station(actor, installationId, objectId, q(req))
  })
}
