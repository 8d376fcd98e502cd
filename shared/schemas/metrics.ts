import { z } from 'zod'

const kw = z.number()

/**
 * GET /api/metrics/: the installation's live power flow. Power in kW, energy in kWh, water
 * in m3, all rounded to 2 decimals. Signs: grid.power_kw > 0 imports, < 0 exports; battery.power_kw > 0
 * charges, < 0 discharges. `grid`, `pv`, `battery`, `building` and `water` are null for a caller without
 * the overview permission (SPEC §6).
 */
export const Metrics = z.object({
  installation_id: z.number().int(),
  timestamp: z.string().nullable(),
  grid: z.object({ power_kw: kw, import_kw: kw, export_kw: kw }).nullable(),
  pv: z.object({ power_kw: kw, peak_kw: kw }).nullable(),
  battery: z.object({ power_kw: kw, soc: z.number(), capacity_kwh: z.number() }).nullable(),
  building: z.object({ power_kw: kw }).nullable(),
  charging_stations: z.object({ power_kw: kw, stations: z.record(z.string(), kw) }),
  e_sourced_today: z.number().nullable(),
  consumption_today: z.number().nullable(),
  water: z.object({ today_m3: z.number() }).nullable(),
})
export type Metrics = z.infer<typeof Metrics>
