import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { Invalid } from '../../lib/errors.ts'
import type { ConfigInstallation } from '../../../shared/schemas/configuration.ts'
import { createInstallationService } from '../installations/service.ts'
import { createLoadSettings } from '../load/settings.ts'
import type { FilePath } from './file.ts'

type LoadFile = NonNullable<ConfigInstallation['load_management']>

/** A key of the settings' field errors (`circuits.1.parent_id`) in the file's terms (`circuits`, 1, `parent`). */
const fileField = (field: string): FilePath => field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p === 'parent_id' ? 'parent' : p === 'station_ids' ? 'stations' : p))

/**
 * Apply the `load_management` of a configuration file (docs/configuration-files.md) in transaction `tx`
 * through the settings service (server/domain/load/settings.ts: its checks and audit event): the circuits'
 * stations by key (OCPP id, else name, as `stationIds` knows them; 404 configurationUnknownStation), a bad
 * tree refused with the file's line and field. Returns the fields that differ from `before` (nothing
 * written when none).
 */
export async function applyLoadManagement(tx: Db, { actor, clock, installationId, before, file, stationIds, where }: {
  actor: Actor
  clock: Clock
  installationId: number
  before: ConfigInstallation['load_management']
  file: LoadFile
  stationIds: Map<string, number>
  where: (path: FilePath) => string
}): Promise<string[]> {
  const circuits = file.circuits.map((c, i) => ({
    id: c.id, name: c.name, parent_id: c.parent, limit_a: c.limit_a,
    station_ids: c.stations.map((key, k) => {
      const id = stationIds.get(key.toLowerCase())
      if (id === undefined) throw new Invalid({ [where(['load_management', 'circuits', i, 'stations', k])]: ['configurationUnknownStation'] }, {}, 404)
      return id
    }),
  }))
  const fields = (['enabled', 'grid_limit_a', 'grid_limit_kw', 'circuits', 'peak_shaving'] as const).filter((k) => JSON.stringify(before?.[k] ?? null) !== JSON.stringify(file[k]))
  if (before && !fields.length) return []
  const settings = createLoadSettings({ db: tx, clock, installations: createInstallationService({ db: tx, clock }) })
  try {
    await settings.put(actor, installationId, { enabled: file.enabled, grid_limit_a: file.grid_limit_a, grid_limit_kw: file.grid_limit_kw, circuits, peak_shaving: file.peak_shaving })
  } catch (err) {
    if (!(err instanceof Invalid)) throw err
    throw new Invalid(Object.fromEntries(Object.entries(err.fields).map(([f, m]) => [where(['load_management', ...fileField(f)]), m])), err.params, err.status as 400)
  }
  return fields
}
