import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/**
 * `npm start` (README "Start"): builds the web client when it is missing or older than its sources,
 * then starts the server with the demo (DEMO=on unless set). The build takes about 20 s and happens on
 * the first start and after the client's code changed (a `git pull`), not on every start.
 *
 * The sources are client/, shared/ (the schemas the client imports), config/vite.config.ts and
 * package-lock.json (a changed library); the build's mark is its index.html (CLIENT_OUT_DIR, else
 * dist/client, as config/vite.config.ts writes it). Files' modification times decide, not the clock.
 */
const repo = path.resolve(import.meta.dirname, '..')
const outDir = process.env.CLIENT_OUT_DIR ?? path.join(repo, 'dist/client')
const mark = path.join(outDir, 'index.html')

/** The newest modification time (ms) of the files under `p` (a file or a folder), or 0. */
function newest(p: string): number {
  let stat: fs.Stats
  try {
    stat = fs.statSync(p)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let max = stat.mtimeMs
  for (const e of fs.readdirSync(p)) if (e !== 'node_modules') max = Math.max(max, newest(path.join(p, e)))
  return max
}

const sources = ['client', 'shared', 'config/vite.config.ts', 'package-lock.json'].map((f) => path.join(repo, f))
const built = fs.existsSync(mark) ? fs.statSync(mark).mtimeMs : 0
if (built < Math.max(...sources.map(newest))) {
  console.log(built ? 'The web client changed: building it again (about 20 s).' : 'First start: building the web client (about 20 s, once).')
  const b = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' })
  if (b.status !== 0) process.exit(b.status ?? 1)
}

// The server handles SIGINT and SIGTERM itself (a graceful shutdown, server/main.ts; a second signal
// changes nothing): this process passes either on and exits as the server does.
const server = spawn(process.execPath, ['--max-semi-space-size=4', 'server/main.ts'], {
  cwd: repo,
  stdio: 'inherit',
  env: { ...process.env, DEMO: process.env.DEMO ?? 'on' },
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
