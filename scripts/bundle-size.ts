/**
 * Bundle budget in bytes the server really sends: the precompressed `.br` file
 * of each asset (scripts/precompress.ts; what a browser accepting brotli receives, the file itself
 * where none was written). Prints every JS chunk and, per budgeted route, what it loads initially: the
 * entry chunk and its static imports plus the route's lazy chunk and its static imports (from Vite's
 * .vite/manifest.json), their CSS, and the route's English translation chunks. Exits 1 when a route's
 * JS exceeds the budget, or when zod is in any chunk the route loads, at once or later (its lazy chunks
 * such as the chart): the browser needs zod only on form screens, and on Power it was 60 % of the JS
 * (docs/performance.md). Run after `vite build` and precompress: node scripts/bundle-size.ts
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const BUDGET = 180 * 1024
const dist = process.env.CLIENT_OUT_DIR ?? fileURLToPath(new URL('../dist/client/', import.meta.url))
const manifestFile = path.join(dist, '.vite', 'manifest.json')

/** Routes under budget: their lazily imported screen modules, relative to client/. */
const ROUTES: Record<string, string[]> = {
  Login: ['features/login/login-page.tsx'],
  Power: ['features/power/power-page.tsx'],
}

/** Translation namespaces each route loads (client/i18n: common plus the screen's, active language only). */
const ROUTE_NAMESPACES: Record<string, string[]> = {
  Login: ['common', 'login'],
  Power: ['common', 'power', 'charging'],
}

interface Chunk {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

if (!existsSync(manifestFile)) {
  console.error(`No ${path.relative(process.cwd(), manifestFile)}: run vite build with build.manifest first.`)
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, Chunk>

const gz = new Map<string, number>()
const raw = new Map<string, number>()
function sizeOf(file: string): number {
  let size = gz.get(file)
  if (size === undefined) {
    const full = path.join(dist, file)
    raw.set(file, readFileSync(full).length)
    // What the server sends a browser that accepts brotli: the .br sibling, else the file.
    size = existsSync(`${full}.br`) ? readFileSync(`${full}.br`).length : raw.get(file)!
    gz.set(file, size)
  }
  return size
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

// Every JS file of the build, with its source module when the manifest names one.
const jsFiles: string[] = []
function walk(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') walk(full)
    } else if (entry.name.endsWith('.js')) jsFiles.push(path.relative(dist, full))
  }
}
walk(dist)
const srcOf = new Map<string, string>()
for (const [key, chunk] of Object.entries(manifest)) srcOf.set(chunk.file, chunk.src ?? key)

console.log('JS chunks (bytes sent, brotli):')
for (const file of jsFiles.sort((a, b) => sizeOf(b) - sizeOf(a))) {
  console.log(`  ${kb(sizeOf(file)).padStart(9)}  ${file}${srcOf.has(file) ? `  (${srcOf.get(file)})` : ''}`)
}
const allJs = jsFiles.reduce((sum, f) => sum + sizeOf(f), 0)
console.log(`  ${kb(allJs).padStart(9)}  all JS`)

/** Keys of `start` and everything it imports statically, transitively. */
function staticClosure(start: string, seen = new Set<string>()): Set<string> {
  if (seen.has(start)) return seen
  const chunk = manifest[start]
  if (!chunk) throw new Error(`manifest has no ${start}`)
  seen.add(start)
  for (const imp of chunk.imports ?? []) staticClosure(imp, seen)
  return seen
}

const entries = Object.entries(manifest).filter(([, c]) => c.isEntry)
if (entries.length !== 1) {
  console.error(`Expected one entry in the manifest, found ${entries.length}.`)
  process.exit(1)
}
const [entryKey] = entries[0]

/** Keys of the lazy chunks `start` imports dynamically, and what they import, transitively. */
function dynamicClosure(start: string, seen = new Set<string>()): Set<string> {
  for (const imp of manifest[start]?.dynamicImports ?? []) {
    if (seen.has(imp) || manifest[imp]?.src?.startsWith('i18n/locales/')) continue
    for (const key of staticClosure(imp)) {
      if (!seen.has(key)) {
        seen.add(key)
        dynamicClosure(key, seen)
      }
    }
  }
  return seen
}

// Names zod 4 keeps in minified code (class names of its core); none of our own code uses them.
const ZOD_MARKER = /\$ZodType|\bZodError\b/

let failed = false
console.log(`\nInitial load per route (bytes sent, brotli; JS budget ${kb(BUDGET)}):`)
for (const [route, modules] of Object.entries(ROUTES)) {
  const keys = staticClosure(entryKey)
  for (const mod of modules) {
    if (!manifest[mod]) {
      console.error(`  ${route}: ${mod} is not a chunk of the manifest (is the route still lazy?)`)
      failed = true
      continue
    }
    staticClosure(mod, keys)
  }
  const files = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'))
  const total = files.reduce((sum, f) => sum + sizeOf(f), 0)
  const css = [...new Set([...keys].flatMap((k) => manifest[k].css ?? []))]
  const cssTotal = css.reduce((sum, f) => sum + sizeOf(f), 0)
  const locales = (ROUTE_NAMESPACES[route] ?? []).map((ns) => manifest[`i18n/locales/en/${ns}.json`]?.file).filter((f): f is string => !!f)
  const localeTotal = locales.reduce((sum, f) => sum + sizeOf(f), 0)
  const over = total > BUDGET
  if (over) failed = true
  console.log(`  ${route.padEnd(6)} JS ${kb(total).padStart(9)}  ${over ? 'OVER BUDGET' : 'ok'}  (${files.length} chunks: ${files.join(', ')})`)
  console.log(`  ${''.padEnd(6)} CSS ${kb(cssTotal).padStart(8)}  (${css.join(', ')})`)
  console.log(`  ${''.padEnd(6)} i18n ${kb(localeTotal).padStart(7)}  (${locales.length} chunks)`)
  console.log(`  ${''.padEnd(6)} all ${kb(total + cssTotal + localeTotal).padStart(8)}  + index.html ${kb(sizeOf('index.html'))}`)
  const loaded = new Set(keys)
  for (const mod of modules) if (manifest[mod]) for (const key of dynamicClosure(mod)) loaded.add(key)
  const withZod = [...loaded].map((k) => manifest[k].file).filter((f) => f.endsWith('.js') && ZOD_MARKER.test(readFileSync(path.join(dist, f), 'utf8')))
  if (withZod.length > 0) {
    failed = true
    console.log(`  ${''.padEnd(6)} ZOD in ${withZod.join(', ')}: import constants and helpers from zod-free modules (shared/live-protocol.ts, shared/rules/)`)
  }
}

if (failed) {
  console.error('\nBundle budget exceeded, or zod in a route that must not load it.')
  process.exit(1)
}
