import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrationNames } from '../connection.ts'
import { migrationOrderProblems, type ReleasedMigrations } from '../migration-order.ts'

const released = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'released.json'), 'utf8')) as ReleasedMigrations

describe('migration names across releases', () => {
  it('every released migration still exists, and every newer one sorts after the last released one', () => {
    expect(released.migrations.length).toBeGreaterThan(0)
    expect(migrationOrderProblems(released.migrations, migrationNames())).toEqual([])
  })

  it('names a new migration numbered below a released one, and a released one renamed', () => {
    const names = ['0001-initial', '0040-payments', '0110-device-heartbeat']
    expect(migrationOrderProblems(names, [...names, '0200-later'])).toEqual([])
    // The case of 0100-support-shortcuts, added while 0110 was on main.
    expect(migrationOrderProblems(names, [...names, '0100-support-shortcuts'])).toEqual([
      'new migration 0100-support-shortcuts sorts before the last released one, 0110-device-heartbeat: give it a number above',
    ])
    expect(migrationOrderProblems(names, ['0001-initial', '0041-payments', '0110-device-heartbeat'])).toEqual([
      'released migration 0040-payments is missing (renamed or deleted)',
      'new migration 0041-payments sorts before the last released one, 0110-device-heartbeat: give it a number above',
    ])
  })
})
