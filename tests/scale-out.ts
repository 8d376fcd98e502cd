import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { crc32 } from 'node:zlib'

/**
 * Scale-out harness shared by tests/integration/relay-failover.test.ts and
 * bench/scale-out.ts: Cockpit processes started as children (`node server/main.ts` with their roles),
 * and the proxy in front of them: Debian's nginx running deploy/nginx.conf itself (only its addresses,
 * pid and listen port rewritten) when the binary is installed, else a Node stand-in with the same
 * consistent hashing of /live/installations/{id}.
 */

const ROOT = path.resolve(import.meta.dirname, '..')
export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx'

/** A free TCP port on 127.0.0.1 (taken by the caller right after; good enough on a test machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

export interface CockpitProcess {
  /** http://127.0.0.1:<port> */
  url: string
  /** host:port, as a proxy's upstream line names it. */
  address: string
  child: ChildProcess
  /** The process's stderr and stdout so far (for failures). */
  output(): string
  /** SIGKILL (a crash, nothing closed cleanly) or SIGTERM; resolves once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>
}

/**
 * Start `node server/main.ts` on 127.0.0.1 with `env` over a minimal environment (LOG_LEVEL warn) and
 * wait until GET /api/health answers 200 (≤ `timeoutMs`). Throws with the process's output otherwise.
 * `root`: the checkout to run (default this one; the benchmark runs another branch's relays for a
 * before/after comparison).
 */
export async function startCockpit(env: Record<string, string>, timeoutMs = 90_000, root = ROOT): Promise<CockpitProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const keep = (b: Buffer) => (out = (out + b.toString()).slice(-20_000))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = `http://127.0.0.1:${port}`
  const proc: CockpitProcess = {
    url, address: `127.0.0.1:${port}`, child, output: () => out,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
  const end = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`cockpit (${env.ROLES}) exited with ${child.exitCode}:\n${out}`)
    try {
      if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok) return proc
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      await proc.kill()
      throw new Error(`cockpit (${env.ROLES}) did not answer /api/health within ${timeoutMs} ms:\n${out}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

export interface ShardProxy {
  kind: 'nginx' | 'node'
  url: string
  /** nginx's master process (to kill it when the caller dies). */
  child?: ChildProcess
  /** nginx's error log so far (stderr, last 10 kB). */
  errors?: () => string
  close(): Promise<void>
}

/** Whether Debian's nginx can be used (installed and runnable by this user). */
export function nginxUsable(): boolean {
  if (process.env.SCALE_PROXY === 'node' || !fs.existsSync(NGINX_BIN)) return false
  return spawnSync(NGINX_BIN, ['-v']).status === 0
}

/**
 * deploy/nginx.conf with this machine's addresses: the relay, API and OCPP upstream lines become `relays`,
 * `apis` and `ocpp` (keeping their options; `ocpp` defaults to `apis`), it listens on 127.0.0.1:`port`, keeps its pid under `prefix` and runs
 * one worker. `accessLog`: also log every API request as `<epoch seconds> <seconds taken> <URI>` (how
 * the bench counts upstream polls).
 */
export function nginxConfig(opts: { port: number; relays: string[]; apis: string[]; ocpp?: string[]; prefix: string; accessLog?: string }): string {
  let conf = fs.readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8')
  const replaceServers = (upstream: string, addresses: string[]) => {
    const block = new RegExp(`(upstream ${upstream} \\{[^}]*?)((?:\\s*server [^;]+;)+)`)
    const m = block.exec(conf)
    if (!m) throw new Error(`deploy/nginx.conf: upstream ${upstream} not found`)
    const options = /server \S+ ([^;]*);/.exec(m[2])?.[1] ?? ''
    conf = conf.replace(block, `$1${addresses.map((a) => `\n    server ${a} ${options};`).join('')}`)
  }
  replaceServers('cockpit_relays', opts.relays)
  replaceServers('cockpit_api', opts.apis)
  // Without OCPP processes of its own, charge points go to the API processes (which answer 404 there).
  replaceServers('cockpit_ocpp', opts.ocpp ?? opts.apis)
  conf = conf.replace(/^pid .*$/m, `pid ${opts.prefix}/nginx.pid;`)
    .replace(/^worker_processes .*$/m, 'worker_processes 1;')
    .replace(/listen \d+;/, `listen 127.0.0.1:${opts.port};`)
  if (!conf.includes(`listen 127.0.0.1:${opts.port};`)) throw new Error('deploy/nginx.conf: listen line not found')
  if (opts.accessLog) {
    conf = conf.replace(/access_log off;/, `access_log off;\n  log_format cockpit_uri '$msec $request_time $request_uri';`)
      .replace(/location \/ \{/, `location / {\n      access_log ${opts.accessLog} cockpit_uri;`)
  }
  return conf
}

/** Start nginx with {@link nginxConfig} in the foreground (daemon off), unprivileged, under a temp prefix. */
export async function startNginx(opts: { relays: string[]; apis: string[]; ocpp?: string[]; accessLog?: string; port?: number }): Promise<ShardProxy> {
  const port = opts.port ?? (await freePort())
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-nginx-'))
  const confFile = path.join(prefix, 'nginx.conf')
  fs.writeFileSync(confFile, nginxConfig({ ...opts, port, prefix }))
  const child = spawn(NGINX_BIN, ['-p', prefix, '-e', 'stderr', '-c', confFile, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let err = ''
  child.stderr!.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-10_000)))
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = `http://127.0.0.1:${port}`
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    fs.rmSync(prefix, { recursive: true, force: true })
  }
  const end = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${err}`)
    if (await new Promise<boolean>((r) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); r(true) }).once('error', () => r(false)))) break
    if (Date.now() > end) {
      await close()
      throw new Error(`nginx did not listen: ${err}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return { kind: 'nginx', url, close, child, errors: () => err }
}

