import { expect, test } from '@playwright/test'
import type { APIRequestContext, Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { logIn, PASSWORD, settle } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

// The operator's screens on the demo server. Each test works on installations of its own (made through
// the API) and deletes them afterwards, so the demo installation the other specs read stays as it is.

const made: number[] = []

async function superToken(request: APIRequestContext): Promise<string> {
  const r = await request.post('/api/authentication/token/', { data: { email: 'super@example.com', password: PASSWORD } })
  expect(r.ok()).toBe(true)
  return ((await r.json()) as { access: string }).access
}

/** A new installation named `name` in `city` (superuser, POST /api/cockpit/installations/): its id. */
async function newInstallation(request: APIRequestContext, name: string, city: string): Promise<number> {
  const r = await request.post('/api/cockpit/installations/', {
    headers: { Authorization: `Bearer ${await superToken(request)}` },
    data: { name, timezone: 'Europe/Zurich', address: { street: 'Bahnhofstrasse', building_number: '1', zip: '3000', city, country: 'CH' } },
  })
  expect(r.status()).toBe(201)
  const id = ((await r.json()) as { id: number }).id
  made.push(id)
  return id
}

test.afterAll(async ({ request }) => {
  const headers = { Authorization: `Bearer ${await superToken(request)}` }
  for (const id of made.splice(0)) {
    await request.post(`/api/cockpit/installations/${id}/unarchive`, { headers })
    expect([204, 404]).toContain((await request.delete(`/api/cockpit/installations/${id}/`, { headers })).status())
  }
})

/** The Installations list's rows (links to open ones, plain names of archived ones). */
const listed = (page: Page) => page.getByRole('region', { name: 'All installations' }).getByRole('listitem')

test('the Installations list finds installations by name and city; one is archived after confirming and restored', async ({ page }) => {
  const suffix = String(Date.now() % 100_000)
  await newInstallation(page.request, `Lindenhof ${suffix}`, 'Olten')
  await newInstallation(page.request, `Rosenweg ${suffix}`, 'Chur')
  await logIn(page, 'super@example.com')
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Installations' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Installations' })).toBeVisible()

  const search = page.getByLabel('Search installations')
  await search.fill(`Lindenhof ${suffix}`)
  await expect(listed(page)).toHaveCount(1)
  await expect(listed(page).first()).toContainText('Olten')
  await search.fill('chur')
  await expect(listed(page).filter({ hasText: `Rosenweg ${suffix}` })).toHaveCount(1)
  await expect(listed(page).filter({ hasText: `Lindenhof ${suffix}` })).toHaveCount(0)
  await search.fill('no such place anywhere')
  await expect(page.getByText('No installation matches your search.')).toBeVisible()

  // Archive: a confirmation that says what happens; cancelling changes nothing.
  await search.fill(suffix)
  await expect(listed(page)).toHaveCount(2)
  const row = listed(page).filter({ hasText: `Lindenhof ${suffix}` })
  await row.getByRole('button', { name: `Archive Lindenhof ${suffix}` }).click()
  const dialog = page.getByRole('dialog', { name: `Archive Lindenhof ${suffix}?` })
  await expect(dialog).toContainText('becomes read-only')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(row.getByRole('link', { name: `Lindenhof ${suffix}` })).toBeVisible()
  await row.getByRole('button', { name: `Archive Lindenhof ${suffix}` }).click()
  await dialog.getByRole('button', { name: 'Archive' }).click()
  await expect(page.getByText(`Lindenhof ${suffix} was archived.`)).toBeVisible()
  await expect(row).toContainText('Archived on')
  await expect(row.getByRole('link')).toHaveCount(0)
  // It left the facility selector; the other one is in it.
  await page.getByRole('link', { name: 'Back to facilities' }).click()
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  const selector = sidebar.getByLabel('Facility')
  await expect(selector.locator('option', { hasText: `Rosenweg ${suffix}` })).toHaveCount(1)
  await expect(selector.locator('option', { hasText: `Lindenhof ${suffix}` })).toHaveCount(0)

  // Restore: back in the list and in the selector.
  await sidebar.getByRole('link', { name: 'Installations' }).click()
  await search.fill(suffix)
  await row.getByRole('button', { name: `Restore Lindenhof ${suffix}` }).click()
  const restore = page.getByRole('dialog', { name: `Restore Lindenhof ${suffix}?` })
  await expect(restore).toContainText('can be changed again')
  await restore.getByRole('button', { name: 'Restore' }).click()
  await expect(page.getByText(`Lindenhof ${suffix} was restored.`)).toBeVisible()
  await expect(row.getByRole('link', { name: `Lindenhof ${suffix}` })).toBeVisible()
  await page.getByRole('link', { name: 'Back to facilities' }).click()
  await expect(selector.locator('option', { hasText: `Lindenhof ${suffix}` })).toHaveCount(1)
})

