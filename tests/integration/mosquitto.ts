import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'

/** A free TCP port of 127.0.0.1 (listened on and let go). */
async function freePort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

/** Wait until something accepts connections on `port` of 127.0.0.1, or fail after `ms`. */
async function listening(port: number, ms = 10_000): Promise<void> {
  const end = performance.now() + ms
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)))
      s.on('error', () => resolve(false))
    })
    if (ok) return
    if (performance.now() > end) throw new Error(`mosquitto did not listen on ${port}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * Debian's mosquitto (/usr/sbin/mosquitto) started for a test on a free port of 127.0.0.1 with a
 * generated configuration: no anonymous clients, one user `user`/`password` (mosquitto_passwd), no
 * persistence. `stop()` and `start()` take it away and bring it back on the same port.
 */
export async function startMosquitto({ user = 'cockpit', password = 'broker-secret' } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-mosquitto-'))
  // Started as root, mosquitto drops to its own user, who must still read the folder's files.
  fs.chmodSync(dir, 0o755)
  const port = await freePort()
  const passwd = path.join(dir, 'passwd')
  fs.writeFileSync(passwd, '')
  execFileSync('/usr/bin/mosquitto_passwd', ['-b', passwd, user, password])
  fs.chmodSync(passwd, 0o644)
  const conf = path.join(dir, 'mosquitto.conf')
  fs.writeFileSync(conf, [`listener ${port} 127.0.0.1`, 'allow_anonymous false', `password_file ${passwd}`, 'persistence false', `log_dest file ${path.join(dir, 'mosquitto.log')}`, ''].join('\n'))
  let proc: ChildProcess | null = null
  const broker = {
    port,
    user,
    password,
    url: `mqtt://127.0.0.1:${port}`,
    async start() {
      proc = spawn('/usr/sbin/mosquitto', ['-c', conf], { stdio: 'ignore' })
      await listening(port).catch((err: Error) => {
        throw new Error(`${err.message}: ${fs.readFileSync(path.join(dir, 'mosquitto.log'), 'utf8').slice(-500)}`)
      })
    },
    async stop() {
      const p = proc
      proc = null
      if (!p || p.exitCode !== null) return
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve())
        p.kill('SIGTERM')
      })
    },
    async close() {
      await broker.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
  await broker.start()
  return broker
}
