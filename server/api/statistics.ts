import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { DayOrDateTime, Id } from '../../shared/schemas/common.ts'
import { GRANULARITIES } from '../../shared/rules/granularity.ts'
import { BatteryStatesAnswer, RatiosAnswer, RatiosQuery, StatisticsAnswer, StationStatisticsAnswer, TotalsAnswer, ZevAnswer } from '../../shared/schemas/statistics.ts'
import { actorOf } from './http.ts'
import { pickLang } from '../lib/messages.ts'
import { statisticsSerializerCompiler } from './statistics-json.ts'

const instantFormat = DayOrDateTime
// A plain string first, so a missing value reads "The field is required." rather than a union error.
const Instant = z.string().min(1).refine((v) => instantFormat.safeParse(v).success)
const Flag = z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1')

/**
 * Query of every statistics call: `start` and `end` (ISO-8601 with offset, or a local date
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
const TypedParams = z.object({ installationId: Id, objectType: z.enum(['object', 'charging_station', 'meter']).describe('object, charging_station or meter (one meter)'), objectId: Id })
const MeterRef = z.object({ id: z.number().int(), name: z.string(), meter_type: z.string() }).describe('The meter of a …/meter/{meter_id} answer')
const SectionParams = z.object({ installationId: Id, objectType: z.enum(['electrical', 'water', 'heat', 'charging_station']) })

/**
 * GET /api/statistics/{installation_id} and its sub-paths (SPEC §7): /totals, /ratios, /flow, /battery/states,
 * /heat/{object_id}, /water/{object_id}, /object/charging_stations, /{object_type} (electrical, water,
 * heat, charging_station) and /{object_type}/{object_id} (object, charging_station, meter). Rights and shapes:
 * server/domain/statistics/service.ts.
 */
/** The query with the request's language, for the reasons in `data_quality` (server/domain/ingest/reasons.ts). */
const withLang = <Q extends object>(req: { query: Q; headers: { 'accept-language'?: string } }) => ({ ...req.query, lang: pickLang(req.headers['accept-language']) })

export function statisticsRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/statistics/:installationId'
  // The response schemas document the answers (OpenAPI); large series are written by the fast serializer.
  const schema = <P extends z.ZodObject, R extends z.ZodType>(summary: string, params: P, response: R) => ({
    schema: { summary, params, querystring: StatisticsQuerySchema, response: { 200: response } },
    serializerCompiler: statisticsSerializerCompiler as never, // typed for the response schema it is given
  })
  app.get(base, schema("The installation's series by bucket", InstallationParams, StatisticsAnswer), async (req) =>
    domain.statistics.installation(await actorOf(domain, req), req.params.installationId, withLang(req)),
  )
  app.get(`${base}/totals`, schema('The series summed over the period', InstallationParams, TotalsAnswer), async (req) =>
    domain.statistics.totals(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.get(
    `${base}/ratios`,
    { schema: { summary: 'Self-sufficiency and self-consumption of a chart period, compared with the previous period', params: InstallationParams, querystring: RatiosQuery, response: { 200: RatiosAnswer } } },
    async (req) => domain.ratios.ratios(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.get(`${base}/flow`, schema('Power flow series (kW)', InstallationParams, StatisticsAnswer), async (req) =>
    domain.statistics.flow(await actorOf(domain, req), req.params.installationId, withLang(req)),
  )
  app.get(`${base}/zev`, schema('ZEV series and the allocation per consumption unit', InstallationParams, ZevAnswer), async (req) =>
    domain.statistics.zev(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.get(`${base}/battery/states`, schema('Battery state of charge (%)', InstallationParams, BatteryStatesAnswer), async (req) =>
    domain.statistics.batteryStates(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.get(`${base}/heat/:objectId`, schema('Heat series of an object', ObjectParams, StatisticsAnswer), async (req) =>
    domain.statistics.ofObject(await actorOf(domain, req), req.params.installationId, req.params.objectId, withLang(req), 'heat'),
  )
  app.get(`${base}/water/:objectId`, schema('Water series of an object', ObjectParams, StatisticsAnswer), async (req) =>
    domain.statistics.ofObject(await actorOf(domain, req), req.params.installationId, req.params.objectId, withLang(req), 'water'),
  )
  app.get(`${base}/object/charging_stations`, schema('Series per readable charging station', InstallationParams, StationStatisticsAnswer), async (req) =>
    domain.statistics.perStation(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.get(`${base}/:objectType`, schema('Series of a section (electrical, water, heat, charging_station)', SectionParams, StatisticsAnswer.extend({ names: z.record(z.string(), z.string()).optional() })), async (req) => {
    const { installationId, objectType } = req.params
    const actor = await actorOf(domain, req)
    return objectType === 'charging_station'
      ? domain.statistics.perStation(actor, installationId, req.query)
      : domain.statistics.section(actor, installationId, objectType, withLang(req))
  })
  app.get(`${base}/:objectType/:objectId`, schema('Series of an object, a charging station or one meter', TypedParams, StatisticsAnswer.extend({ meter: MeterRef.optional() })), async (req) => {
    const { installationId, objectType, objectId } = req.params
    const actor = await actorOf(domain, req)
    if (objectType === 'meter') return domain.statistics.meter(actor, installationId, objectId, withLang(req))
    return objectType === 'object'
      ? domain.statistics.ofObject(actor, installationId, objectId, withLang(req), 'all')
      : domain.statistics.station(actor, installationId, objectId, withLang(req))
  })
}
