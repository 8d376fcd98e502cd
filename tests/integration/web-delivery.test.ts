import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import http from 'node:http'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { auth, login, startApp } from './helpers.ts'
import { precompressDir } from '../../scripts/precompress.ts'

// Web delivery (docs/decisions.md "Web: client serving and compression"): what a browser gets for the app
// shell, hashed assets, API JSON and the live streams, on the wire (node:http, which neither decompresses nor
// hides headers).

interface Raw {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/** One request; `firstChunk` stops after the first bytes of the body (for endless streams). */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; firstChunk?: boolean } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => {
        chunks.push(c)
        if (opts.firstChunk) {
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) })
          req.destroy()
        }
      })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', (err) => (opts.firstChunk ? undefined : reject(err)))
    req.end()
  })
}

const INDEX = '<!doctype html><html lang="en"><head><title>Cockpit</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>\n'
/** The stylesheet the build inlines into the prerendered login page (config/vite.config.ts loginShells). */
const LOGIN_STYLE = '.bg-white{--tw-bg-opacity:1;background-color:rgb(255 255 255/var(--tw-bg-opacity))}'
const ASSET = 'export const rows = [' + Array.from({ length: 400 }, (_, i) => `{id:${i},name:"row ${i}"}`).join(',') + ']\n'

const ICO = Buffer.from([0, 0, 1, 0, 1, 0, 32, 32, 0, 0, 1, 0, 32, 0])
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const WEB_MANIFEST = JSON.stringify({ name: 'Cockpit', display: 'standalone', icons: Array.from({ length: 40 }, (_, i) => ({ src: `/icons/icon-${i}.png`, sizes: `${i}x${i}` })) })
const SW = 'self.addEventListener("fetch", () => {})\n'.repeat(60)

let app: FastifyInstance
let base: string
let clientDir: string

beforeAll(async () => {
  // A built client as `npm run build` leaves it: index.html and a hashed asset, precompressed.
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-client-'))
  fs.mkdirSync(path.join(clientDir, 'assets'))
  fs.mkdirSync(path.join(clientDir, '.vite'))
  fs.writeFileSync(path.join(clientDir, 'index.html'), INDEX)
  fs.writeFileSync(path.join(clientDir, 'assets', 'index-Ab12Cd34.js'), ASSET)
  fs.writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), '{}')
  // The installable app's files at the root: client/public and vite-plugin-pwa's output.
  fs.mkdirSync(path.join(clientDir, 'icons'))
  fs.writeFileSync(path.join(clientDir, 'favicon.ico'), ICO)
  fs.writeFileSync(path.join(clientDir, 'icons', 'icon-192.png'), PNG)
  fs.writeFileSync(path.join(clientDir, 'manifest.webmanifest'), WEB_MANIFEST)
  fs.writeFileSync(path.join(clientDir, 'sw.js'), SW)
  fs.writeFileSync(path.join(clientDir, 'workbox-0a1b2c3d.js'), SW)
  // The login screen prerendered per language by the build (config/vite.config.ts loginShells).
  fs.mkdirSync(path.join(clientDir, '.prerender'))
  for (const lng of ['en', 'de']) fs.writeFileSync(path.join(clientDir, '.prerender', `login-${lng}.html`), INDEX.replace('<div id="root"></div>', `<div id="root"><h1>login ${lng}</h1></div>`).replace('</title>', `</title><style>${LOGIN_STYLE}</style>`))
  precompressDir(clientDir)
  ;({ app, url: base } = await startApp({ roles: ['api', 'relay'], clientDir }))
})
afterAll(async () => {
  await app?.close()
  fs.rmSync(clientDir, { recursive: true, force: true })
})

