import { createRequire } from 'node:module'
import type { Socket } from 'node:net'

/**
 * Release node:http's per-connection state from a hijacked live stream's socket (≤ 16 KiB per
 * idle subscriber). After the relay has written the response head itself, node:http would still keep,
 * for the life of the stream, the request's parser, IncomingMessage and ServerResponse (about 10 KiB
 * per connection, native and JS); node itself drops them only for 'upgrade' requests, which an
 * EventSource cannot make. This does what node's upgrade path does (lib/_http_server.js): remove the
 * server's socket listeners, unconsume, finish and free the parser, unlink the response.
 *
 * It relies on node internals (`_http_common.freeParser`, the server's listener names, the parser on
 * `socket.parser`); when any of them is missing it changes nothing and returns false, so a Node upgrade
 * can cost memory but not correctness (tests/integration/relay-detach.test.ts checks it works on the
 * Node in use). Must run outside the parser's call stack (e.g. in setImmediate after the handler).
 * Afterwards the caller owns a plain socket: it must handle 'error', read (to see the client's FIN),
 * end it on the client's FIN, and end it on shutdown (the server no longer lists it).
 */
export function detachFromHttp(socket: Socket): boolean {
  const s = socket as Socket & { parser?: HttpParser | null; _httpMessage?: { detachSocket(socket: Socket): void } | null }
  const parser = s.parser
  const named = (event: string, name: string) => socket.listeners(event).some((fn) => fn.name === name)
  if (!parser || !freeParser || !named('data', 'bound socketOnData') || !named('close', 'bound socketOnClose')) return false
  for (const event of ['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause']) {
    for (const fn of socket.listeners(event)) if (HTTP_LISTENERS.has(fn.name)) socket.removeListener(event, fn as (...args: unknown[]) => void)
  }
  if (parser._consumed) parser.unconsume()
  parser._consumed = false
  parser.finish()
  freeParser(parser, parser.incoming, socket)
  s._httpMessage?.detachSocket(socket)
  s._httpMessage = null
  return true
}

interface HttpParser {
  _consumed: boolean
  incoming: unknown
  unconsume(): void
  finish(): void
}

const HTTP_LISTENERS = new Set(['bound socketOnData', 'bound socketOnEnd', 'bound socketOnClose', 'bound socketOnDrain', 'socketOnError', 'socketOnTimeout', 'onSocketResume', 'onSocketPause'])

const freeParser = ((): ((parser: HttpParser, req: unknown, socket: Socket) => void) | null => {
  try {
    const fn = (createRequire(import.meta.url)('_http_common') as { freeParser?: unknown }).freeParser
    return typeof fn === 'function' ? (fn as (parser: HttpParser, req: unknown, socket: Socket) => void) : null
  } catch {
    return null
  }
})()
