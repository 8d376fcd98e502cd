import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn, PASSWORD } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

// The facility goes offline, an admin changes a mode, it shows pending, the facility comes
// back, the change is applied once and journaled.
test('a change made while the facility is offline waits, then is applied once and journaled', async ({ page, request }) => {
  test.setTimeout(120_000)
  const token = (await (await request.post('/api/authentication/token/', { data: { email: 'admin@example.com', password: PASSWORD } })).json()).access as string
  const headers = { Authorization: `Bearer ${token}` }
  const connection = (online: boolean) => request.post('/api/cockpit/installations/1/simulator/connection', { headers, data: { online } })
  await logIn(page, 'admin@example.com')
  const facilityAlert = page.getByRole('alert').filter({ hasText: 'The facility is offline' })
  await expect(facilityAlert).toHaveCount(0)

  try {
    expect((await connection(false)).status()).toBe(202)
    // Every screen shows the SPEC alert with the since-date (here: Home, after the next look at the facility).
    await page.reload()
    await expect(facilityAlert).toContainText(/Offline since .*\d/)
    await expect(facilityAlert).toContainText('Changes are stored and sent as soon as it is back online.')
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Charging Sessions' }).click()
    await expect(facilityAlert).toBeVisible()

    // Power: the live pill does not say "Live" for an offline facility.
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Facility offline' })).toBeVisible()
    // Nor does a station card say "Ready": its status is the last one known.
    const stationCard = (name: string) => page.getByRole('article', { name, exact: true })
    await expect(stationCard('Station 1').getByText('Unknown: facility offline')).toBeVisible()
    await expect(stationCard('Station 1')).toContainText(/Last known: /)
    await expect(page.getByRole('main').getByText('Ready', { exact: true })).toHaveCount(0)
    await page.getByRole('link', { name: 'Details of Station 5' }).click()
    const tabs = page.getByRole('tablist', { name: 'Station pages' })
    await tabs.getByRole('tab', { name: 'Management' }).click()
    await expect(page.getByLabel('Charging mode')).toHaveValue('rfid')
    await page.getByLabel('Charging mode').selectOption('instant')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Saved. The facility is offline: the change is sent as soon as it is back online.')).toBeVisible()

    // Pending on its station: the mode is still RFID, the change waits.
    await tabs.getByRole('tab', { name: 'Status' }).click()
    const card = page.getByRole('tabpanel').getByRole('article')
    const waiting = card.getByRole('note', { name: 'Waiting for the facility' })
    await expect(waiting).toContainText('Charging mode: Instant', { timeout: 15_000 })
    await expect(card).toContainText('RFID')

    // The facility comes back: its next heartbeat sends the change.
    expect((await connection(true)).status()).toBe(202)
    await expect(waiting).toHaveCount(0, { timeout: 30_000 })
    await expect(card.getByText('Instant', { exact: true })).toBeVisible()
    await expect(facilityAlert).toHaveCount(0, { timeout: 30_000 })

    // Journaled once.
    await tabs.getByRole('tab', { name: 'Journal' }).click()
    const journal = page.getByRole('list', { name: 'Journal' })
    await expect(journal.getByText('Sent after the facility reconnected: Charging mode changed to Instant')).toHaveCount(1)
  } finally {
    await connection(true)
    await request.patch('/api/cockpit/installations/1/charging_stations/5/', { headers, data: { charging_mode: 'rfid' } })
  }
})

// RFID cards: a card's allowed stations changed while offline wait on the card and are sent once on reconnect.
test('an RFID card changed while the facility is offline shows the change pending until it is sent', async ({ page, request }) => {
  test.setTimeout(120_000)
  const token = (await (await request.post('/api/authentication/token/', { data: { email: 'admin@example.com', password: PASSWORD } })).json()).access as string
  const headers = { Authorization: `Bearer ${token}` }
  const connection = (online: boolean) => request.post('/api/cockpit/installations/1/simulator/connection', { headers, data: { online } })
  const cards = (await (await request.get('/api/cockpit/installations/1/rfids/', { headers })).json()).results as { id: number; tag: string }[]
  const card = cards.find((c) => c.tag === '04A1B2C3D4E505')!
  await logIn(page, 'admin@example.com')

  try {
    expect((await connection(false)).status()).toBe(202)
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'RFIDs' }).click()
    await page.getByRole('button', { name: 'Edit RFID 04A1B2C3D4E505' }).click()
    await page.getByRole('checkbox', { name: 'All charging stations' }).uncheck()
    await page.getByRole('checkbox', { name: 'Station 2', exact: true }).check()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Saved. The facility is offline: the change is sent to the stations as soon as it is back online.' })).toBeVisible()
    const item = page.getByRole('listitem', { name: '04A1B2C3D4E505' })
    await expect(item).toContainText('All charging stations')
    await expect(item).toContainText('Waiting for the facility: Station 2')

    expect((await connection(true)).status()).toBe(202)
    await expect.poll(async () => {
      await page.reload()
      return item.textContent()
    }, { timeout: 30_000, intervals: [1000] }).not.toContain('Waiting for the facility')
    await expect(item).toContainText('Station 2')
    await expect(item).not.toContainText('All charging stations')
    const journal = await (await request.get('/api/cockpit/installations/1/charging_stations/2/journal', { headers, params: { entry_type: 'journal_entry' } })).json()
    expect(journal.results.filter((e: { detail: string; rfid: string }) => e.detail === 'offline_applied:card_stations' && e.rfid === '04A1B2C3D4E505')).toHaveLength(1)
  } finally {
    await connection(true)
    await request.patch(`/api/cockpit/installations/1/rfids/${card.id}/`, { headers, data: { all_stations: true } })
  }
})
