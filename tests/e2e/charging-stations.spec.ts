import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { existsSync } from 'node:fs'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

const PASSWORD = 'Cockpit-2026!'

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

async function openStation(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Power', exact: true }).click()
  await page.getByRole('link', { name: `Details of ${name}` }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

test('an admin manages the timers of a station in its Timer tab and reads its journal', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await openStation(page, 'Station 4')
  const tabs = page.getByRole('tablist', { name: 'Station pages' })
  await expect(tabs.getByRole('tab', { name: 'Status', selected: true })).toBeVisible()
  await expect(page.getByRole('tabpanel').getByRole('article')).toBeVisible()
  // The status code is named in words, not as the raw constant.
  await expect(page.getByRole('tabpanel')).toContainText(/Status code: \d+ \([A-Z][a-z]/)
  await expect(page.getByRole('tabpanel')).not.toContainText(/[A-Z]+_[A-Z_]+/)

  // Keyboard: the arrow key moves to the Timer tab.
  await tabs.getByRole('tab', { name: 'Status' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(tabs.getByRole('tab', { name: 'Timer', selected: true })).toBeFocused()
  const list = page.getByRole('list', { name: 'Timers' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(list.getByRole('listitem', { name: '22:00 Night charging' })).toContainText('Every day')

  await page.getByRole('button', { name: 'Add timer' }).click()
  const form = page.getByRole('form', { name: 'Add timer' })
  await form.getByLabel('Monday').check()
  await form.getByLabel('Friday').check()
  await form.getByLabel('Start time').fill('12:15')
  await form.getByLabel('Charging mode').selectOption('instant')
  await form.getByLabel(/Description/).fill('Lunch boost')
  await form.getByRole('button', { name: 'Save' }).click()
  const lunch = list.getByRole('listitem', { name: '12:15 Lunch boost' })
  await expect(lunch).toContainText('Mon, Fri')

  await lunch.getByRole('button', { name: 'Edit timer 12:15' }).click()
  await page.getByRole('form', { name: 'Edit timer' }).getByLabel('Charging mode').selectOption('solar')
  await page.getByRole('form', { name: 'Edit timer' }).getByRole('button', { name: 'Save' }).click()
  await expect(lunch).toContainText('Solar')

  await lunch.getByRole('button', { name: 'Delete timer 12:15' }).click()
  await page.getByRole('dialog', { name: 'Delete this timer?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(list.getByRole('listitem')).toHaveCount(2)

  await tabs.getByRole('tab', { name: 'Journal' }).click()
  await expect(page.getByLabel('Show')).toBeVisible()
  await page.getByLabel('Show').selectOption('unpaid')
  const journal = page.getByRole('list', { name: 'Journal' })
  await expect(journal.or(page.getByText('No journal entries.'))).toBeVisible()
  if (await journal.isVisible()) {
    for (const entry of await journal.getByRole('listitem').all()) await expect(entry).toContainText('Unpaid')
  }

  await tabs.getByRole('tab', { name: 'Charts' }).click()
  await page.getByLabel('Period').selectOption('month')
  // The backfilled month has charging: the figures table lists the days with kWh and kW.
  await page.getByText('Show the figures').click()
  await expect(page.getByRole('tabpanel').getByRole('table')).toContainText('kWh')
  await expect(page.getByRole('tabpanel')).toContainText(/Energy charged: \d/)
  // Each chart names its unit and has a value axis in it and dates in the user's format under the bars.
  const energyChart = page.getByRole('figure', { name: 'Energy (kWh)' })
  await expect(energyChart).toBeVisible()
  await expect(energyChart.getByTestId('axis-bars')).toContainText(/0 kWh/)
  await expect(energyChart.getByTestId('axis-bars')).toContainText(/\d{2}[./]\d{2}/)
  await expect(page.getByRole('figure', { name: 'Average power (kW)' })).toContainText(/\d kW/)
  // A year before the 30 backfilled days has no charging: the tab says so and what to do, not a blank area.
  await page.getByLabel('Period').selectOption('year')
  await page.getByRole('button', { name: 'Previous' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'No charging in this period.' })).toContainText('Choose an earlier period')
  await expect(page.getByRole('figure')).toHaveCount(0)

  await tabs.getByRole('tab', { name: 'Management' }).click()
  await expect(page.getByLabel('Charging mode')).toHaveValue('timer')
})

test('a resident sees the none-available state and cannot add timers', async ({ page }) => {
  await logIn(page, 'user@example.com')
  await openStation(page, 'Station 1')
  await page.getByRole('tab', { name: 'Timer' }).click()
  await expect(page.getByText('No timers available.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Add timer' })).toHaveCount(0)
})

test('a charging mode saved in Management shows in the Journal tab at once, without a reload', async ({ page }) => {
  await logIn(page, 'admin@example.com')
  await openStation(page, 'Station 3')
  const tabs = page.getByRole('tablist', { name: 'Station pages' })
  // The journal is read once and cached: opening the tab again within 30 s makes no request of its own.
  await tabs.getByRole('tab', { name: 'Journal' }).click()
  await expect(page.getByRole('list', { name: 'Journal' }).or(page.getByText('No journal entries.'))).toBeVisible()

  await tabs.getByRole('tab', { name: 'Management' }).click()
  const mode = page.getByLabel('Charging mode')
  const before = await mode.inputValue()
  const next = before === 'instant' ? 'solar' : 'instant'
  const nextLabel = next === 'instant' ? 'Instant' : 'Solar'
  await mode.selectOption(next)
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The data has been saved.' })).toBeVisible()

  // Only the save's invalidation of the station's journal brings the new entry: the cached list is still fresh.
  await tabs.getByRole('tab', { name: 'Journal' }).click()
  await expect(page.getByRole('list', { name: 'Journal' }).getByRole('listitem').first()).toContainText(`Charging mode changed to ${nextLabel}`)

  // Leave the station as the other specs expect it.
  await tabs.getByRole('tab', { name: 'Management' }).click()
  await page.getByLabel('Charging mode').selectOption(before)
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The data has been saved.' })).toBeVisible()
})
