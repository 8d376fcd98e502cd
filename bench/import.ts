/**
 * Configuration import at operator scale (docs/configuration-files.md, docs/performance.md): a file of
 * 200 installations, each like the demo (a building with 6 flats and common areas with a garage; main,
 * PV and battery meters; water, heat and power meters per flat; 6 simulator-run stations; a tariff,
 * three rates; 3 users, one with permissions), imported into a fresh embedded database by the operator's
 * console, as `npm run admin -- import FILE` does. Prints the file's size, the import's time (target
 * ≤ 60 s) and the rows created.
 * Usage: npm run bench:import [-- COUNT]   (200 by default)
 */
import { stringify } from 'yaml'
import { openDatabase } from '../server/db/connection.ts'
import { createDomain } from '../server/domain/index.ts'
import { createClock } from '../server/lib/clock.ts'
import type { ConfigurationFileInput } from '../shared/schemas/configuration.ts'

const COUNT = Number(process.argv[2] ?? 200)

const schedule = [{ start: '07:00', end: '20:00', monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0 }] as const
function installation(n: number): ConfigurationFileInput['installations'][number] {
  const building = `Building ${n}`
  const flats = Array.from({ length: 6 }, (_, i) => `${building} / Flat ${i + 1}`)
  const garage = `${building} / Common areas / Garage`
  return {
    name: `Residence ${String(n).padStart(3, '0')}`,
    timezone: 'Europe/Zurich',
    address: { street: 'Musterstrasse', building_number: String(n), zip: '8000', city: 'Zürich', country: 'CH' },
    operator: { name: 'Energie Service AG', street: 'Seestrasse', building_number: '44', zip: '8002', city: 'Zürich', country: 'CH', iban: 'CH4431999123000889012', vat_number: 'CHE-123.456.789 MWST', vat_rate: 8.1 },
    objects: [
      { path: building, type: 'building' },
      ...flats.map((path) => ({ path, type: 'apartment' as const })),
      { path: `${building} / Common areas`, type: 'common_area' },
      { path: garage, type: 'garage' },
    ],
    meters: [
      { name: 'Main power connection', type: 'main_power', object: building, serial: `M-${n}-MAIN`, source: 'ingest' },
      { name: 'PV roof 30 kWp', type: 'pv', object: building, serial: `M-${n}-PV`, capacity: 30 },
      { name: 'Battery 20 kWh', type: 'battery', object: building, serial: `M-${n}-BAT`, capacity: 20 },
      ...flats.flatMap((flat, i) => (['cold_water', 'hot_water', 'heat', 'power'] as const).map((type) => ({ name: `${type} flat ${i + 1}`, type, object: flat, serial: `M-${n}-${i + 1}-${type}` }))),
    ],
    stations: Array.from({ length: 6 }, (_, i) => ({ name: `Station ${i + 1}`, object: garage, capacity_kw: 11, phases: 3 as const, description: `Parking space ${i + 1}` })),
    tariffs: [{ name: 'Power tariff', valid_from: '2025-01-01', basic_rappen: 500, high_rappen_per_kwh: 29.5, low_rappen_per_kwh: 21, schedule: [...schedule] }],
    rates: [
      { kind: 'power', name: 'Power rate', start_date: '2025-01-01', prices: { general: 27, peak: 29.5, low: 21 } },
      { kind: 'water', name: 'Water rate', start_date: '2025-01-01', prices: { fresh_water: 210, warm_water_production: 850 } },
      { kind: 'heat', name: 'Heat rate', start_date: '2025-01-01', prices: { heat: 12.5 } },
    ],
    users: [
      { email: `admin${n}@residence.example`, first_name: 'Andrea', last_name: `Admin ${n}`, role: 'installation_admin' },
      { email: `flat1-${n}@residence.example`, first_name: 'Laura', last_name: `Flat ${n}`, role: 'installation_user', permissions: [{ station: 'Station 1', level: 'read' }, { object: flats[0], level: 'read', cost: true }] },
      { email: `flat2-${n}@residence.example`, first_name: 'Marco', last_name: `Flat ${n}`, role: 'installation_user' },
    ],
  }
}

const yaml = stringify({ cockpit_configuration: 1, installations: Array.from({ length: COUNT }, (_, i) => installation(i + 1)) } satisfies ConfigurationFileInput, { lineWidth: 0, aliasDuplicateObjects: false })
const t0 = performance.now()
const database = await openDatabase({ dataDir: '/nonexistent', memory: true })
const tOpen = performance.now()
const rows = async () => {
  const tables = ['installations', 'objects', 'meters', 'charging_stations', 'tariffs', 'rates', 'users', 'installation_users', 'permissions', 'audit_events'] as const
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, Number((await database.db.selectFrom(t).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)] as const)))
}
try {
  const domain = createDomain({ db: database.db, clock: createClock({}), jwtSecret: new Uint8Array(32) })
  const before = await rows()
  const t1 = performance.now()
  const result = await domain.configuration.import({ id: 0, is_superuser: true }, yaml, { dryRun: false })
  const t2 = performance.now()
  const after = await rows()
  const made = Object.entries(after).map(([t, n]) => `${t} ${n - before[t]}`).join(', ')
  console.log(`file: ${COUNT} installations, ${yaml.split('\n').length} lines, ${(yaml.length / 1024).toFixed(0)} KiB; database opened and migrated in ${((tOpen - t0) / 1000).toFixed(1)} s`)
  console.log(`import: ${((t2 - t1) / 1000).toFixed(1)} s (${((t2 - t1) / COUNT).toFixed(0)} ms per installation); ${result.summary.created} entities created`)
  console.log(`rows created: ${made}`)
} finally {
  await database.close()
}
