import type { Car, SimState } from './physics.ts'
import type { CarVisit } from './models/cars.ts'

/** A visit as JSON: instants as ISO strings. */
interface VisitJson { arrive: string; depart: string; energyNeededKwh: number; badge: CarVisit['badge']; rfidId?: number }
/**
 * The simulator state as saved in `simulator_state`: battery SoC (%), each station's car
 * (its visit, kWh delivered so far, badge, open session id) and demo guests, keyed by station id.
 */
export interface SavedState {
  version: 1
  soc: number
  cars: [number, (Omit<Car, 'visit'> & { visit: VisitJson }) | null][]
  guests: [number, VisitJson][]
}

const visitJson = (v: CarVisit): VisitJson => ({ arrive: v.arrive.toISOString(), depart: v.depart.toISOString(), energyNeededKwh: v.energyNeededKwh, badge: v.badge, ...(v.rfidId !== undefined ? { rfidId: v.rfidId } : {}) })
const visitOf = (v: VisitJson): CarVisit => ({ arrive: new Date(v.arrive), depart: new Date(v.depart), energyNeededKwh: v.energyNeededKwh, badge: v.badge, ...(v.rfidId !== undefined ? { rfidId: v.rfidId } : {}) })

/** The state to save. */
export function saveState(state: SimState): SavedState {
  return {
    version: 1,
    soc: state.soc,
    cars: [...state.cars].map(([id, car]) => [id, car && { ...car, visit: visitJson(car.visit) }]),
    guests: [...(state.guests ?? [])].map(([id, v]) => [id, visitJson(v)]),
  }
}

/** A saved state back (null when `saved` is not one this version wrote). */
export function restoreState(saved: unknown): SimState | null {
  const s = saved as SavedState | null
  if (!s || s.version !== 1 || typeof s.soc !== 'number') return null
  return {
    soc: s.soc,
    cars: new Map(s.cars.map(([id, car]) => [id, car && { ...car, visit: visitOf(car.visit) }])),
    guests: new Map(s.guests.map(([id, v]) => [id, visitOf(v)])),
  }
}
