import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { MeterType } from '../../db/schema.ts'
import type { Clock } from '../../lib/clock.ts'

/**
 * One meter reading. power_kw is signed per meter (main_power: + import / − export; battery: + charge /
 * − discharge); energy_in/out_kwh and volume_m3 are deltas since the meter's previous reading.
 */
export interface Sample {
  meter_id: number
  ts: Date
  power_kw: number
  energy_in_kwh?: number
  energy_out_kwh?: number
  soc?: number | null
  volume_m3?: number
}

/** A 15-minute aggregate written directly (backfill). power_avg_kw is the bucket's mean power. */
export interface Aggregate {
  meter_id: number
  bucket: Date
  energy_in_kwh: number
  energy_out_kwh: number
  volume_m3: number
  power_avg_kw: number
  soc_last: number | null
}

const BUCKET_MS = 15 * 60_000
export const bucketOf = (d: Date) => new Date(Math.floor(d.getTime() / BUCKET_MS) * BUCKET_MS)

/** What one stored reading adds to its 15-minute bucket; `sample`: it counts as a power sample. */
export interface BucketDelta {
  meter_id: number
  ts: Date
  energy_in_kwh: number
  energy_out_kwh: number
  volume_m3: number
  power_kw: number
  soc: number | null
  sample: boolean
}

/**
 * Fold `deltas` into measurements_15m in `tx` (sums added to the stored bucket; soc_last the newest
 * non-null state of charge). Shared by the simulator's and OCPP's readings (record) and the ingestion
 * service, so a bucket is kept one way whatever wrote the reading.
 */
export async function addToBuckets(tx: Db, deltas: BucketDelta[]): Promise<void> {
  if (!deltas.length) return
  const buckets = new Map<string, { meter_id: number; bucket: Date; energy_in_kwh: number; energy_out_kwh: number; volume_m3: number; power_sum: number; samples: number; soc_last: number | null; socAt: number }>()
  for (const d of deltas) {
    const bucket = bucketOf(d.ts)
    const key = `${d.meter_id}:${bucket.getTime()}`
    const b = buckets.get(key) ?? { meter_id: d.meter_id, bucket, energy_in_kwh: 0, energy_out_kwh: 0, volume_m3: 0, power_sum: 0, samples: 0, soc_last: null, socAt: -Infinity }
    b.energy_in_kwh += d.energy_in_kwh
    b.energy_out_kwh += d.energy_out_kwh
    b.volume_m3 += d.volume_m3
    b.power_sum += d.power_kw
    if (d.sample) b.samples += 1
    if (d.soc != null && d.ts.getTime() >= b.socAt) {
      b.soc_last = d.soc
      b.socAt = d.ts.getTime()
    }
    buckets.set(key, b)
  }
  const values = [...buckets.values()].map(({ socAt: _s, ...b }) => b)
  for (let i = 0; i < values.length; i += 5000) {
    await tx.insertInto('measurements_15m').values(values.slice(i, i + 5000))
      .onConflict((oc) => oc.columns(['meter_id', 'bucket']).doUpdateSet({
        energy_in_kwh: sql`measurements_15m.energy_in_kwh + excluded.energy_in_kwh`,
        energy_out_kwh: sql`measurements_15m.energy_out_kwh + excluded.energy_out_kwh`,
        volume_m3: sql`measurements_15m.volume_m3 + excluded.volume_m3`,
        power_sum: sql`measurements_15m.power_sum + excluded.power_sum`,
        samples: sql`measurements_15m.samples + excluded.samples`,
        soc_last: sql`coalesce(excluded.soc_last, measurements_15m.soc_last)`,
      })).execute()
  }
}

