import { defineConfig } from 'vite'
import type { Plugin, Rolldown } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from 'tailwindcss'
import autoprefixer from 'autoprefixer'
import { fileURLToPath } from 'node:url'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { VitePWA } from 'vite-plugin-pwa'
import tailwindConfig from './tailwind.config.ts'
import { PRELOAD_BOOT_SCRIPT, PRELOAD_INITIAL_NS, PRELOAD_MAP_ID, PRELOAD_ROUTES } from './preload-boot.ts'
import type { PreloadMap } from './preload-boot.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const devApi = process.env.COCKPIT_DEV_API ?? 'http://localhost:3000'

/**
 * Writes the route/language preload map and the boot script into the built index.html
 * (config/preload-boot.ts). Build only: the dev server loads modules unbundled.
 */
function routePreloads(): Plugin {
  return {
    name: 'cockpit-route-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle as Rolldown.OutputBundle | undefined
        if (!bundle) return html
        const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk')
        const byModule = (rel: string) => chunks.find((c) => c.facadeModuleId === `${repo}client/${rel}`)
        const entry = chunks.find((c) => c.isEntry)
        // The entry and its static imports already have Vite's own modulepreload tags.
        const present = new Set<string>()
        const walk = (file: string, into: Set<string>) => {
          if (into.has(file)) return
          into.add(file)
          for (const dep of bundle[file]?.type === 'chunk' ? (bundle[file] as Rolldown.OutputChunk).imports : []) walk(dep, into)
        }
        if (entry) walk(entry.fileName, present)
        const url = (file: string) => `/${file}`
        const map: PreloadMap = { routes: [], initial: PRELOAD_INITIAL_NS, locales: {} }
        for (const route of PRELOAD_ROUTES) {
          const files = new Set<string>()
          for (const rel of [route.module, ...route.extra]) {
            const chunk = byModule(rel)
            if (!chunk) throw new Error(`route preload: no chunk for client/${rel}`)
            walk(chunk.fileName, files)
          }
          const chunks = route.chunksAfterPaint ? [] : [...files].filter((f) => !present.has(f)).map(url)
          map.routes.push({ pattern: route.pattern, chunks, ns: route.ns })
        }
        const used = new Set([...PRELOAD_INITIAL_NS, ...PRELOAD_ROUTES.flatMap((r) => r.ns)])
        for (const c of chunks) {
          const m = /\/client\/i18n\/locales\/([a-z]{2})\/([a-z-]+)\.json$/.exec(c.facadeModuleId ?? '')
          if (m && used.has(m[2])) (map.locales[m[1]] ??= {})[m[2]] = url(c.fileName)
        }
        // Before the stylesheet: a parser-inserted script after it would wait for the CSS to arrive.
        const tags = `<script type="application/json" id="${PRELOAD_MAP_ID}">${JSON.stringify(map)}</script>\n    <script>${PRELOAD_BOOT_SCRIPT}</script>\n    `
        const at = html.indexOf('<script type="module"')
        if (at < 0) throw new Error('route preload: no module script in index.html')
        return html.slice(0, at) + tags + html.slice(at)
      },
    },
  }
}

const LANGUAGE_ORDER = ['en', 'de', 'fr', 'it'] as const

/** HTML text escaping for the offline page's texts. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Emits offline.html: the screen the service worker shows when a page cannot be loaded.
 * Static, from the four languages of client/i18n/locales/<lng>/offline-page.json (client/public/offline.js
 * shows the active one), with its style and script as files: the CSP allows no inline code.
 */
function offlinePage(): Plugin {
  return {
    name: 'cockpit-offline-page',
    apply: 'build',
    generateBundle() {
      const sections = LANGUAGE_ORDER.map((lng, i) => {
        const t = JSON.parse(readFileSync(`${repo}client/i18n/locales/${lng}/offline-page.json`, 'utf8')) as Record<'title' | 'body' | 'retry', string>
        return `<section lang="${lng}"${i === 0 ? '' : ' hidden'}><h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.body)}</p><button type="button" data-retry>${escapeHtml(t.retry)}</button></section>`
      })
      this.emitFile({
        type: 'asset',
        fileName: 'offline.html',
        source: `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="theme-color" content="#187560" />
    <title>Cockpit</title>
    <link rel="icon" href="/favicon.ico" sizes="32x32" />
    <link rel="stylesheet" href="/offline.css" />
    <script src="/offline.js" defer></script>
  </head>
  <body>
    <main><img src="/icons/icon.svg" alt="" />${sections.join('')}</main>
  </body>
</html>
`,
      })
    },
  }
}

