/**
 * EV visits at a charging station: when a car plugs in, when it leaves, how much energy it
 * wants, and whether the driver badges in. A pure function of seed, station and local date.
 */
import { dayjs } from '../../../../shared/rules/formats.ts'
import { addDays, weekdayOf } from './local-clock.ts'
import { hash01 } from './random.ts'

export interface CarVisit {
  arrive: Date
  depart: Date
  energyNeededKwh: number
  badge: 'resident' | 'unknown' | 'none'
  /** The card a demo car presents (the plug_in control's `rfid_id`); scheduled visits leave it unset. */
  rfidId?: number
}

/** A visit in minutes from local midnight of its arrival date (departures may pass 1440). */
type Slot = { arrive: number; depart: number; energyNeededKwh: number; badge: CarVisit['badge'] }

const MIN_GAP = 15 // minutes between one car leaving and the next plugging in

/** Mean of two uniforms: a bell-ish draw in [0, 1) so most times land mid-window. */
const central = (a: number, b: number) => (a + b) / 2

/** Visits arriving on `date` at `station`, ignoring the car that may still be there from the day before. */
function rawSlots(date: string, seed: number, station: number): Slot[] {
  const u = (key: string) => hash01(seed, 'ev', station, date, key)
  const weekday = weekdayOf(date)
  const weekend = weekday >= 5
  // Friday and Saturday: home later, and no work the next morning.
  const beforeDayOff = weekday === 4 || weekday === 5
  // Each station's resident keeps a personal rhythm of up to ±45 minutes.
  const habit = (hash01(seed, 'ev-habit', station) - 0.5) * 90
  const energy = (key: string) => Math.round((5 + 35 * central(u(`${key}-e1`), u(`${key}-e2`)) ** 1.4) * 10) / 10
  const badge = (key: string): CarVisit['badge'] => {
    const b = u(`${key}-badge`)
    return b < 0.9 ? 'resident' : b < 0.95 ? 'unknown' : 'none'
  }

  const slots: Slot[] = []
  if (weekend && u('day') < 0.35) {
    const arrive = Math.round(600 + 360 * u('day-arrive'))
    slots.push({ arrive, depart: arrive + Math.round(60 + 180 * u('day-stay')), energyNeededKwh: energy('day'), badge: badge('day') })
  }
  if (u('evening') < (weekend ? 0.6 : 0.82)) {
    const window = beforeDayOff ? { from: 1050, span: 300 } : { from: 990, span: 240 }
    let arrive = Math.round(window.from + window.span * central(u('eve-a1'), u('eve-a2')) + habit)
    arrive = Math.min(1410, Math.max(960, arrive))
    if (slots.length > 0) arrive = Math.max(arrive, slots[0].depart + 30)
    const morning = beforeDayOff ? { from: 480, span: 210 } : { from: 390, span: 150 }
    const depart = 1440 + Math.round(morning.from + morning.span * u('eve-leave'))
    slots.push({ arrive, depart, energyNeededKwh: energy('eve'), badge: badge('eve') })
  }
  return slots
}

/** The instant of local wall-clock `minutes` after midnight of `date` in `tz` (DST-aware). */
function localInstant(date: string, minutes: number, tz: string): Date {
  const day = addDays(date, Math.floor(minutes / 1440))
  const m = ((minutes % 1440) + 1440) % 1440
  const hh = String(Math.floor(m / 60)).padStart(2, '0')
  const mm = String(m % 60).padStart(2, '0')
  return dayjs.tz(`${day} ${hh}:${mm}`, tz).toDate()
}

/**
 * The car visits that arrive on local date `date` ('YYYY-MM-DD' in `tz`) at station
 * `station` (0-based), sorted by arrival. Visits never overlap each other nor any visit
 * returned for the previous date (a car that stayed overnight has left, plus 15 min,
 * before the next one plugs in), so the engine can merge yesterday's and today's lists.
 * Typical weekday: one resident arriving 16:30–20:30, leaving next morning 06:30–09:00;
 * weekends later, sometimes with a 1–4 h daytime visit; some days none.
 * `energyNeededKwh` is 5–40 kWh (0.1 kWh steps, mostly 10–25); `badge` is 'resident'
 * (~90 %), 'unknown' (~5 %, an unregistered card) or 'none' (~5 %, no badge presented).
 */
export function carVisits(input: { date: string; tz: string; seed: number; station: number }): CarVisit[] {
  const { date, tz, seed, station } = input
  // Today's arrivals wait for every raw visit of yesterday to leave; yesterday's returned
  // visits only ever start later than their raw slots, never depart later, so this suffices.
  const yesterday = rawSlots(addDays(date, -1), seed, station)
  const notBefore = Math.max(-Infinity, ...yesterday.map((s) => s.depart - 1440 + MIN_GAP))
  const visits: CarVisit[] = []
  for (const slot of rawSlots(date, seed, station)) {
    const arrive = Math.max(slot.arrive, notBefore)
    if (slot.depart - arrive < 45) continue
    visits.push({
      arrive: localInstant(date, arrive, tz),
      depart: localInstant(date, slot.depart, tz),
      energyNeededKwh: slot.energyNeededKwh,
      badge: slot.badge,
    })
  }
  return visits
}