test('Buildings and flats: buildings and a flat are added, the flat moves to the other building, a non-empty building is not deleted', async ({ page }) => {
  const id = await newInstallation(page.request, `Objects ${Date.now() % 100_000}`, 'Aarau')
  await logIn(page, 'super@example.com')
  await page.goto(`/facility/${id}/management/objects`)
  await expect(page.getByRole('heading', { level: 1, name: 'Buildings and flats' })).toBeVisible()
  await expect(page.getByText('There are no objects yet.')).toBeVisible()
  for (const name of ['Haus Nord', 'Haus Süd']) {
    await page.getByRole('button', { name: 'Add building' }).click()
    const form = page.getByRole('form', { name: 'Add building' })
    await form.getByLabel('Name').fill(name)
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(`${name} was added.`)).toBeVisible()
  }
  await page.getByRole('button', { name: 'Add an object inside Haus Nord' }).click()
  const child = page.getByRole('form', { name: 'New object inside Haus Nord' })
  await child.getByLabel('Name').fill('Wohnung 3.1')
  await child.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Wohnung 3.1 was added.')).toBeVisible()
  const tree = page.getByRole('region', { name: 'Objects' })
  /** The list item of object `name` (its row and everything inside it). */
  const item = (name: string) => tree.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) }).last()
  const nord = tree.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Edit Haus Nord' }) })
  const sued = tree.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Edit Haus Süd' }) })
  await expect(nord.getByText('Wohnung 3.1', { exact: true })).toBeVisible()

  // Move: the flat goes inside the other building.
  await item('Wohnung 3.1').getByRole('button', { name: 'Edit Wohnung 3.1' }).click()
  const edit = page.getByRole('form', { name: 'Edit Wohnung 3.1' })
  await edit.getByLabel('Inside').selectOption({ label: 'Haus Süd' })
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Wohnung 3.1 was saved.')).toBeVisible()
  await expect(sued.getByText('Wohnung 3.1', { exact: true })).toBeVisible()
  await expect(nord.getByText('Wohnung 3.1', { exact: true })).toHaveCount(0)

  // A building with a flat in it is not deleted: the dialog warns, the server says what it holds.
  await sued.getByRole('button', { name: 'Delete Haus Süd' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete Haus Süd?' })
  await expect(dialog).toContainText('only be deleted when it is empty')
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('alert')).toHaveText('The object is not empty (1 sub-object, 0 meters, 0 charging stations). Remove or move them first.')
  await expect(sued).toBeVisible()

  // An empty one is.
  await nord.getByRole('button', { name: 'Delete Haus Nord' }).click()
  await page.getByRole('dialog', { name: 'Delete Haus Nord?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Haus Nord was deleted.')).toBeVisible()
  await expect(tree.getByText('Haus Nord', { exact: true })).toHaveCount(0)
})

test('Meters: a meter is added, edited and deleted with its measurements kept', async ({ page }) => {
  const id = await newInstallation(page.request, `Meters ${Date.now() % 100_000}`, 'Zug')
  const headers = { Authorization: `Bearer ${await superToken(page.request)}` }
  const building = await page.request.post(`/api/cockpit/installations/${id}/objects/`, { headers, data: { description: 'Haus West', parent_object_id: null, object_type: 'building' } })
  expect(building.status()).toBe(201)
  await logIn(page, 'super@example.com')
  await page.goto(`/facility/${id}/management/meters`)
  await expect(page.getByRole('heading', { level: 1, name: 'Meters' })).toBeVisible()
  await expect(page.getByText('There are no meters yet.')).toBeVisible()

  await page.getByRole('button', { name: 'Add meter' }).click()
  const form = page.getByRole('region', { name: 'New meter' })
  await form.getByLabel('Name').fill('Cold water house')
  await form.getByLabel('Kind of meter').selectOption('cold_water')
  await expect(form.getByText('m3', { exact: true })).toBeVisible()
  await form.getByLabel('Serial number').fill('CW-1001')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('The meter Cold water house was added.')).toBeVisible()
  const list = page.getByRole('region', { name: 'Meters of the installation' })
  const row = list.getByRole('listitem').filter({ hasText: 'Cold water house' })
  await expect(row).toContainText('Cold water (m3) · Haus West')
  await expect(row).toContainText('Serial number: CW-1001')

  await row.getByRole('button', { name: 'Edit Cold water house' }).click()
  const edit = page.getByRole('region', { name: 'Edit Cold water house' })
  await expect(edit.getByLabel('Serial number')).toHaveValue('CW-1001')
  await edit.getByLabel('Name').fill('Cold water West')
  await edit.getByLabel('Serial number').fill('CW-1002')
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('The meter Cold water West was saved.')).toBeVisible()
  const renamed = list.getByRole('listitem').filter({ hasText: 'Cold water West' })
  await expect(renamed).toContainText('Serial number: CW-1002')

  await renamed.getByRole('button', { name: 'Delete Cold water West' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete the meter Cold water West?' })
  await expect(dialog.getByLabel(/Keep the measurements/)).toBeChecked()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('The meter Cold water West was deleted; its measurements are kept.')).toBeVisible()
  await expect(page.getByText('There are no meters yet.')).toBeVisible()
  // Archived, not gone: the API still has it, with the time it was archived.
  const meters = (await (await page.request.get(`/api/cockpit/installations/${id}/meters/?include_archived=true`, { headers })).json()) as { results: { name: string; archived_at: string | null }[] }
  expect(meters.results).toEqual([expect.objectContaining({ name: 'Cold water West', archived_at: expect.any(String) })])
})

