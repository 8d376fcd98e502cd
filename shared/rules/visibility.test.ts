import { describe, expect, it } from 'vitest'
import type { Access } from './permissions.ts'
import { maySeeSessionPerson, projectSession } from './visibility.ts'
import type { ChargingSession } from '../schemas/session.ts'

const resident: Access = { user_id: 3, installation_id: 1, role: 'installation_user', cost: false, overview: false, stations: [1, 2], rfids: [1] }
const session = (over: Partial<ChargingSession>): ChargingSession => ({
  id: 9, station_id: 2, station_name: 'Station 2', rfid_id: 2, rfid_tag: '04A1B2C3D4E502', user_id: 2, start: '2026-02-02T10:00:00.000Z', end: null,
  energy_kwh: 1, high_kwh: 1, low_kwh: 0, price: 0.3, transaction_fee: 0, status: 'charging', paid_on: null, invoice_url: null, ...over,
})

describe('personal data of charging sessions (ARCHITECTURE §4)', () => {
  it('a station reader sees another person’s session without card and user', () => {
    expect(maySeeSessionPerson(session({}), resident)).toBe(false)
    expect(projectSession(session({}), resident)).toMatchObject({ rfid_id: null, rfid_tag: null, user_id: null, price: null, energy_kwh: 1 })
  })
  it('the person who charged, a reader of the card and admins see who it was', () => {
    expect(projectSession(session({ user_id: 3, rfid_id: null, rfid_tag: null }), resident)).toMatchObject({ user_id: 3, price: 0.3 })
    expect(projectSession(session({ rfid_id: 1, rfid_tag: '04A1B2C3D4E501' }), resident)).toMatchObject({ rfid_id: 1, rfid_tag: '04A1B2C3D4E501', user_id: 2 })
    expect(maySeeSessionPerson(session({}), { ...resident, rfids: 'all' })).toBe(true)
    for (const role of ['installation_admin', 'superuser'] as const) {
      expect(projectSession(session({}), { ...resident, role, stations: 'all', rfids: 'all', cost: true })).toEqual(session({}))
    }
  })
  it('the cost switch shows the price, not the person', () => {
    expect(projectSession(session({}), { ...resident, cost: true })).toMatchObject({ price: 0.3, rfid_tag: null, user_id: null })
  })
})