/**
 * The head of the prerendered login page (Login's first paint under a phone's network): the
 * page paints from its HTML, so nothing else may come before that paint.
 * - The stylesheet is inlined (`<style>`, allowed by its hash in /login's CSP, server/lib/static.ts):
 *   the paint no longer waits for a second request. It is the whole sheet the link named, so the app
 *   needs no further CSS on any screen reached from here.
 * - No script is fetched before that paint: the entry's `<script>` and module preload tags move into the
 *   preload map (`boot`), and the boot script adds them, with the route's files, once the page has
 *   painted (config/preload-boot.ts). Had one arrived before the paint, Lighthouse counted them all into
 *   the LCP (0.8 s or 1.8 s, depending on that race).
 */
function loginHead(index: string, outDir: string): string {
  const links = [...index.matchAll(/<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[^"]+\.css)">/g)]
  if (links.length !== 1) throw new Error(`login shells: expected one stylesheet link in index.html, found ${links.length}`)
  const css = readFileSync(`${outDir}/${links[0][1]}`, 'utf8').trim()
  if (/<\/style/i.test(css)) throw new Error('login shells: the stylesheet cannot be inlined (contains </style)')
  const mapTag = `<script type="application/json" id="${PRELOAD_MAP_ID}">{`
  if (!index.includes(mapTag)) throw new Error('login shells: no preload map in index.html')
  const entries = [...index.matchAll(/\s*<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/g)]
  if (entries.length !== 1) throw new Error(`login shells: expected one module script in index.html, found ${entries.length}`)
  const preloads = [...index.matchAll(/\s*<link rel="modulepreload"(?: crossorigin)? href="([^"]+)">/g)]
  const boot: NonNullable<PreloadMap['boot']> = { entry: entries[0][1], preload: preloads.map((m) => m[1]) }
  let head = index.replace(links[0][0], () => `<style>${css}</style>`).replace(mapTag, () => `${mapTag}"boot":${JSON.stringify(boot)},`)
  for (const tag of [entries[0][0], ...preloads.map((m) => m[0])]) head = head.replace(tag, '')
  if (/<script[^>]* src=|rel="modulepreload"/.test(head)) throw new Error('login shells: a script tag is left in the head')
  return head
}

/**
 * Writes `.prerender/login-<lng>.html` (Login's first paint): the built index.html with the
 * logged-out frame (client/features/login/auth-frame.tsx, brand, greeting and intro of the login screen)
 * inside #root, from the texts of client/i18n/locales/<lng>/{common,login}.json. The server sends it for
 * /login (server/lib/static.ts), so the screen paints as soon as the HTML is in (its head: loginHead);
 * React replaces it on its first render. Markup and style only: no inline code.
 */
function loginShells(): Plugin {
  let outDir = ''
  return {
    name: 'cockpit-login-shells',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    writeBundle() {
      const index = readFileSync(`${outDir}/index.html`, 'utf8')
      if (!index.includes('<div id="root"></div>')) throw new Error('login shells: no empty #root in index.html')
      mkdirSync(`${outDir}/.prerender`, { recursive: true })
      for (const lng of LANGUAGE_ORDER) {
        const text = (ns: string) => JSON.parse(readFileSync(`${repo}client/i18n/locales/${lng}/${ns}.json`, 'utf8')) as Record<string, unknown>
        const common = text('common')
        const login = text('login')
        const shell =
          '<div class="flex min-h-screen flex-col bg-gradient-to-br from-brand-50 via-white to-sky-50">' +
          '<header class="flex items-center justify-between px-4 py-4 sm:px-8"><div class="flex items-center gap-2">' +
          '<span aria-hidden="true" class="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-white"><svg viewBox="0 0 24 24" class="h-5 w-5" fill="currentColor"><path d="M13 2 4 14h7l-1 8 9-12h-7l1-8z" /></svg></span>' +
          `<span class="text-lg font-semibold tracking-tight text-slate-900">${escapeHtml(String(common.appName))}</span></div></header>` +
          '<main class="flex flex-1 items-start justify-center px-4 pb-16 pt-6 sm:items-center sm:pt-0">' +
          '<div class="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-6 shadow-lg shadow-slate-200/60 sm:p-8">' +
          `<h1 class="text-2xl font-semibold tracking-tight text-slate-900">${escapeHtml(String(login.greeting))}</h1>` +
          `<p class="mt-1 text-sm text-slate-600">${escapeHtml(String(login.intro))}</p>` +
          '</div></main></div>'
        const html = loginHead(index, outDir).replace('<html lang="en">', `<html lang="${lng}">`).replace('<div id="root"></div>', `<div id="root">${shell}</div>`)
        writeFileSync(`${outDir}/.prerender/login-${lng}.html`, html)
      }
    },
  }
}

/**
 * The installable app (vite-plugin-pwa; docs/decisions.md "Web: the
 * installable app"): the web app manifest, and a service worker (sw.js, Workbox) that
 * - precaches the app shell: the hashed JS and CSS except translation chunks, icons, the offline page;
 * - serves other hashed /assets/ (the active language's texts) cache-first once fetched;
 * - sends page loads to the network (index.html stays `no-cache`: a deploy is seen at once) and answers
 *   offline.html when the network fails;
 * - never handles /api or /live: no route matches them, so they always go to the network.
 * client/main.tsx registers it.
 */
function pwa() {
  return VitePWA({
    strategies: 'generateSW',
    registerType: 'autoUpdate',
    injectRegister: false,
    filename: 'sw.js',
    manifestFilename: 'manifest.webmanifest',
    includeManifestIcons: false,
    manifest: {
      id: '/',
      name: 'Cockpit',
      short_name: 'Cockpit',
      description: 'Facilities with EV charging stations: live power, charging, meters, tariffs and billing.',
      lang: 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#187560',
      background_color: '#f8fafc',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      ],
    },
    workbox: {
      globPatterns: ['assets/*.{js,css}', 'offline.{html,css,js}', 'favicon.ico', 'apple-touch-icon.png', 'icons/*'],
      // Translation chunks: only the active language is ever fetched, so they are cached on use.
      manifestTransforms: [
        async (entries) => {
          const manifest = JSON.parse(readFileSync(`${process.env.CLIENT_OUT_DIR ?? `${repo}dist/client`}/.vite/manifest.json`, 'utf8')) as Record<string, { file: string; src?: string }>
          const locales = new Set(Object.values(manifest).filter((c) => c.src?.startsWith('i18n/locales/')).map((c) => c.file))
          return { manifest: entries.filter((e) => !locales.has(e.url)), warnings: [] }
        },
      ],
      navigateFallback: null,
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      skipWaiting: true,
      runtimeCaching: [
        {
          urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
          handler: 'CacheFirst',
          options: { cacheName: 'cockpit-assets', expiration: { maxEntries: 200 } },
        },
        {
          urlPattern: ({ request, url, sameOrigin }) => sameOrigin && request.mode === 'navigate' && !/^\/(api|live)(\/|$)/.test(url.pathname),
          handler: 'NetworkOnly',
          options: { precacheFallback: { fallbackURL: '/offline.html' } },
        },
      ],
    },
  })
}

