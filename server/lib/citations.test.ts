import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Comments cite what a reader of the repository can open: SPEC §, ARCHITECTURE §, an entry of
 * docs/decisions.md, or a standard (OCPP 1.6J, RFC …, WCAG …). An issue number of the team's tracker is
 * none of these, so this test reads every source file of the product directories (tests beside the
 * sources included: newcomers read them too) and fails on the word "issue" or "issues" followed by a
 * number, in a comment or in a comment-like text (a test title, an OpenAPI description).
 */
const repo = path.resolve(import.meta.dirname, '../..')
const DIRS = ['server', 'shared', 'client', 'config', 'scripts', 'bench', 'tests']
const EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|css|html|ya?ml|conf|sh)$/
const SKIP_DIRS = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', '.tmp'])

/** The word issue or issues, any case, then a number (optionally after "#"): a citation of the tracker. */
export const ISSUE_CITATION = /\bissues?\s+#?\d+/i

function sources(dir: string): string[] {
  const out: string[] = []
  const abs = path.join(repo, dir)
  if (!fs.existsSync(abs)) return out
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    const rel = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...sources(rel))
    } else if (EXTENSIONS.test(entry.name)) {
      out.push(rel)
    }
  }
  return out
}

/** Every line of `text` that cites an issue number, as `name:line: text`. */
export function issueCitations(name: string, text: string): string[] {
  const found: string[] = []
  text.split('\n').forEach((line, i) => {
    if (ISSUE_CITATION.test(line)) found.push(`${name}:${i + 1}: ${line.trim()}`)
  })
  return found
}

describe('citations in comments', () => {
  it('finds an issue number in a comment, a test title and a description (the probe)', () => {
    // Built from pieces so that this file itself holds no citation.
    const n = (k: number) => ['iss', 'ue ', String(k)].join('')
    const sample = [
      `/** Rates (${n(5)} §4): power, water and heat. */`,
      `// ${n(13).replace('i', 'I')} §3: what waits for the offline facility`,
      `describe('read retries (${n(15)} §5)', () => {})`,
      `z.string().describe('display link ids (${n(15).replace('issue', 'issues')} and 16)')`,
      `/* #${n(7).replace(' ', ' #')} */`,
      '// SPEC §5, ARCHITECTURE §3, docs/decisions.md "Relay: merge patches beside RFC 6902 ops", RFC 7396',
      'const tissue = 3 // an issue with the tissue, not a citation',
    ].join('\n')
    expect(issueCitations('sample.ts', sample).map((l) => l.split(':')[1])).toEqual(['1', '2', '3', '4', '5'])
  })

  it('no product source, test or script cites an issue number', () => {
    const found = DIRS.flatMap((dir) => sources(dir)).flatMap((file) =>
      issueCitations(file.split(path.sep).join('/'), fs.readFileSync(path.join(repo, file), 'utf8')))
    expect(found).toEqual([])
  })
})