/**
 * Measurements: raw readings (5 s, kept 48 h) and 15-minute aggregates kept up to date as readings
 * arrive, so statistics never scan raw data. "Newest" readings are
 * judged at `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createMeasurementService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /**
     * Store readings and fold them into their 15-minute buckets, in one transaction. A reading whose
     * meter and instant are stored already is left out (raw row and bucket alike).
     */
    async record(samples: Sample[]): Promise<void> {
      if (!samples.length) return
      const rows = samples.map((s) => ({
        meter_id: s.meter_id, ts: s.ts, power_kw: s.power_kw, energy_in_kwh: s.energy_in_kwh ?? 0,
        energy_out_kwh: s.energy_out_kwh ?? 0, soc: s.soc ?? null, volume_m3: s.volume_m3 ?? 0,
      }))
      await db.transaction().execute(async (tx) => {
        // Only the rows stored now go into their buckets: a reading stored before (the same meter and
        // instant, e.g. a step repeated after a restart) is not counted twice.
        const inserted = await tx.insertInto('measurements').values(rows).onConflict((oc) => oc.columns(['meter_id', 'ts']).doNothing()).returning(['meter_id', 'ts']).execute()
        if (!inserted.length) return
        const isNew = new Set(inserted.map((r) => `${r.meter_id}:${new Date(r.ts).getTime()}`))
        // delete: a row given twice in one call was stored once.
        await addToBuckets(tx, rows.filter((x) => isNew.delete(`${x.meter_id}:${x.ts.getTime()}`)).map((r) => ({ ...r, sample: true })))
      })
    },

    /** Backfill: write finished 15-minute buckets (existing buckets are left as they are). */
    async recordAggregates(rows: Aggregate[]): Promise<void> {
      // 8000 rows × 8 columns stay under Postgres' 65,535 bind parameters; fewer, larger statements also
      // mean fewer runs of the rollup triggers (migration 0060).
      for (let i = 0; i < rows.length; i += 8000) {
        await db
          .insertInto('measurements_15m')
          .values(rows.slice(i, i + 8000).map(({ power_avg_kw, ...r }) => ({ ...r, power_sum: power_avg_kw, samples: 1 })))
          .onConflict((oc) => oc.columns(['meter_id', 'bucket']).doNothing())
          .execute()
      }
    },

    /** Delete raw readings older than `before`; their 15-minute aggregates stay. Returns rows deleted. */
    async thin(before: Date): Promise<number> {
      const r = await db.deleteFrom('measurements').where('ts', '<', before).executeTakeFirst()
      return Number(r.numDeletedRows)
    },

    /** The newest raw reading per meter of an installation within the last `maxAgeMs`. */
    async latest(installationId: number, maxAgeMs = 5 * 60_000) {
      const since = new Date(clock.ms() - maxAgeMs)
      return db
        .selectFrom('measurements as m')
        .innerJoin('meters as mt', 'mt.id', 'm.meter_id')
        .where('mt.installation_id', '=', installationId)
        .where('m.ts', '>=', since)
        .distinctOn('m.meter_id')
        .select(['m.meter_id', 'mt.meter_type', 'm.ts', 'm.power_kw', 'm.soc'])
        .orderBy('m.meter_id')
        .orderBy('m.ts', 'desc')
        .execute()
    },

    /** Energy and volume per meter type since `since` (from the 15-minute aggregates). */
    async totalsSince(installationId: number, since: Date): Promise<Map<MeterType, { energy_in_kwh: number; energy_out_kwh: number; volume_m3: number }>> {
      const rows = await db
        .selectFrom('measurements_15m as a')
        .innerJoin('meters as mt', 'mt.id', 'a.meter_id')
        .where('mt.installation_id', '=', installationId)
        .where('a.bucket', '>=', bucketOf(since))
        .groupBy('mt.meter_type')
        .select((eb) => [
          'mt.meter_type',
          eb.fn.sum<number>('a.energy_in_kwh').as('energy_in_kwh'),
          eb.fn.sum<number>('a.energy_out_kwh').as('energy_out_kwh'),
          eb.fn.sum<number>('a.volume_m3').as('volume_m3'),
        ])
        .execute()
      return new Map(rows.map((r) => [r.meter_type, { energy_in_kwh: Number(r.energy_in_kwh), energy_out_kwh: Number(r.energy_out_kwh), volume_m3: Number(r.volume_m3) }]))
    },

    /** The newest 15-minute bucket stored for any meter of an installation (backfill resumes after it). */
    async newestBucket(installationId: number): Promise<Date | null> {
      const row = await db
        .selectFrom('measurements_15m as a')
        .innerJoin('meters as mt', 'mt.id', 'a.meter_id')
        .where('mt.installation_id', '=', installationId)
        .select((eb) => eb.fn.max('a.bucket').as('newest'))
        .executeTakeFirst()
      return row?.newest ? new Date(row.newest as unknown as string) : null
    },
  }
}
export type MeasurementService = ReturnType<typeof createMeasurementService>