describe('the app shell', () => {
  it('answers a newcomer on / with the app, for GET and HEAD (was 403 Forbidden)', async () => {
    const get = await raw(`${base}/`)
    expect(get.status).toBe(200)
    expect(get.headers['content-type']).toMatch(/^text\/html/)
    expect(get.body.toString()).toBe(INDEX)
    const head = await raw(`${base}/`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toMatch(/^text\/html/)
    expect(head.body.length).toBe(0)
  })

  it('answers client routes with the app for GET and HEAD, and unknown files with 404', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await raw(`${base}/facility/1/power`, { method })
      expect(r.status).toBe(200)
      expect(r.headers['content-type']).toMatch(/^text\/html/)
    }
    expect((await raw(`${base}/assets/index-Old00000.js`)).status).toBe(404)
    expect((await raw(`${base}/assets/`)).status).toBe(404)
    expect((await raw(`${base}/.vite/manifest.json`)).status).toBe(404)
    expect((await raw(`${base}/api/nothing-here`)).status).toBe(404)
  })

  it('makes the browser revalidate index.html (no-cache) and answers 304 when it is unchanged', async () => {
    for (const p of ['/', '/index.html', '/login']) {
      const r = await raw(`${base}${p}`)
      expect(r.headers['cache-control']).toBe('no-cache')
    }
    const first = await raw(`${base}/`)
    expect(first.headers.etag).toBeTruthy()
    const again = await raw(`${base}/`, { headers: { 'If-None-Match': first.headers.etag! } })
    expect(again.status).toBe(304)
    expect(again.body.length).toBe(0)
  })

  it('answers /login with the login screen already in the HTML, in the language the app will pick (paints before the scripts run)', async () => {
    const de = await raw(`${base}/login`, { headers: { 'Accept-Language': 'de-CH,de;q=0.9,en;q=0.5' } })
    expect(de.status).toBe(200)
    expect(de.headers['content-type']).toMatch(/^text\/html/)
    expect(de.body.toString()).toContain('<div id="root"><h1>login de</h1></div>')
    expect(de.headers.vary).toMatch(/Accept-Language/)
    expect(de.headers['cache-control']).toBe('no-cache')
    // client/i18n initialLanguage: English for an en* browser, else German (SPEC §9).
    expect((await raw(`${base}/login/`, { headers: { 'Accept-Language': 'en-GB' } })).body.toString()).toContain('login en')
    expect((await raw(`${base}/login`, { headers: { 'Accept-Language': 'fr-CH' } })).body.toString()).toContain('login de')
    const br = await raw(`${base}/login`, { headers: { 'Accept-Language': 'en', 'Accept-Encoding': 'br' } })
    expect(br.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(br.body).toString()).toContain('login en')
    expect((await raw(`${base}/login`, { headers: { 'Accept-Language': 'en', 'If-None-Match': br.headers.etag! } })).status).toBe(304)
    // Other screens keep the plain app shell; the prerendered files are not served as files.
    expect((await raw(`${base}/login/forgot`)).body.toString()).toBe(INDEX)
    expect((await raw(`${base}/.prerender/login-en.html`)).status).toBe(404)
  })

  it('lets the browser apply the login page\'s inlined stylesheet (CSP style-src names its hash), and only there', async () => {
    const styleSrc = (r: Raw) =>
      String(r.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('style-src '))
    const hash = `'sha256-${crypto.createHash('sha256').update(LOGIN_STYLE).digest('base64')}'`
    for (const lang of ['en', 'de-CH']) {
      const page = await raw(`${base}/login`, { headers: { 'Accept-Language': lang } })
      expect(page.body.toString()).toContain(`<style>${LOGIN_STYLE}</style>`)
      expect(styleSrc(page)?.split(' ')).toEqual(expect.arrayContaining(["'self'", hash]))
      expect(styleSrc(page)).not.toContain('unsafe-inline')
    }
    // Every other answer keeps the policy as it was.
    expect(styleSrc(await raw(`${base}/`))).not.toContain(hash)
    expect(styleSrc(await raw(`${base}/login/forgot`))).not.toContain(hash)
  })

  it('sends the precompressed index.html by Accept-Encoding', async () => {
    const r = await raw(`${base}/`, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } })
    expect(r.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(r.body).toString()).toBe(INDEX)
  })
})

