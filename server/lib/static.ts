import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import zlib from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyCompress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import { withStyleHashes } from '../api/security.ts'

/** Responses below this many bytes are sent as they are: compressing them saves nothing. */
export const COMPRESS_THRESHOLD = 1024

/**
 * Content types compressed on the fly: text and JSON, never `text/event-stream`. The live streams
 * write their sockets themselves (hijacked replies, ARCHITECTURE §5) and must reach the browser
 * event by event; a compressor would hold events back until its buffer fills.
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)xml(?:;|$)|javascript(?:;|$)/u

/**
 * On-the-fly compression of API answers: br or gzip by Accept-Encoding for compressible
 * bodies of at least {@link COMPRESS_THRESHOLD} bytes. Request bodies are not decompressed (a small
 * compressed body must not expand past the body limit). Register before the routes: the plugin
 * hooks every route added after it.
 */
export async function compression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
    // gzip's default level 6 took 2.5× the time of level 1 on a year of 15-minute statistics (20 MB of
    // JSON: ~0.4 s against ~0.15 s) for a 5 % smaller body. Brotli stays at the plugin's quality 4.
    zlibOptions: { level: 1 },
  })
}

type Encoding = 'br' | 'gzip'
const EXTENSION: Record<Encoding, string> = { br: '.br', gzip: '.gz' }

/**
 * The encoding to send from `available`, by the request's Accept-Encoding (RFC 9110 §12.5.3):
 * br before gzip, anything with q=0 refused, `*` accepting both. Undefined → send the file as is.
 */
export function pickEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!header) return undefined
  const q = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const value = qp ? Number(qp.slice(2)) : 1
    if (name) q.set(name, Number.isFinite(value) ? value : 0)
  }
  const star = q.get('*')
  return (['br', 'gzip'] as const).find((e) => available.includes(e) && (q.get(e) ?? star ?? 0) > 0)
}

const ROOT_TYPES: Record<string, string> = {
  '.webmanifest': 'application/manifest+json',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
}

/**
 * The files at the build's root besides index.html and /assets (client/public's icons,
 * favicon.ico and offline page; the PWA build's manifest.webmanifest, sw.js and workbox-<hash>.js), one
 * level deep (icons/). `cacheControl`: the service worker, the manifest and the offline page
 * `no-cache` (an update is seen at once), the hashed Workbox runtime immutable, icons a day.
 */
export function rootFiles(root: string): Array<{ url: string; file: string; type: string; cacheControl: string }> {
  const out: Array<{ url: string; file: string; type: string; cacheControl: string }> = []
  const visit = (dir: string, prefix: string, depth: number) => {
    if (!fs.existsSync(dir)) return
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory()) {
        if (depth === 0 && d.name !== 'assets' && !d.name.startsWith('.')) visit(path.join(dir, d.name), `${prefix}${d.name}/`, depth + 1)
        continue
      }
      const type = ROOT_TYPES[path.extname(d.name)]
      if (!type || d.name === 'index.html') continue
      const url = `${prefix}${d.name}`
      const cacheControl = /^\/workbox-[0-9a-f]{8}\.js$/.test(url)
        ? 'public, max-age=31536000, immutable'
        : type.startsWith('image/')
          ? 'public, max-age=86400'
          : 'no-cache'
      out.push({ url, file: path.join(dir, d.name), type, cacheControl })
    }
  }
  visit(root, '/', 0)
  return out
}

/**
 * Serve the built client from `root` (vite's dist/client, precompressed by scripts/precompress.ts):
 * - `/assets/*`: content-hashed files, `Cache-Control: public, max-age=31536000, immutable`, sent as
 *   their `.br`/`.gz` sibling when the browser accepts it (`Content-Encoding`, `Vary`).
 * - `/`, `/index.html` and every client route (GET and HEAD; not /api, /live, /assets or a name with an
 *   extension): index.html with `Cache-Control: no-cache` and an ETag, so a new build is seen at once.
 * - the root's other files ({@link rootFiles}): PWA manifest, service worker, icons, offline page.
 * Anything else: 404 `{detail}` via `notFound`.
 */
