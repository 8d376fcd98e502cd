import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { apiSession, logIn, serverNow } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

test("the Power page's Meters tile: the demo's simulated meters are current, with their source", async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  const meters = page.getByRole('region', { name: 'Meters', exact: true })
  for (const name of ['Main power connection', 'PV roof 30 kWp', 'Battery 20 kWh']) {
    const item = meters.getByRole('listitem', { name })
    await expect(item).toContainText('Current')
    await expect(item).toContainText(/Source: Simulator · last reading \d+ s ago/)
  }
  await expect(meters).not.toContainText('No current data')
})

test("a real meter's hour without readings and its counter reset show on its chart and on Power, not as measured 0", async ({ page, request }) => {
  const { headers } = await apiSession(request, 'admin@example.com')
  await logIn(page, 'admin@example.com')
  const installationId = Number(/\/facility\/(\d+)$/.exec(page.url())![1])
  const base = `/api/cockpit/installations/${installationId}`
  type Node = { id: number; description: string; children: Node[] }
  const objects = (await (await request.get(`${base}/objects/`, { headers })).json()) as { results: Node[] }
  const all = (nodes: Node[]): Node[] => nodes.flatMap((o) => [o, ...all(o.children)])
  const flat = all(objects.results).find((o) => o.description === 'Apartment 1')!
  // A heat meter whose register stands still: it adds no energy to any other spec's figures.
  const made = await request.post(`${base}/meters/`, { headers, data: { object_id: flat.id, meter_type: 'heat', name: 'Heat e2e gateway', source: 'ingest' } })
  expect(made.status()).toBe(201)
  const meterId = ((await made.json()) as { id: number }).id
  const key = (await (await request.post(`${base}/device_keys/`, { headers, data: { name: 'e2e gateway' } })).json()) as { id: number; key: string }
  try {
    const now = (await serverNow(page)).getTime()
    const reading = (ms: number, value: number) => ({ meter_id: meterId, timestamp: new Date(ms).toISOString(), measurand: 'Energy.Heat.Register', unit: 'kWh', value })
    const sent = await request.post('/api/ingest/v1/readings', {
      headers: { Authorization: `Bearer ${key.key}` },
      // Readings 3 h ago, then none until half an hour ago; then a register lower than before (a counter reset).
      data: { readings: [reading(now - 3 * 3600_000, 100), reading(now - 2.9 * 3600_000, 100), reading(now - 1800_000, 100), reading(now - 60_000, 100), reading(now, 7)] },
    })
    expect(sent.status()).toBe(202)
    expect(((await sent.json()) as { rejected: unknown[] }).rejected).toHaveLength(1)

    await page.goto(`/facility/${installationId}/charts?meter=${meterId}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Heat e2e gateway' })).toBeVisible()
    const notice = page.getByRole('note').filter({ hasText: 'Missing or set-aside meter data' })
    await expect(notice.getByRole('list', { name: 'Stretches without readings' })).toContainText(/Heat e2e gateway: no readings from \d\d\.\d\d\.\d\d, \d\d:\d\d to \d\d\.\d\d\.\d\d, \d\d:\d\d/)
    await expect(notice.getByRole('list', { name: 'Readings set aside' })).toContainText('register went down from 100 to 7 kWh')
    // The table's hours inside the gap say their data is missing.
    await page.getByText('Show the values as a table').click()
    await expect(page.getByRole('rowheader').filter({ hasText: 'data missing' }).first()).toBeVisible()

    await page.goto(`/facility/${installationId}/power`)
    const item = page.getByRole('region', { name: 'Meters', exact: true }).getByRole('listitem', { name: 'Heat e2e gateway' })
    await expect(item).toContainText('Data flagged')
    await expect(item).toContainText('Source: Ingestion API')
    await expect(item).toContainText(/register went down from 100 to 7 kWh/)
  } finally {
    await request.delete(`${base}/device_keys/${key.id}/`, { headers })
    expect((await request.delete(`${base}/meters/${meterId}/?purge=true`, { headers })).status()).toBe(204)
  }
})