describe('hashed assets', () => {
  const asset = () => `${base}/assets/index-Ab12Cd34.js`

  it('are sent as brotli or gzip by Accept-Encoding, else as they are', async () => {
    const br = await raw(asset(), { headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' } })
    expect(br.status).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(br.body.length).toBeLessThan(ASSET.length / 4)
    expect(brotliDecompressSync(br.body).toString()).toBe(ASSET)

    const gz = await raw(asset(), { headers: { 'Accept-Encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(ASSET)

    const plain = await raw(asset())
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(ASSET)
  })

  it('are cached for a year as immutable', async () => {
    const r = await raw(asset(), { headers: { 'Accept-Encoding': 'br' } })
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })
})

describe('API answers', () => {
  it('are gzip-compressed above 1 KB when the client accepts gzip', async () => {
    const token = await login(app, 'admin@example.com')
    const r = await raw(`${base}/api/cockpit/installations/1/charging_stations/?limit=1000`, { headers: { ...auth(token), 'Accept-Encoding': 'gzip' } })
    expect(r.status).toBe(200)
    expect(r.headers['content-encoding']).toBe('gzip')
    const json = gunzipSync(r.body)
    expect(json.length).toBeGreaterThan(1024)
    expect(JSON.parse(json.toString()).results.length).toBeGreaterThan(0)
  })

  it('are sent as they are below 1 KB', async () => {
    const r = await raw(`${base}/api/health`, { headers: { 'Accept-Encoding': 'gzip, br' } })
    expect(r.headers['content-encoding']).toBeUndefined()
    // /api/health says what time the app's clock shows (ARCHITECTURE §1 "Time").
    const body = JSON.parse(r.body.toString()) as { status: string; now: string }
    expect(body).toEqual({ status: 'ok', now: expect.any(String), roles: expect.any(Array) })
    expect(Math.abs(Date.parse(body.now) - app.clock.ms())).toBeLessThan(60_000)
  })

  it('never compress the live stream: events arrive as plain text/event-stream', async () => {
    const token = await login(app, 'admin@example.com')
    const t = await fetch(`${base}/live/tickets`, { method: 'POST', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: JSON.stringify({ installation_id: 1 }) })
    const { ticket } = (await t.json()) as { ticket: string }
    const r = await raw(`${base}/live/installations/1?ticket=${ticket}`, { headers: { 'Accept-Encoding': 'gzip, deflate, br', Accept: 'text/event-stream' }, firstChunk: true })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(r.headers['content-encoding']).toBeUndefined()
    expect(r.body.toString()).toMatch(/^(retry|event|id|data|:)/)
  })
})

describe('the installable app', () => {
  it('serves /favicon.ico (was 404) and the icons as images, cached for a day', async () => {
    const ico = await raw(`${base}/favicon.ico`)
    expect(ico.status).toBe(200)
    expect(ico.headers['content-type']).toBe('image/x-icon')
    expect(ico.body.equals(ICO)).toBe(true)
    const png = await raw(`${base}/icons/icon-192.png`)
    expect(png.status).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
    expect(png.headers['cache-control']).toBe('public, max-age=86400')
    expect((await raw(`${base}/icons/missing.png`)).status).toBe(404)
  })

  it('serves the manifest and the service worker compressed and no-cache, the hashed Workbox runtime immutable', async () => {
    const manifest = await raw(`${base}/manifest.webmanifest`, { headers: { 'accept-encoding': 'br' } })
    expect(manifest.status).toBe(200)
    expect(manifest.headers['content-type']).toBe('application/manifest+json')
    expect(manifest.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(manifest.body).toString()).toBe(WEB_MANIFEST)
    const sw = await raw(`${base}/sw.js`)
    expect(sw.status).toBe(200)
    expect(sw.headers['content-type']).toMatch(/^text\/javascript/)
    expect(sw.headers['cache-control']).toBe('no-cache')
    expect(sw.body.toString()).toBe(SW)
    expect((await raw(`${base}/workbox-0a1b2c3d.js`)).headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('lets the page register its service worker and manifest under the CSP', async () => {
    const csp = (await raw(`${base}/login`)).headers['content-security-policy'] ?? ''
    expect(csp).toContain("worker-src 'self'")
    expect(csp).toContain("manifest-src 'self'")
  })
})