export async function serveClient(
  app: FastifyInstance,
  root: string,
  notFound: (req: FastifyRequest, reply: FastifyReply) => unknown,
): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.join(root, 'assets'),
    prefix: '/assets/',
    preCompressed: true,
    maxAge: '365d',
    immutable: true,
    index: false,
    dotfiles: 'deny',
  })

  const file = path.join(root, 'index.html')
  const plain = fs.readFileSync(file)
  const variants: Partial<Record<Encoding, Buffer>> = {}
  for (const enc of ['br', 'gzip'] as const) {
    if (fs.existsSync(file + EXTENSION[enc])) variants[enc] = fs.readFileSync(file + EXTENSION[enc])
  }
  const available = Object.keys(variants) as Encoding[]
  const etag = `"${crypto.createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"`

  const sendIndex = (req: FastifyRequest, reply: FastifyReply) => {
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').header('ETag', etag).header('Vary', 'Accept-Encoding')
    if (req.headers['if-none-match'] === etag) return reply.code(304).send()
    const enc = pickEncoding(req.headers['accept-encoding'], available)
    if (enc) return reply.header('Content-Encoding', enc).send(variants[enc])
    return reply.send(plain)
  }
  app.get('/', sendIndex)
  app.get('/index.html', sendIndex)
  serveLoginShells(app, root)

  for (const entry of rootFiles(root)) {
    const body = fs.readFileSync(entry.file)
    const packed: Partial<Record<Encoding, Buffer>> = {}
    for (const enc of ['br', 'gzip'] as const) {
      if (fs.existsSync(entry.file + EXTENSION[enc])) packed[enc] = fs.readFileSync(entry.file + EXTENSION[enc])
    }
    const encodings = Object.keys(packed) as Encoding[]
    app.get(entry.url, (req, reply) => {
      reply.type(entry.type).header('Cache-Control', entry.cacheControl)
      if (encodings.length > 0) reply.header('Vary', 'Accept-Encoding')
      const enc = pickEncoding(req.headers['accept-encoding'], encodings)
      if (enc) return reply.header('Content-Encoding', enc).send(packed[enc])
      return reply.send(body)
    })
  }

  app.setNotFoundHandler((req, reply) => {
    // Client routes get the app; a missing file (an old asset after a rebuild) gets a real 404.
    const pathname = req.url.split('?')[0]
    const clientRoute = !/^\/(api|live|assets)(\/|$)/.test(pathname) && !/\.[a-z0-9]+$/i.test(pathname)
    if ((req.method === 'GET' || req.method === 'HEAD') && clientRoute) return sendIndex(req, reply)
    return notFound(req, reply)
  })
}

/**
 * `/login` with the login screen already in its HTML (Login's LCP waited for the scripts): the
 * build writes `.prerender/login-<lang>.html` (config/vite.config.ts), index.html with the logged-out frame,
 * greeting and intro inside #root, which React replaces on its first render. The language is the one the
 * app will pick on a first visit (client/i18n initialLanguage, config/preload-boot.ts): English for an
 * `en*` browser, else German; a stored other choice repaints once the app runs. `no-cache` with an ETag
 * like index.html, sent as the build's `.br`/`.gz` siblings (scripts/precompress.ts; compressed here only
 * when a build lacks them). Without the files (an older build), index.html as before.
 * The build inlines the stylesheet into these pages (one request less before the first paint); their
 * `<style>` texts are allowed by hash in this answer's CSP only (`withStyleHashes`).
 */
function serveLoginShells(app: FastifyInstance, root: string): void {
  const shells: Partial<Record<'en' | 'de', { plain: Buffer; etag: string; packed: Record<Encoding, Buffer>; styles: string[] }>> = {}
  for (const lang of ['en', 'de'] as const) {
    const file = path.join(root, '.prerender', `login-${lang}.html`)
    if (!fs.existsSync(file)) continue
    const plain = fs.readFileSync(file)
    const etag = `"${crypto.createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"`
    const styles = [...plain.toString('utf8').matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1])
    // The build's siblings (scripts/precompress.ts); compressing here instead cost each start ~0.6 s of CPU.
    const sibling = (enc: Encoding) => (fs.existsSync(file + EXTENSION[enc]) ? fs.readFileSync(file + EXTENSION[enc]) : undefined)
    const packed = { br: sibling('br') ?? zlib.brotliCompressSync(plain), gzip: sibling('gzip') ?? zlib.gzipSync(plain, { level: 9 }) }
    shells[lang] = { plain, etag, packed, styles }
  }
  if (!shells.en || !shells.de) return
  const send = (req: FastifyRequest, reply: FastifyReply) => {
    const first = (req.headers['accept-language'] ?? 'en').split(',')[0].trim()
    const shell = /^en/i.test(first) ? shells.en! : shells.de!
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').header('ETag', shell.etag).header('Vary', 'Accept-Encoding, Accept-Language')
    const policy = reply.getHeader('content-security-policy')
    if (typeof policy === 'string') reply.header('Content-Security-Policy', withStyleHashes(policy, shell.styles))
    if (req.headers['if-none-match'] === shell.etag) return reply.code(304).send()
    const enc = pickEncoding(req.headers['accept-encoding'], ['br', 'gzip'])
    if (enc) return reply.header('Content-Encoding', enc).send(shell.packed[enc])
    return reply.send(shell.plain)
  }
  app.get('/login', send)
}
