import { expect, test } from '@playwright/test'
import type { Locator, Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { PASSWORD } from './fixtures.ts'

// Debian's Chromium only (config/playwright.config.ts); without it there is nothing to run here.
test.skip(!existsSync('/usr/bin/chromium'), 'E2E skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

/** Press Tab until `target` has focus (keyboard only, no clicks); fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return
    await page.keyboard.press('Tab')
  }
  await expect(target).toBeFocused()
}

/** Log in with the keyboard alone: Tab to the fields, type, Enter. */
async function keyboardLogin(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await tabTo(page, page.getByLabel('E-mail'))
  await page.keyboard.type(email)
  await tabTo(page, page.getByLabel('Password', { exact: true }))
  await page.keyboard.type(PASSWORD)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/facility\/\d+$/)
}

test('keyboard only: log in, move through the menu, change a station’s charging mode and back', async ({ page }) => {
  await keyboardLogin(page, 'admin@example.com')

  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  await tabTo(page, sidebar.getByRole('link', { name: 'Power', exact: true }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/facility\/1\/power$/)

  await tabTo(page, page.getByRole('link', { name: /^Details of / }).first())
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/power\/stations\/\d+$/)
  // The tab list: one Tab stop, arrows and Home/End move between tabs.
  await tabTo(page, page.getByRole('tab', { selected: true }))
  await page.keyboard.press('End')
  const management = page.getByRole('tab', { name: 'Management' })
  await expect(management).toBeFocused()
  await expect(management).toHaveAttribute('aria-selected', 'true')

  const mode = page.getByLabel('Charging mode')
  const before = await mode.inputValue()
  const beforeLabel = (await mode.locator('option:checked').textContent()) ?? ''
  await tabTo(page, mode)
  // Type-ahead on the focused select, as a keyboard user picks an option.
  await page.keyboard.type(before === 'solar' ? 'Instant' : 'Solar')
  await expect(mode).toHaveValue(before === 'solar' ? 'instant' : 'solar')
  await tabTo(page, page.getByRole('button', { name: 'Save' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: /saved|waits/i })).toBeVisible()

  // Back to what it was, still by keyboard, so other specs see the demo as seeded.
  await tabTo(page, mode)
  await page.waitForTimeout(1_100) // the select's type-ahead buffer resets after a second
  await page.keyboard.type(beforeLabel)
  await expect(mode).toHaveValue(before)
  await tabTo(page, page.getByRole('button', { name: 'Save' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: /saved|waits/i })).toBeVisible()
})

test('keyboard only: a confirmation dialog takes focus, keeps it and closes on Escape', async ({ page }) => {
  await keyboardLogin(page, 'admin@example.com')
  await page.goto('/facility/1/rfids')
  const remove = page.getByRole('button', { name: /^Delete RFID / }).first()
  await tabTo(page, remove)
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  // Modal: Tab never reaches the page behind it.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab')
    const outside = await dialog.evaluate((d) => document.activeElement !== document.body && !d.contains(document.activeElement))
    expect(outside).toBe(false)
  }
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(remove).toBeFocused()
  // Nothing was deleted.
  await expect(remove).toBeVisible()
})

// WCAG 2.4.3 (Focus Order): after a menu link the keyboard continues in the new page, not 14 Tabs
// back in the menu, and a screen reader hears which page opened.
test('keyboard only: a menu link moves focus to the new page and its name is announced', async ({ page }) => {
  await keyboardLogin(page, 'admin@example.com')
  const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
  await tabTo(page, sidebar.getByRole('link', { name: 'Charts', exact: true }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/facility\/1\/charts$/)
  await expect(page.locator('main#main')).toBeFocused()
  await expect(page.locator('#page-announcer')).toHaveText(await page.getByRole('heading', { level: 1 }).first().innerText())
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true)
})
