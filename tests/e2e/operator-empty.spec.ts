import { expect, test } from '@playwright/test'
import { existsSync } from 'node:fs'
import { E2E_EMPTY_ADMIN, E2E_EMPTY_URL } from '../../config/playwright.config.ts'
import { connectChargePoint, type ChargePoint } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

// The second e2e server: an empty database, DEMO off, the first superuser from ADMIN_EMAIL/ADMIN_PASSWORD.
test.use({ baseURL: E2E_EMPTY_URL })

let cp: ChargePoint | null = null
test.afterEach(async () => {
  await cp?.close({ force: true }).catch(() => undefined)
  cp = null
})

test('from an empty database the operator sets up a facility and its OCPP charge point shows Available', async ({ page }) => {
  // The first start (README "Production start"): the superuser of ADMIN_* signs in and, with no
  // installation yet, lands on the operator's Installations list.
  const setupStatus = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/setup')
  await page.goto('/login')
  // No demo here: the login page offers no demo accounts.
  expect(((await (await setupStatus).json()) as { demo: unknown }).demo).toBeNull()
  await expect(page.getByRole('region', { name: 'Demo facility' })).toHaveCount(0)
  await page.getByLabel('E-mail').fill(E2E_EMPTY_ADMIN.email)
  await page.getByLabel('Password', { exact: true }).fill(E2E_EMPTY_ADMIN.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/operator\/installations$/)
  await expect(page.getByText('There is no installation yet.')).toBeVisible()

  // A new installation.
  await page.getByRole('button', { name: 'New installation' }).click()
  const form = page.getByRole('region', { name: 'New installation' })
  await form.getByLabel('Name').fill('Sonnenhof Thun')
  await form.getByLabel('Street').fill('Seestrasse')
  await form.getByLabel('Number').fill('12')
  await form.getByLabel('Postcode').fill('3600')
  await form.getByLabel('City').fill('Thun')
  await form.getByRole('button', { name: 'Create installation' }).click()
  await expect(page.getByText('The installation Sonnenhof Thun was created.')).toBeVisible()
  await expect(page.getByRole('region', { name: 'All installations' }).getByRole('link', { name: 'Sonnenhof Thun' })).toBeVisible()
  await page.getByRole('link', { name: 'Add its buildings and flats' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+\/management\/objects$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Buildings and flats' })).toBeVisible()

  // A building with two flats.
  await page.getByRole('button', { name: 'Add building' }).click()
  const building = page.getByRole('form', { name: 'Add building' })
  await building.getByLabel('Name').fill('Haus A')
  await building.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Haus A was added.')).toBeVisible()
  for (const flat of ['Flat 1', 'Flat 2']) {
    await page.getByRole('button', { name: 'Add an object inside Haus A' }).click()
    const child = page.getByRole('form', { name: 'New object inside Haus A' })
    await child.getByLabel('Name').fill(flat)
    await expect(child.getByLabel('Kind')).toHaveValue('apartment')
    await child.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(`${flat} was added.`)).toBeVisible()
  }
  const tree = page.getByRole('region', { name: 'Objects' })
  await expect(tree.getByText('Flat 1', { exact: true })).toBeVisible()
  await expect(tree.getByText('Flat 2', { exact: true })).toBeVisible()

  // A main meter and a PV meter on the building.
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  await sidebar.getByRole('link', { name: 'Meters' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Meters' })).toBeVisible()
  for (const [name, kind] of [['Main meter', 'main_power'], ['PV roof', 'pv']] as const) {
    await page.getByRole('button', { name: 'Add meter' }).click()
    const meter = page.getByRole('region', { name: 'New meter' })
    await meter.getByLabel('Name').fill(name)
    await meter.getByLabel('Object').selectOption({ label: 'Haus A' })
    await meter.getByLabel('Kind of meter').selectOption(kind)
    await meter.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(`The meter ${name} was added.`)).toBeVisible()
  }
  const meters = page.getByRole('region', { name: 'Meters of the installation' })
  await expect(meters.getByRole('listitem').filter({ hasText: 'Main meter' })).toContainText('Main power meter (kWh) · Haus A')
  await expect(meters.getByRole('listitem').filter({ hasText: 'PV roof' })).toContainText('PV (kWh) · Haus A')

  // A charging station with an OCPP charge point id; its credentials are shown once.
  await sidebar.getByRole('link', { name: 'Charging station setup' }).click()
  await page.getByRole('button', { name: 'Add charging station' }).click()
  const station = page.getByRole('region', { name: 'New charging station' })
  await station.getByLabel('Name').fill('Wallbox P1')
  await station.getByLabel('Object').selectOption({ label: 'Haus A' })
  await station.getByLabel('OCPP charge point id (optional)').fill('THUN-P1')
  await station.getByRole('button', { name: 'Add charging station' }).click()
  const shown = page.getByRole('region', { name: 'OCPP credentials of Wallbox P1' })
  await expect(shown).toBeVisible()
  await expect(shown.getByRole('heading')).toBeFocused()
  const value = (label: string) => shown.getByRole('definition').filter({ has: page.getByRole('button', { name: `Copy ${label}` }) }).locator('code').innerText()
  const id = await value('Charge point id')
  const password = await value('Password')
  const url = await value('URL (OCPP server)')
  expect(id).toBe('THUN-P1')
  expect(url).toBe(`${E2E_EMPTY_URL.replace(/^http/, 'ws')}/ocpp/THUN-P1`)
  await shown.getByRole('button', { name: 'I have saved them' }).click()
  await expect(shown).toBeHidden()

  // The electrician enters them into the wallbox: it connects, boots and reports its connector free.
  cp = await connectChargePoint(url, id, password)
  expect(await cp.call('BootNotification', { chargePointVendor: 'Elinta', chargePointModel: 'CityCharge' })).toMatchObject({ status: 'Accepted' })
  const { currentTime } = (await cp.call('Heartbeat', {})) as { currentTime: string }
  await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: currentTime })

  // Power lists the station; its page says the charge point is connected and Available.
  await sidebar.getByRole('link', { name: 'Power', exact: true }).click()
  await page.getByRole('link', { name: 'Details of Wallbox P1' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Wallbox P1' })).toBeVisible()
  await page.getByRole('tablist', { name: 'Station pages' }).getByRole('tab', { name: 'Management' }).click()
  const ocpp = page.getByRole('region', { name: 'OCPP charge point' })
  const field = (term: string) => ocpp.getByRole('term').filter({ hasText: term }).locator('xpath=following-sibling::dd')
  await expect(field('Connection')).toHaveText('Connected')
  await expect(field('Last OCPP status')).toHaveText('Available')
})
