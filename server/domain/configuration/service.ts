import { stringify } from 'yaml'
import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import type { ConfigImportResult, ConfigurationFile } from '../../../shared/schemas/configuration.ts'
import type { InstallationService } from '../installations/service.ts'
import type { OcppService } from '../ocpp/service.ts'
import { parseConfiguration } from './file.ts'
import { readInstallation, toFileInstallation } from './state.ts'
import { applyInstallation } from './apply.ts'

/** Thrown to roll a dry run's transaction back after it did everything an import would. */
class DryRun extends Error {}

/** The tables an import writes that take their ids from a sequence (serial). */
const SEQUENCED = ['installations', 'objects', 'meters', 'charging_stations', 'tariffs', 'rates', 'users', 'permissions', 'audit_events'] as const

/**
 * Run `fn` (a dry run's work in transaction `tx`, rolled back afterwards) without consuming ids: a
 * rollback does not give back the sequence values the inserts took (PostgreSQL manual, "Sequence
 * Manipulation Functions": nextval is never rolled back), so a dry run followed by the import would
 * make ids with gaps, other than the import alone. The tables are locked against writes (EXCLUSIVE:
 * reads go on) for the dry run, so no one else takes a value meanwhile, and each sequence is set back
 * to where it stood (setval, itself outside the transaction) before the rollback releases the locks
 * (docs/decisions.md "Configuration files: a dry run takes no ids").
 */
async function withoutTakingIds<T>(tx: Db, fn: () => Promise<T>): Promise<T> {
  await sql`lock table ${sql.join(SEQUENCED.map((t) => sql.table(t)))} in exclusive mode`.execute(tx)
  const { rows } = await sql<{ seq: string; last_value: string | null; min_value: string }>`
    select s.schemaname || '.' || s.sequencename as seq, s.last_value, s.min_value
    from unnest(${[...SEQUENCED]}::text[]) as t(name)
    join pg_sequences s on s.schemaname || '.' || s.sequencename = pg_get_serial_sequence(t.name, 'id')`.execute(tx)
  try {
    return await fn()
  } finally {
    // A sequence never called starts again at its minimum, not after it.
    for (const r of rows) await sql`select setval(${r.seq}::regclass, ${r.last_value ?? r.min_value}::bigint, ${r.last_value !== null})`.execute(tx)
  }
}

/**
 * Configuration as code (docs/configuration-files.md): an installation's configuration exported as
 * YAML or JSON, and files of installations imported, as a dry run or applied. Each installation of a
 * file is one transaction through the provisioning services (server/domain/configuration/apply.ts), so
 * their checks and the audit trail apply; a dry run does exactly the same and rolls back, taking no ids.
 */
export function createConfigurationService({ db, clock, installations, ocpp, publicUrl }: { db: Db; clock: Clock; installations: InstallationService; ocpp: OcppService; publicUrl: string }) {
  return {
    /**
     * GET /api/cockpit/installations/{id}/configuration (admins and superusers; 403 residents, 404
     * unknown): the file of this one installation. 409 configurationNotExportable (see readInstallation).
     */
    async export(actor: Actor, id: number): Promise<ConfigurationFile> {
      if (!isAdmin(await installations.requireRole(actor, id))) throw Forbidden()
      const state = await readInstallation(db, id)
      if (!state) throw NotFound()
      return { cockpit_configuration: 1, installations: [toFileInstallation(state)] }
    },

    /** The file as YAML text (block style, keys in the format's order). */
    toYaml(file: ConfigurationFile): string {
      return stringify(file, { lineWidth: 0, aliasDuplicateObjects: false })
    },

    /**
     * POST /api/cockpit/configuration/import?dry_run=: import YAML `text`. Installations are found by
     * name: a superuser may create new ones; an installation's admin only changes installations they
     * administer (403 for any other name, also one that does not exist). Installations are applied in
     * file order, each in one transaction; the first refusal (400/404/409/422 keyed `line N, field`)
     * stops the import: that installation is not changed, the ones before it are (an import is
     * idempotent: run it again after the fix). A dry run applies nothing and shows no credentials.
     */
    async import(actor: Actor, text: string, { dryRun }: { dryRun: boolean }): Promise<ConfigImportResult> {
      const { config, where } = parseConfiguration(text)
      const result: ConfigImportResult = { dry_run: dryRun, installations: [], summary: { created: 0, updated: 0, unchanged: 0 }, changes: [], ocpp_credentials: [] }
      for (const [n, inst] of config.installations.entries()) {
        let done: Awaited<ReturnType<typeof applyInstallation>> | undefined
        try {
          await db.transaction().execute(async (tx) => {
            const apply = () => applyInstallation(tx, { actor, clock, ocpp, publicUrl }, inst, (p) => where(['installations', n, ...p]))
            if (!dryRun) return void (done = await apply())
            done = await withoutTakingIds(tx, apply)
            throw new DryRun()
          })
        } catch (err) {
          if (!(err instanceof DryRun)) throw err
        }
        result.installations.push({ name: inst.name, id: dryRun && done!.created ? null : done!.id })
        result.changes.push(...done!.changes)
        if (!dryRun) result.ocpp_credentials.push(...done!.credentials)
      }
      for (const c of result.changes) result.summary[c.change]++
      return result
    },
  }
}
export type ConfigurationService = ReturnType<typeof createConfigurationService>