/**
 * Client build (ARCHITECTURE §2): root client/, output dist/client with a manifest that
 * scripts/bundle-size.ts reads to sum what the Login and Power routes load initially.
 */
export default defineConfig({
  root: `${repo}client`,
  base: '/',
  plugins: [react(), routePreloads(), offlinePage(), pwa(), loginShells()],
  css: { postcss: { plugins: [tailwindcss(tailwindConfig), autoprefixer()] } },
  build: {
    // CLIENT_OUT_DIR: build elsewhere (side-by-side work); the server serves it with CLIENT_DIR.
    outDir: process.env.CLIENT_OUT_DIR ?? `${repo}dist/client`,
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // No treeshake.manualPureFunctions: a name there is pure in every module, minified libraries
      // included ('z' for zod's schema calls dropped lightweight-charts' canvas clear, docs/decisions.md
      // "Display: the chart smeared").
      output: {
        // The libraries every route needs in one chunk: they came as 7 chunks of 0.3–43 KB,
        // and over HTTP/1.1 (six connections per host) every extra request costs a round trip on a phone.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|html-parse-stringify|void-elements|valtio|proxy-compare|wouter|regexparam|mitt|use-sync-external-store)[\\/]/,
            },
            // The shell's own modules (session, api client, layout pieces) that lazy screens share too.
            { name: 'shell', tags: ['$initial'], test: /[\\/]client[\\/](api|session|components|app|i18n)[\\/]/ },
            // Power's first view and its live client (the station screen shares most of it).
            {
              name: 'power',
              test: /[\\/]client[\\/](features[\\/]power[\\/](power-page|power-flow|station-card|live-status|api)\.tsx?|live[\\/][a-z-]+\.ts|components[\\/](use-formats|tile-meta)\.tsx?)$/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: devApi, changeOrigin: true },
      '/live': { target: devApi, changeOrigin: true },
    },
  },
})
