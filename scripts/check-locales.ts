/**
 * Locale check (ARCHITECTURE §6): every key of client/i18n/locales/en/<namespace>.json exists in
 * de, fr and it (and no extra ones), with the same {{placeholders}}. Prints every problem and
 * exits 1 when there is one. Run: node scripts/check-locales.ts
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const root = fileURLToPath(new URL('../client/i18n/locales/', import.meta.url))
const REFERENCE = 'en'
const OTHERS = ['de', 'fr', 'it']

type Flat = Map<string, string>

function flatten(value: unknown, prefix: string, out: Flat, problems: string[], file: string): void {
  if (typeof value === 'string') {
    out.set(prefix, value)
  } else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out, problems, file)
  } else {
    problems.push(`${file}: ${prefix || '(root)'} is not a string or an object`)
  }
}

function load(file: string, problems: string[]): Flat | null {
  const out: Flat = new Map()
  try {
    flatten(JSON.parse(readFileSync(file, 'utf8')), '', out, problems, file)
    return out
  } catch (err) {
    problems.push(`${file}: ${(err as Error).message}`)
    return null
  }
}

function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)].map((m) => m[1]))].sort()
}

const problems: string[] = []
const rel = (p: string) => path.relative(process.cwd(), p)
const namespaces = readdirSync(path.join(root, REFERENCE)).filter((f) => f.endsWith('.json'))
if (namespaces.length === 0) problems.push(`no namespaces in ${rel(path.join(root, REFERENCE))}`)

for (const lang of OTHERS) {
  const dir = path.join(root, lang)
  if (!existsSync(dir)) {
    problems.push(`${rel(dir)}: missing language folder`)
    continue
  }
  for (const extra of readdirSync(dir).filter((f) => f.endsWith('.json') && !namespaces.includes(f))) {
    problems.push(`${rel(path.join(dir, extra))}: namespace not in ${REFERENCE}`)
  }
}

let keys = 0
for (const ns of namespaces) {
  const refFile = path.join(root, REFERENCE, ns)
  const ref = load(refFile, problems)
  if (!ref) continue
  keys += ref.size
  for (const lang of OTHERS) {
    const file = path.join(root, lang, ns)
    if (!existsSync(file)) {
      problems.push(`${rel(file)}: missing (namespace ${ns} exists in ${REFERENCE})`)
      continue
    }
    const other = load(file, problems)
    if (!other) continue
    for (const [key, text] of ref) {
      const translated = other.get(key)
      if (translated === undefined) {
        problems.push(`${rel(file)}: missing key "${key}"`)
        continue
      }
      if (!translated.trim()) problems.push(`${rel(file)}: empty text for "${key}"`)
      const want = placeholders(text).join(', ')
      const got = placeholders(translated).join(', ')
      if (want !== got) problems.push(`${rel(file)}: "${key}" has placeholders [${got}], ${REFERENCE} has [${want}]`)
    }
    for (const key of other.keys()) if (!ref.has(key)) problems.push(`${rel(file)}: extra key "${key}" (not in ${REFERENCE})`)
  }
}

if (problems.length > 0) {
  console.error(`Locale check failed (${problems.length} problem${problems.length === 1 ? '' : 's'}):`)
  for (const p of problems) console.error(`  - ${p}`)
  process.exit(1)
}
console.log(`Locales OK: ${namespaces.length} namespaces, ${keys} keys, languages ${[REFERENCE, ...OTHERS].join(', ')}`)
