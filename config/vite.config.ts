import { defineConfig } from 'vite'
import type { Plugin, Rolldown } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from 'tailwindcss'
import autoprefixer from 'autoprefixer'
import { fileURLToPath } from 'node:url'
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
          map.routes.push({ pattern: route.pattern, chunks: [...files].filter((f) => !present.has(f)).map(url), ns: route.ns })
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

/**
 * Client build (ARCHITECTURE §2): root client/, output dist/client with a manifest that
 * scripts/bundle-size.ts reads to sum what the Login and Power routes load initially.
 */
export default defineConfig({
  root: `${repo}client`,
  base: '/',
  plugins: [react(), routePreloads()],
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
      // shared/ modules build zod schemas at module level for the server; the client uses only
      // their types and plain helpers (parseEventId), so unused schema construction can be dropped.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    proxy: {
      '/api': { target: devApi, changeOrigin: true },
      '/live': { target: devApi, changeOrigin: true },
    },
  },
})
