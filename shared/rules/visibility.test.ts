import { describe, expect, it } from 'vitest'
import type { Access } from './permissions.ts'
import { maySeeSession, maySeeSessionPerson, projectSession } from './visibility.ts'
import type { ChargingSession } from '../schemas/session.ts'

const resident: Access = { user_id: 3, installation_id: 1, role: 'installation_user', cost: false, overview: false, stations: [1, 2], rfids: [1] }
const session = (over: Partial<ChargingSession>): ChargingSession => ({
  id: 9, station_id: 2, station_name: 'Station 2', rfid_id: 2, rfid_tag: '04A1B2C3D4E502', user_id: 2, start: '2026-02-02T10:00:00.000Z', end: null,
  energy_kwh: 1, high_kwh: 1, low_kwh: 0, price: 0.3, transaction_fee: 0, total: 0.3, status: 'charging', paid_on: null, invoice_url: null, ...over,
})

describe('personal data of charging sessions (ARCHITECTURE §4)', () => {
  it('a station reader sees another person’s session without card and user', () => {
    expect(maySeeSessionPerson(session({}), resident)).toBe(false)
    expect(projectSession(session({}), resident)).toMatchObject({ rfid_id: null, rfid_tag: null, user_id: null, price: null, energy_kwh: 1 })
  })
  it('hides the average price per kWh with the price, and keeps the solar share', () => {
    expect(projectSession(session({ price_per_kwh: 0.3, solar_share: 40 }), resident)).toMatchObject({ price: null, price_per_kwh: null, solar_share: 40 })
    expect(projectSession(session({ user_id: 3, price_per_kwh: 0.3 }), resident)).toMatchObject({ price_per_kwh: 0.3 })
  })
  it('the person who charged and admins see who it was', () => {
    expect(projectSession(session({ user_id: 3, rfid_id: null, rfid_tag: null }), resident)).toMatchObject({ user_id: 3, price: 0.3 })
    for (const role of ['installation_admin', 'superuser'] as const) {
      expect(projectSession(session({}), { ...resident, role, stations: 'all', rfids: 'all', cost: true })).toEqual(session({}))
    }
  })
  it('a reader of the card (its holder today) sees its tag only on sessions nobody was named for', () => {
    // Card 1 is the resident's today; user 2 charged with it before it was moved.
    expect(projectSession(session({ rfid_id: 1, rfid_tag: '04A1B2C3D4E501' }), resident)).toMatchObject({ rfid_id: null, rfid_tag: null, user_id: null })
    expect(maySeeSessionPerson(session({}), { ...resident, rfids: 'all' })).toBe(false)
    expect(projectSession(session({ rfid_id: 1, rfid_tag: '04A1B2C3D4E501', user_id: null }), resident)).toMatchObject({ rfid_id: 1, rfid_tag: '04A1B2C3D4E501' })
  })
  it('a resident sees only the sessions they charged; the cost switch adds those at stations and cards they read', () => {
    expect(maySeeSession(session({}), resident)).toBe(false)
    expect(maySeeSession(session({ rfid_id: 1 }), resident)).toBe(false)
    expect(maySeeSession(session({ user_id: 3, station_id: 99 }), resident)).toBe(true)
    expect(maySeeSession(session({}), { ...resident, cost: true })).toBe(true)
    expect(maySeeSession(session({ station_id: 99, rfid_id: 1 }), { ...resident, cost: true })).toBe(true)
    expect(maySeeSession(session({ station_id: 99 }), { ...resident, cost: true })).toBe(false)
    expect(maySeeSession(session({ station_id: 99 }), { ...resident, role: 'installation_admin' })).toBe(true)
  })
  it('the cost switch shows the price, not the person', () => {
    expect(projectSession(session({}), { ...resident, cost: true })).toMatchObject({ price: 0.3, rfid_tag: null, user_id: null })
  })
})
