// The worker of client/app/intl-warmup.ts: builds the Intl objects it is sent, answers, and is done.
import { warmIntl } from './intl-warmup.ts'
import type { IntlWarmup } from './intl-warmup.ts'

// The DOM library's `self` is a window; this is a dedicated worker's scope.
const scope = self as unknown as { onmessage: ((e: MessageEvent<IntlWarmup>) => void) | null; postMessage: (message: unknown) => void }
scope.onmessage = (e) => {
  try {
    warmIntl(e.data)
  } finally {
    scope.postMessage('done')
  }
}
