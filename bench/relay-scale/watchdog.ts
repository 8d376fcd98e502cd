/**
 * Preloaded into the relay process by run.ts (`node --expose-gc --import …/watchdog.ts server/main.ts`);
 * touches nothing of the relay:
 * - the relay exits when the benchmark that started it is gone, even if that was killed with SIGKILL;
 * - on SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() as JSON to
 *   BENCH_MEM_FILE, so run.ts can measure the memory that subscribers hold rather than garbage left by
 *   the connection storm.
 */
import fs from 'node:fs'

const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM')
}, 1000).unref()

const memFile = process.env.BENCH_MEM_FILE
const gc = (globalThis as { gc?: () => void }).gc
if (memFile) {
  process.on('SIGUSR2', () => {
    gc?.()
    gc?.()
    fs.writeFileSync(`${memFile}.tmp`, JSON.stringify({ at: Date.now(), gc: !!gc, ...process.memoryUsage() }))
    fs.renameSync(`${memFile}.tmp`, memFile)
  })
}
