import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * Start with an unusable DATA_DIR: one clear line naming the folder and the cause,
 * exit code 2, no stack trace. We run as root, so chmod does not stop writes; a path through a regular
 * file fails for root too.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
function start(dataDir: string) {
  return spawnSync(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ROLES: 'api', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  })
}

describe('unusable DATA_DIR', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-datadir-'))
  const file = path.join(tmp, 'a-file')
  fs.writeFileSync(file, 'not a folder')

  for (const [what, dir, cause] of [
    ['under a regular file', path.join(file, 'data'), /not a folder/],
    ['a regular file itself', file, /not a folder/],
  ] as const) {
    it(`${what}: one line naming the folder and the cause, exit 2`, () => {
      const r = start(dir)
      expect(r.status).toBe(2)
      const lines = r.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(dir)
      expect(lines[0]).toMatch(cause)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }, 60_000)
  }
})
