/**
 * The embedded database's own thread. PGlite runs Postgres compiled to WASM: every
 * statement executes synchronously on the thread that owns it, so on the server's thread one long
 * statistics query froze the API, the relay and the simulator. Here it owns a worker thread and serves
 * the Postgres wire protocol (pglite-socket) on a unix socket, and the server talks to it with `pg`
 * exactly as to a Postgres server (ARCHITECTURE §1: one code path).
 *
 * workerData: `{ pgdata: string | null, dump?: string, socketPath: string }`: `pgdata` null → in-memory
 * database; `dump` a file of PGlite's dumpDataDir (gzipped or plain tar) a new database is loaded from
 * instead of starting empty: an in-memory one always, a data folder only while it holds no database
 * (PGlite refuses to load a dump over one; no PG_VERSION file yet).
 * Messages to the parent: `{ type: 'ready' }` once the socket listens, `{ type: 'error', message, code }` if
 * the database could not be opened, `{ type: 'closed' }` after a `'close'` message was handled.
 *
 * This file runs in a bare worker: it imports packages and node: modules only, nothing of the app.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

const { pgdata, dump, socketPath } = workerData as { pgdata: string | null; dump?: string; socketPath: string }
const port = parentPort!

try {
  const isNew = !pgdata || !fs.existsSync(path.join(pgdata, 'PG_VERSION'))
  // The file read at once into a Blob. A file-backed Blob (fs.openAsBlob) saved ~0.4 s of CPU per start,
  // but a test worker died once under it (cause not found), so it is not used (docs/performance.md).
  const loadDataDir = dump && isNew ? new Blob([fs.readFileSync(dump)]) : undefined
  const pglite = await PGlite.create({ ...(pgdata ? { dataDir: pgdata } : {}), ...(loadDataDir ? { loadDataDir } : {}) })
  // Two slots though the server's pool holds one connection: a connection the pool replaced after an
  // error may not be released here yet when its successor connects.
  const server = new PGLiteSocketServer({ db: pglite, path: socketPath, maxConnections: 2 })
  await server.start()
  // The socket's directory is private already (0700); the socket itself is the owner's only too.
  fs.chmodSync(socketPath, 0o600)
  port.on('message', async (msg: unknown) => {
    if (msg !== 'close') return
    try {
      await server.stop()
      await pglite.close()
    } finally {
      port.postMessage({ type: 'closed' })
    }
  })
  port.postMessage({ type: 'ready' })
} catch (err) {
  // The errno code travels along: the server words ENOSPC, EROFS, EACCES… for the operator.
  port.postMessage({ type: 'error', message: (err as Error).message, code: (err as NodeJS.ErrnoException).code })
}
