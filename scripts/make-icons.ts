/**
 * The app's icons (installable PWA), drawn from the Cockpit mark (client/components/brand.tsx:
 * a white bolt on brand-600 #187560) and written to client/public/ (copied to the build's root):
 * - icons/icon.svg, icons/icon-192.png, icons/icon-512.png: the mark in a rounded square ("any");
 * - icons/maskable-512.png: full-bleed background, the bolt inside the central 80 % safe zone (W3C
 *   Web App Manifest "maskable" purpose: launchers crop to any shape within it);
 * - apple-touch-icon.png (180 px, full-bleed: iOS rounds the corners itself, and ignores transparency);
 * - favicon.ico: a 32 px PNG in an ICO container (browsers ask for /favicon.ico on their own).
 * Rendered by Debian's Chromium (Playwright), so no image library is needed. The results are committed;
 * run again only when the mark changes: node scripts/make-icons.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'

const out = fileURLToPath(new URL('../client/public/', import.meta.url))
const BRAND = '#187560'
const BOLT = 'M13 2 4 14h7l-1 8 9-12h-7l1-8z'

/** The mark: `rx` corner radius of a 24-unit square, the bolt scaled by `scale` around the centre. */
function svg(rx: number, scale: number): string {
  const t = 12 - 12 * scale
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="${rx}" fill="${BRAND}"/><path transform="translate(${t} ${t}) scale(${scale})" d="${BOLT}" fill="#fff"/></svg>`
}

/** An ICO file holding one PNG image (ICONDIR + one ICONDIRENTRY, PNG payload: Windows Vista+ and every browser). */
export function icoFromPng(png: Buffer, size: number): Buffer {
  const head = Buffer.alloc(6 + 16)
  head.writeUInt16LE(0, 0) // reserved
  head.writeUInt16LE(1, 2) // type: icon
  head.writeUInt16LE(1, 4) // one image
  head.writeUInt8(size >= 256 ? 0 : size, 6)
  head.writeUInt8(size >= 256 ? 0 : size, 7)
  head.writeUInt8(0, 8) // no palette
  head.writeUInt8(0, 9)
  head.writeUInt16LE(1, 10) // colour planes
  head.writeUInt16LE(32, 12) // bits per pixel
  head.writeUInt32LE(png.length, 14)
  head.writeUInt32LE(head.length, 18)
  return Buffer.concat([head, png])
}

const any = svg(5, 0.75)
mkdirSync(`${out}icons`, { recursive: true })
writeFileSync(`${out}icons/icon.svg`, any)

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 })
  const render = async (markup: string, size: number): Promise<Buffer> => {
    await page.setViewportSize({ width: size, height: size })
    await page.setContent(`<html><body style="margin:0;background:transparent">${markup.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`)
    return page.locator('svg').screenshot({ omitBackground: true })
  }
  writeFileSync(`${out}icons/icon-192.png`, await render(any, 192))
  writeFileSync(`${out}icons/icon-512.png`, await render(any, 512))
  writeFileSync(`${out}icons/maskable-512.png`, await render(svg(0, 0.6), 512))
  writeFileSync(`${out}apple-touch-icon.png`, await render(svg(0, 0.65), 180))
  writeFileSync(`${out}favicon.ico`, icoFromPng(await render(svg(5, 0.8), 32), 32))
} finally {
  await browser.close()
}
console.log(`icons written to ${out}`)
