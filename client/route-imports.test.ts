import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const client = fileURLToPath(new URL('.', import.meta.url))

const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?((?:\w+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+))\s+from\s+['"]([^'"]+)['"]/g
const SIDE_EFFECT = /(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g
const DYNAMIC = /import\(\s*['"]([^'"]+)['"]\s*\)/g

/**
 * The packages a module reaches through value imports (`import type` and `export type` carry no code),
 * following our own .ts/.tsx modules; `lazy`: also through dynamic `import()` (what the route loads
 * later, such as Power's chart). Returns each package with the chain of modules that reaches it.
 */
function packagesReached(entry: string, lazy: boolean): Map<string, string[]> {
  const found = new Map<string, string[]>()
  const seen = new Set<string>()
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    const specs: string[] = []
    for (const m of source.matchAll(STATIC)) {
      // `import { type A, type B }` imports nothing at run time either.
      const onlyTypes = m[3].startsWith('{') && m[3].slice(1, -1).split(',').every((n) => !n.trim() || n.trim().startsWith('type '))
      if (!m[2] && !onlyTypes) specs.push(m[4])
    }
    for (const m of source.matchAll(SIDE_EFFECT)) specs.push(m[1])
    if (lazy) for (const m of source.matchAll(DYNAMIC)) specs.push(m[1])
    for (const spec of specs.map((s) => s.split('?')[0])) {
      if (spec.startsWith('.')) {
        if (/\.tsx?$/.test(spec)) visit(path.resolve(path.dirname(file), spec), [...chain, path.relative(client, file)])
      } else {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
        if (!found.has(pkg)) found.set(pkg, [...chain, path.relative(client, file)])
      }
    }
  }
  visit(entry, [])
  return found
}

// Zod was 60 % of Power's JavaScript, reached only through constants and helpers of
// shared/ modules that also build schemas (shared/live.ts, shared/schemas/accounts.ts).
describe('the first screens load no zod', () => {
  it.each([
    ['the entry (client/main.tsx, static imports)', 'main.tsx', false],
    ['Login, with what it loads later', 'features/login/login-page.tsx', true],
    ['Power, with what it loads later (the chart)', 'features/power/power-page.tsx', true],
  ])('%s', (_name, entry, lazy) => {
    const reached = packagesReached(path.join(client, entry), lazy)
    expect(reached.get('zod'), `zod reached through ${reached.get('zod')?.join(' → ')}`).toBeUndefined()
    // The walk itself works: it finds React.
    expect(reached.has('react')).toBe(true)
  })
})