test('Charging stations: an admin changes a station’s capacity and phases', async ({ page }) => {
  const id = await newInstallation(page.request, `Stations ${Date.now() % 100_000}`, 'Thun')
  const headers = { Authorization: `Bearer ${await superToken(page.request)}` }
  const building = (await (await page.request.post(`/api/cockpit/installations/${id}/objects/`, { headers, data: { description: 'Haus Ost', parent_object_id: null, object_type: 'building' } })).json()) as { id: number }
  expect((await page.request.post(`/api/cockpit/installations/${id}/charging_stations/`, { headers, data: { name: 'Wallbox Ost', object_id: building.id, capacity_kw: 11, phases: 3 } })).status()).toBe(201)
  await logIn(page, 'super@example.com')
  await page.goto(`/facility/${id}/management/charging-stations`)
  const row = page.getByRole('region', { name: 'Charging stations of the installation' }).getByRole('listitem').filter({ hasText: 'Wallbox Ost' })
  await expect(row).toContainText('3 phases')
  await row.getByRole('button', { name: 'Change capacity and phases of Wallbox Ost' }).click()
  const form = page.getByRole('form', { name: 'Capacity and phases of Wallbox Ost' })
  await form.getByLabel('Capacity (kW)').fill('400')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByRole('alert')).toBeVisible()
  await form.getByLabel('Capacity (kW)').fill('22')
  await form.getByLabel('Phases').selectOption('1')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('The charging station Wallbox Ost was saved.')).toBeVisible()
  await expect(row).toContainText('1 phase')
  const stations = (await (await page.request.get(`/api/cockpit/installations/${id}/charging_stations/`, { headers })).json()) as { results: { capacity_kw: number; phases: number }[] }
  expect(stations.results).toEqual([expect.objectContaining({ capacity_kw: 22, phases: 1 })])
})

test('at 360 px the operator screens need no sideways scrolling', async ({ page }) => {
  const id = await newInstallation(page.request, `Narrow ${Date.now() % 100_000}`, 'Sion')
  const headers = { Authorization: `Bearer ${await superToken(page.request)}` }
  const building = (await (await page.request.post(`/api/cockpit/installations/${id}/objects/`, { headers, data: { description: 'Haus mit einem sehr langen Namen am Hang', parent_object_id: null, object_type: 'building' } })).json()) as { id: number }
  for (const [name, meter_type] of [['Hauptzähler Allgemeinstrom', 'main_power'], ['Photovoltaik Dach Süd', 'pv']] as const) {
    expect((await page.request.post(`/api/cockpit/installations/${id}/meters/`, { headers, data: { object_id: building.id, meter_type, name, serial: `SN-${meter_type}-0001` } })).status()).toBe(201)
  }
  expect((await page.request.post(`/api/cockpit/installations/${id}/charging_stations/`, { headers, data: { name: 'Wallbox Einstellhalle', object_id: building.id, capacity_kw: 11, phases: 3 } })).status()).toBe(201)
  await page.setViewportSize({ width: 360, height: 740 })
  await logIn(page, 'super@example.com')
  const wide: Record<string, string[]> = {}
  for (const route of ['/operator/installations', `/facility/${id}/management/installation`, `/facility/${id}/management/objects`, `/facility/${id}/management/meters`, `/facility/${id}/management/charging-stations`]) {
    await page.goto(route)
    await settle(page)
    const found = await page.evaluate(() => [
      ...(document.documentElement.scrollWidth > document.documentElement.clientWidth ? [`page: ${document.documentElement.scrollWidth - document.documentElement.clientWidth} px`] : []),
      ...[...document.querySelectorAll<HTMLElement>('main *')]
        .filter((el) => el.checkVisibility() && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth - el.clientWidth} px`),
    ])
    if (found.length) wide[route] = found
  }
  expect(wide).toEqual({})
})
