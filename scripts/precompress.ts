/**
 * Precompress the built client: writes `<file>.br` (brotli, quality 11) and `<file>.gz`
 * (gzip, level 9) beside every text file of dist/client (or CLIENT_OUT_DIR), which the server sends
 * with `Content-Encoding` by Accept-Encoding (server/lib/static.ts). A variant that is not smaller
 * than the file is not written. Run after `vite build`: node scripts/precompress.ts
 */
import { readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'

/** Extensions worth compressing; images and fonts are already compressed. */
const TEXT = /\.(js|mjs|css|html|json|svg|txt|map|webmanifest)$/

/** Compressed siblings of `bytes`: brotli at its best quality, gzip at level 9. */
export function compressVariants(bytes: Buffer): { br: Buffer; gz: Buffer } {
  return {
    br: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
    gz: gzipSync(bytes, { level: 9 }),
  }
}

/**
 * Write the .br and .gz siblings of every text file under `dir` (the .vite manifest folder is
 * skipped: it is not served). Stale siblings of a previous run are replaced. Returns the files done.
 */
export function precompressDir(dir: string): string[] {
  const done: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name)
    if (!entry.isFile() || !TEXT.test(entry.name) || path.relative(dir, full).split(path.sep).includes('.vite')) continue
    const bytes = readFileSync(full)
    const { br, gz } = compressVariants(bytes)
    for (const [ext, out] of [['.br', br], ['.gz', gz]] as const) {
      if (out.length < bytes.length) writeFileSync(full + ext, out)
      else rmSync(full + ext, { force: true })
    }
    done.push(full)
  }
  return done
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.env.CLIENT_OUT_DIR ?? fileURLToPath(new URL('../dist/client/', import.meta.url))
  const files = precompressDir(dir)
  console.log(`Precompressed ${files.length} files in ${path.relative(process.cwd(), dir) || dir} (.br, .gz)`)
}
