import type { Topic } from '../../shared/live.ts'
import type { Access } from '../../shared/rules/permissions.ts'
import { projectEnergyReturn, projectMetrics, projectSessions, projectStations } from '../../shared/rules/visibility.ts'
import type { PageOf } from '../../shared/schemas/common.ts'
import type { Metrics } from '../../shared/schemas/metrics.ts'
import type { Station } from '../../shared/schemas/station.ts'
import type { ChargingSession } from '../../shared/schemas/session.ts'
import type { EnergyReturn } from '../../shared/schemas/installation.ts'

/** Key a list's records by id (ARCHITECTURE §5: a patch path names a record, never an array index). */
export function byId<T extends { id: number }>(list: readonly T[]): Record<string, T> {
  const out: Record<string, T> = {}
  for (const r of list) out[r.id] = r
  return out
}

/** Turn an upstream answer into the topic's state: lists become id-keyed collections. */
export function toTopicState(topic: Topic, body: unknown): unknown {
  if (topic === 'stations' || topic === 'sessions') return byId((body as PageOf<{ id: number }>).results)
  return body
}

/** What a subscriber with `access` receives of a topic's state (shared/rules/visibility.ts). */
export function project(topic: Topic, state: unknown, access: Access): unknown {
  switch (topic) {
    case 'metrics':
      return projectMetrics(state as Metrics, access)
    case 'stations':
      return projectStations(state as Record<string, Station>, access)
    case 'sessions':
      return projectSessions(state as Record<string, ChargingSession>, access)
    case 'energy_return':
      return projectEnergyReturn(state as EnergyReturn, access)
    case 'info':
      return state
  }
}
