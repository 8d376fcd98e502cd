import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/**
 * A throwaway PostgreSQL cluster for the tests: Debian's `postgresql` binaries
 * (/usr/lib/postgresql/<version>/bin), a fresh data folder under the system temp folder, listening on
 * 127.0.0.1 at a free port and on a private unix socket; no root service, nothing left behind after
 * `stop`. Durability is switched off (fsync, synchronous_commit, full_page_writes): the data is
 * thrown away anyway. When the process runs as root (CI containers), the cluster runs as the
 * `postgres` system user, because initdb refuses root.
 */
export interface Cluster {
  /** postgres://cockpit@127.0.0.1:<port>/postgres (trust authentication on loopback only). */
  url: string
  port: number
  stop: () => void
}

/** The newest installed server's bin folder, or null when Debian's `postgresql` is not installed. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return null
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
  return versions.length ? path.join(root, versions[0], 'bin') : null
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

/** Start a cluster; throws with the server log when it does not come up. */
export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin()
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-pg-'))
  const data = path.join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir])
  fs.chmodSync(dir, 0o700)
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args]
    const r = spawnSync(file, argv, { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`)
  }
  run('initdb', ['-D', data, '-U', 'cockpit', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
  const port = await freePort()
  const options = [
    `-p ${port}`, '-c listen_addresses=127.0.0.1', `-k ${dir}`, '-c fsync=off', '-c synchronous_commit=off',
    '-c full_page_writes=off', '-c max_connections=400', '-c shared_buffers=128MB', '-c timezone=UTC',
  ].join(' ')
  try {
    run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start'])
  } catch (err) {
    const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : ''
    fs.rmSync(dir, { recursive: true, force: true })
    throw new Error(`${(err as Error).message}\n${log}`)
  }
  let stopped = false
  return {
    url: `postgres://cockpit@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      if (stopped) return
      stopped = true
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
