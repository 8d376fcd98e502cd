import fs from 'node:fs/promises'
import path from 'node:path'

/** A journal segment is closed and a new one begun past this size, bytes. */
export const SEGMENT_BYTES = 4 << 20

/** Where the sender stands: the segment it reads and the byte offset of its first unsent line. */
interface Cursor {
  segment: number
  offset: number
}

const segmentName = (n: number) => `readings-${String(n).padStart(8, '0')}.jsonl`
const SEGMENT = /^readings-(\d{8})\.jsonl$/

/**
 * The gateway's disk buffer (GATEWAY_DIR): readings are appended as JSON lines to numbered segment files
 * (`readings-00000001.jsonl`, …) and flushed to disk before `append` resolves; `cursor.json` records the
 * first line not yet acknowledged by the portal, written atomically (a new file renamed over the old).
 * Segments wholly sent are deleted. After a crash, a torn last line is cut off and sending resumes at
 * the cursor: a batch sent but not yet recorded as sent goes again, which the ingestion API's idempotency
 * absorbs (same meter, timestamp and measurand = one reading). Order is kept: lines go out as written.
 *
 * Not safe for two processes on one directory (one gateway per GATEWAY_DIR).
 */
export async function openJournal<T>(dir: string) {
  await fs.mkdir(dir, { recursive: true })
  const cursorFile = path.join(dir, 'cursor.json')
  const segments = async () => (await fs.readdir(dir)).map((f) => SEGMENT.exec(f)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => a - b)

  let cursor: Cursor = await fs.readFile(cursorFile, 'utf8').then((t) => JSON.parse(t) as Cursor, () => ({ segment: 1, offset: 0 }))
  const existing = await segments()
  let writing = existing.length ? existing[existing.length - 1] : cursor.segment
  if (cursor.segment < (existing[0] ?? cursor.segment)) cursor = { segment: existing[0], offset: 0 }
  // A write cut short by a crash leaves a line without its end: cut it off.
  const last = path.join(dir, segmentName(writing))
  const text = await fs.readFile(last).catch(() => Buffer.alloc(0))
  const end = text.lastIndexOf(0x0a) + 1
  if (end < text.length) await fs.truncate(last, end)
  let writingSize = end
  let pending = (await Promise.all((await segments()).filter((n) => n >= cursor.segment).map(async (n) => countLines(await fs.readFile(path.join(dir, segmentName(n))), n === cursor.segment ? cursor.offset : 0)))).reduce((a, b) => a + b, 0)
  let queue: Promise<unknown> = Promise.resolve()
  /** Run `fn` after every earlier journal operation (appends and acknowledgements stay in order). */
  const serial = <R>(fn: () => Promise<R>): Promise<R> => {
    const run = queue.then(fn)
    queue = run.catch(() => undefined)
    return run
  }

  async function saveCursor(next: Cursor) {
    const tmp = `${cursorFile}.tmp`
    await fs.writeFile(tmp, JSON.stringify(next))
    await fs.rename(tmp, cursorFile)
    cursor = next
  }

  return {
    /** Append `items` in order, on disk before this resolves. */
    append(items: T[]): Promise<void> {
      if (!items.length) return Promise.resolve()
      return serial(async () => {
        if (writingSize >= SEGMENT_BYTES) {
          writing += 1
          writingSize = 0
        }
        const data = Buffer.from(items.map((i) => JSON.stringify(i)).join('\n') + '\n')
        const handle = await fs.open(path.join(dir, segmentName(writing)), 'a')
        try {
          await handle.write(data)
          await handle.datasync()
        } finally {
          await handle.close()
        }
        writingSize += data.length
        pending += items.length
      })
    },

    /**
     * The oldest unsent items, at most `max` of them and about `maxBytes` (at least one), with the
     * position `ack` takes once the portal has them. Lines that are not JSON (a damaged disk) are skipped.
     */
    peek(max: number, maxBytes: number): Promise<{ items: T[]; lines: number; next: Cursor }> {
      return serial(async () => {
        let at = { ...cursor }
        const items: T[] = []
        let bytes = 0
        let lines = 0
        while (items.length < max) {
          const file = path.join(dir, segmentName(at.segment))
          const buf = await fs.readFile(file).catch(() => null)
          if (buf && at.offset < buf.length) {
            const nl = buf.indexOf(0x0a, at.offset)
            if (nl < 0) break
            const line = buf.subarray(at.offset, nl)
            if (items.length && bytes + line.length > maxBytes) break
            try {
              items.push(JSON.parse(line.toString('utf8')) as T)
              bytes += line.length + 1
            } catch {
              // not a whole JSON line: skipped
            }
            at = { segment: at.segment, offset: nl + 1 }
            lines++
            continue
          }
          if (at.segment >= writing) break
          at = { segment: at.segment + 1, offset: 0 }
        }
        return { items, lines, next: at }
      })
    },

    /** Record the `lines` before `next` as sent (both from {@link peek}); segments wholly sent are deleted. */
    ack(next: Cursor, lines: number): Promise<void> {
      return serial(async () => {
        await saveCursor(next)
        pending = Math.max(0, pending - lines)
        for (const n of await segments()) if (n < next.segment) await fs.rm(path.join(dir, segmentName(n)), { force: true })
      })
    },

    /** How many items wait to be sent. */
    pending: () => pending,
  }
}
export type Journal<T> = Awaited<ReturnType<typeof openJournal<T>>>

/** The number of whole lines in `buf` from byte `from`. */
function countLines(buf: Buffer, from: number): number {
  let n = 0
  for (let i = buf.indexOf(0x0a, from); i >= 0; i = buf.indexOf(0x0a, i + 1)) n++
  return n
}
