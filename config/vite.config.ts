import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from 'tailwindcss'
import autoprefixer from 'autoprefixer'
import { fileURLToPath } from 'node:url'
import tailwindConfig from './tailwind.config.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const devApi = process.env.COCKPIT_DEV_API ?? 'http://localhost:3000'

/**
 * Client build (ARCHITECTURE §2): root client/, output dist/client with a manifest that
 * scripts/bundle-size.ts reads to sum what the Login and Power routes load initially.
 */
export default defineConfig({
  root: `${repo}client`,
  base: '/',
  plugins: [react()],
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
