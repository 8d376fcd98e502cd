import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import type { MessageKey } from '../../lib/messages.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import { localDate } from '../../../shared/rules/granularity.ts'
import { minutesOf, WEEKDAYS } from '../../../shared/rules/tariff.ts'
import { RATE_PRICES, type Rate, type RateKind, type TimeSpan } from '../../../shared/schemas/rates.ts'
import type { Clock } from '../../lib/clock.ts'

export { RATE_PRICES, type Rate, type RateKind, type TimeSpan }


/** The body of create and PUT (already shape-checked by the route; rules are checked here). */
export interface RateInput {
  name: string
  start_date: string | null
  end_date: string | null
  prices: Record<string, number>
  time_spans?: TimeSpan[]
  flat_enabled?: boolean
}

const toRappen = (chf: number) => Math.round(chf * 100 * 100) / 100
const toChf = (rappen: number) => Math.round(rappen * 100) / 10_000

/**
 * Rates for power, water and heat. Reading needs a role in the installation and, for an
 * installation_user, the cost switch; writing is for admins (SPEC §6). A rate is fully editable while
 * its start_date is empty or in the future, afterwards only its name (PATCH); the flat rate only in a
 * future rate (SPEC §4). Messages: SPEC §5 ("Please enter a valid rate", "Please enter valid rate times").
 * "Today" is the installation-local date of `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createRateService({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  async function today(installationId: number) {
    const inst = await installations.describe(installationId)
    return localDate(clock.now(), inst.timezone)
  }
  const started = (startDate: string | null, day: string) => startDate != null && startDate <= day

  function toRate(row: { id: number; installation_id: number; kind: RateKind; name: string; start_date: string | null; end_date: string | null; prices: Record<string, number>; time_spans: TimeSpan[]; flat_enabled: boolean }, day: string): Rate {
    const prices = Object.fromEntries(RATE_PRICES[row.kind].map((k) => [k, toChf(row.prices[k] ?? 0)]))
    const rate: Rate = { id: row.id, installation: row.installation_id, kind: row.kind, name: row.name, start_date: row.start_date, end_date: row.end_date, prices, editable: !started(row.start_date, day) }
    if (row.kind === 'power') {
      rate.time_spans = row.time_spans
      rate.flat_enabled = row.flat_enabled
    }
    return rate
  }

  async function canRead(actor: Actor, installationId: number) {
    const access = await installations.access(actor, installationId)
    if (!isAdmin(access.role) && !access.cost) throw Forbidden()
  }
  async function canWrite(actor: Actor, installationId: number) {
    const role = await installations.requireRole(actor, installationId)
    if (!isAdmin(role)) throw Forbidden()
  }

  async function row(installationId: number, kind: RateKind, id: number) {
    const r = await db.selectFrom('rates').selectAll().where('installation_id', '=', installationId).where('kind', '=', kind).where('id', '=', id).executeTakeFirst()
    if (!r) throw NotFound()
    return r
  }

  /** Check the rules of a full rate; throws Invalid with every problem by field. */
  function validate(kind: RateKind, input: RateInput, day: string) {
    const fields: Record<string, MessageKey[]> = {}
    const add = (f: string, k: MessageKey) => ((fields[f] ??= []).includes(k) ? undefined : fields[f].push(k))
    if (!input.name.trim()) add('name', 'required')
    if (!input.prices || typeof input.prices !== 'object' || Array.isArray(input.prices)) add('prices', 'ratesInvalid')
    else for (const k of RATE_PRICES[kind]) {
      const v = input.prices[k]
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v >= 100) add(k, 'rateInvalid')
    }
    if (input.end_date && input.start_date && input.end_date < input.start_date) add('end_date', 'invalidValue')
    if (kind === 'power') {
      if (!Array.isArray(input.time_spans ?? [])) add('time_spans', 'rateTimesInvalid')
      else for (const s of input.time_spans ?? []) if (!validSpan(s)) add('time_spans', 'rateTimesInvalid')
      if (input.flat_enabled && !(input.start_date && input.start_date > day)) add('flat_enabled', 'rateFlatFuture')
    }
    if (Object.keys(fields).length) throw new Invalid(fields)
  }

  function values(kind: RateKind, input: RateInput) {
    return {
      name: input.name.trim(),
      start_date: input.start_date,
      end_date: input.end_date,
      prices: JSON.stringify(Object.fromEntries(RATE_PRICES[kind].map((k) => [k, toRappen(input.prices[k])]))),
      time_spans: JSON.stringify(kind === 'power' ? (input.time_spans ?? []) : []),
      flat_enabled: kind === 'power' ? !!input.flat_enabled : false,
    }
  }

  return {
    /** GET …/rates/{kind}: all rates of a kind, newest start first (not scheduled ones first). */
    async list(actor: Actor, installationId: number, kind: RateKind): Promise<{ count: number; next: null; previous: null; results: Rate[] }> {
      await canRead(actor, installationId)
      const day = await today(installationId)
      const rows = await db.selectFrom('rates').selectAll().where('installation_id', '=', installationId).where('kind', '=', kind)
        .orderBy((eb) => eb.fn.coalesce('start_date', eb.val('9999-12-31')), 'desc').orderBy('id', 'desc').execute()
      const results = rows.map((r) => toRate(r as never, day))
      return { count: results.length, next: null, previous: null, results }
    },

    async get(actor: Actor, installationId: number, kind: RateKind, id: number): Promise<Rate> {
      await canRead(actor, installationId)
      return toRate((await row(installationId, kind, id)) as never, await today(installationId))
    },

    /** POST …/rates/{kind}: a new rate (a start date in the past is allowed: it is then fixed at once). */
    async create(actor: Actor, installationId: number, kind: RateKind, input: RateInput): Promise<Rate> {
      await canWrite(actor, installationId)
      const day = await today(installationId)
      validate(kind, input, day)
      const r = await db.insertInto('rates').values({ installation_id: installationId, kind, ...values(kind, input) }).returningAll().executeTakeFirstOrThrow()
      return toRate(r as never, day)
    },

    /** PUT …/rates/{kind}/{id}: replace a rate; once started only the name may differ (SPEC §4). */
    async replace(actor: Actor, installationId: number, kind: RateKind, id: number, input: RateInput): Promise<Rate> {
      await canWrite(actor, installationId)
      const day = await today(installationId)
      const current = await row(installationId, kind, id)
      if (started(current.start_date, day)) {
        const mine = toRate(current as never, day)
        const same =
          input.start_date === current.start_date && input.end_date === current.end_date &&
          RATE_PRICES[kind].every((k) => toChf(toRappen((input.prices ?? {})[k] ?? NaN)) === mine.prices[k]) &&
          (kind !== 'power' || (JSON.stringify(input.time_spans ?? []) === JSON.stringify(current.time_spans) && !!input.flat_enabled === current.flat_enabled))
        if (!same) throw new AppError(400, 'rateStarted')
        if (!input.name.trim()) throw new Invalid({ name: ['required'] })
        const r = await db.updateTable('rates').set({ name: input.name.trim() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
        return toRate(r as never, day)
      }
      validate(kind, input, day)
      const r = await db.updateTable('rates').set(values(kind, input)).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      return toRate(r as never, day)
    },

    /** PATCH …/rates/{kind}/{id}: rename (the only change SPEC §7 allows by PATCH). */
    async rename(actor: Actor, installationId: number, kind: RateKind, id: number, name: string): Promise<Rate> {
      await canWrite(actor, installationId)
      await row(installationId, kind, id)
      if (!name.trim()) throw new Invalid({ name: ['required'] })
      const r = await db.updateTable('rates').set({ name: name.trim() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      return toRate(r as never, await today(installationId))
    },

    /** DELETE …/rates/{kind}/{id}: only a rate that has not started (a started one prices past data). */
    async remove(actor: Actor, installationId: number, kind: RateKind, id: number): Promise<void> {
      await canWrite(actor, installationId)
      const current = await row(installationId, kind, id)
      if (started(current.start_date, await today(installationId))) throw new AppError(400, 'rateStarted')
      await db.deleteFrom('rates').where('id', '=', id).execute()
    },
  }
}
export type RateService = ReturnType<typeof createRateService>

/** A time span is valid with well-formed times, start before end (end "24:00" allowed) and a known weekday. */
export function validSpan(s: TimeSpan): boolean {
  if (!s || typeof s !== 'object' || typeof s.start !== 'string' || typeof s.end !== 'string' || !Array.isArray(s.repetition)) return false
  try {
    const start = minutesOf(s.start)
    const end = minutesOf(s.end)
    return start < end && start < 1440 && s.repetition.length > 0 && s.repetition.every((d) => (WEEKDAYS as readonly string[]).includes(d))
  } catch {
    return false
  }
}