/**
 * A consistent-hash ring (the scheme of nginx's `hash … consistent`, ketama): 160 points per server on a
 * CRC32 circle; a key goes to the first point at or after its CRC32, and when that server is down, to the
 * next point of another server. So a server that leaves moves only its own keys.
 */
export function createRing(servers: string[], pointsPerServer = 160) {
  const points = servers.flatMap((s) => Array.from({ length: pointsPerServer }, (_, i) => ({ hash: crc32(`${s}-${i}`), server: s })))
  points.sort((a, b) => a.hash - b.hash)
  return {
    /** Servers in the order a request for `key` tries them. */
    order(key: string): string[] {
      const h = crc32(key)
      let lo = 0
      let hi = points.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (points[mid].hash < h) lo = mid + 1
        else hi = mid
      }
      const seen: string[] = []
      for (let i = 0; i < points.length && seen.length < servers.length; i++) {
        const s = points[(lo + i) % points.length].server
        if (!seen.includes(s)) seen.push(s)
      }
      return seen
    },
  }
}

/**
 * The Node stand-in for the proxy when nginx is not installed: /live/installations/{id} and
 * /live/tickets?installation={id} by the ring on the installation id (other /live paths on the path), everything else round robin over `apis`;
 * a server refusing the connection is skipped for `failTimeoutMs` (nginx: max_fails=1 fail_timeout=10s)
 * and the next one in the ring is tried. Bodies stream through unbuffered (Server-Sent Events).
 */
export async function startNodeProxy(opts: { relays: string[]; apis: string[]; failTimeoutMs?: number; accessLog?: string; port?: number }): Promise<ShardProxy> {
  const ring = createRing(opts.relays)
  const log = opts.accessLog ? fs.createWriteStream(opts.accessLog, { flags: 'a' }) : null
  const downUntil = new Map<string, number>()
  let next = 0
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/'
    const shard = /^\/live\/installations\/(\d+)/.exec(url)?.[1] ?? (url.startsWith('/live/tickets?') ? new URLSearchParams(url.split('?')[1]).get('installation') ?? undefined : undefined)
    const targets = url.startsWith('/live/') ? ring.order(shard ?? url.split('?')[0]) : [opts.apis[next++ % opts.apis.length]]
    const began = Date.now()
    if (log && !url.startsWith('/live/')) res.on('finish', () => log.write(`${(Date.now() / 1000).toFixed(3)} ${((Date.now() - began) / 1000).toFixed(3)} ${url}\n`))
    const body: Buffer[] = []
    req.on('data', (b: Buffer) => body.push(b))
    req.on('end', () => attempt(0))
    // Servers marked down go last: tried only when every other one refused too.
    const order = [...targets.filter((t) => (downUntil.get(t) ?? 0) <= Date.now()), ...targets.filter((t) => (downUntil.get(t) ?? 0) > Date.now())]
    const attempt = (i: number) => {
      const target = order[i]
      if (!target) {
        res.writeHead(502).end()
        return
      }
      const [host, port] = target.split(':')
      const up = http.request({ host, port: Number(port), method: req.method, path: url, headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' } }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers)
        res.flushHeaders()
        upRes.pipe(res)
        upRes.on('error', () => res.destroy())
        upRes.on('close', () => res.destroy())
      })
      up.on('error', () => {
        if (res.headersSent) return void res.destroy()
        downUntil.set(target, Date.now() + (opts.failTimeoutMs ?? 10_000))
        attempt(i + 1)
      })
      res.on('close', () => up.destroy())
      up.end(Buffer.concat(body))
    }
  })
  const port = opts.port ?? (await freePort())
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  return {
    kind: 'node',
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      await new Promise<void>((r) => (log ? log.end(r) : r()))
    },
  }
}

/** nginx when usable (see nginxUsable), else the Node stand-in. */
export async function startShardProxy(opts: { relays: string[]; apis: string[]; accessLog?: string; port?: number }): Promise<ShardProxy> {
  return nginxUsable() ? startNginx(opts) : startNodeProxy(opts)
}
