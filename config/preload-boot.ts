/**
 * Route preloading from index.html (issue 11 §4–5, docs/decisions.md "Route preloads from index.html").
 *
 * Without it a first visit loads in three waves: the entry chunk, then (once it has run) the active
 * language's common texts, then the route's chunk and its texts. The build writes a map of those files
 * into index.html as a JSON data block, and {@link PRELOAD_BOOT_SCRIPT}, an inline script, adds
 * `<link rel="modulepreload">` for the current route and language while the HTML is still parsing, so
 * all of them load in the first wave beside the entry.
 *
 * The script is a constant (the map is data, not code), so the server's CSP allows exactly it by hash
 * (server/api/security.ts) and `script-src` needs no 'unsafe-inline'.
 */

/** A route whose chunk and texts are preloaded: `pattern` tests `location.pathname`. */
export interface PreloadRoute {
  pattern: string
  /** The lazily imported screen module, relative to client/. */
  module: string
  /** Further lazily imported modules the route needs at once, relative to client/. */
  extra: readonly string[]
  /** Translation namespaces the screen loads with its chunk (client/i18n withNamespaces). */
  ns: readonly string[]
}

/** The routes measured by bench:web (Login, Power); others load as before. */
export const PRELOAD_ROUTES: readonly PreloadRoute[] = [
  { pattern: '^/login/?$', module: 'features/login/login-page.tsx', extra: [], ns: ['login'] },
  {
    pattern: '^/facility/\\d+/power/?$',
    module: 'features/power/power-page.tsx',
    extra: ['live/connection.ts'],
    ns: ['power', 'charging'],
  },
]

/** Namespaces loaded before the first render on every route (client/i18n INITIAL_NAMESPACES). */
export const PRELOAD_INITIAL_NS: readonly string[] = ['common']

/** The id of the JSON data block the build writes: {@link PreloadMap}. */
export const PRELOAD_MAP_ID = 'cockpit-preload'

/** The data block's shape: file URLs per route, and per language and namespace. */
export interface PreloadMap {
  routes: Array<{ pattern: string; chunks: string[]; ns: readonly string[] }>
  initial: readonly string[]
  locales: Record<string, Record<string, string>>
  /**
   * Preload at low fetch priority: set in the prerendered login page (config/vite.config.ts
   * loginShells), which paints from its HTML, so its scripts must not compete with it.
   */
  low?: boolean
}

/**
 * The inline boot script (ES5, no dependencies). Picks the language as client/i18n initialLanguage()
 * does (stored choice, else English for an `en*` browser, else German: SPEC §9) and never throws: a
 * failure only means the files load later, as without it.
 */
export const PRELOAD_BOOT_SCRIPT =
  "(function(){try{var d=JSON.parse(document.getElementById('" +
  PRELOAD_MAP_ID +
  "').textContent),l=null;try{l=localStorage.getItem('cockpit.language')}catch(e){}" +
  "if(!l||!d.locales[l])l=/^en/i.test(navigator.language||'en')?'en':'de';" +
  'var t=d.locales[l],p=location.pathname,f=[];' +
  'd.initial.forEach(function(n){f.push(t[n])});' +
  'd.routes.forEach(function(r){if(new RegExp(r.pattern).test(p)){f=f.concat(r.chunks);r.ns.forEach(function(n){f.push(t[n])})}});' +
  "f.forEach(function(h){if(!h)return;var k=document.createElement('link');k.rel='modulepreload';if(d.low)k.fetchPriority='low';k.href=h;document.head.appendChild(k)})" +
  '}catch(e){}})()'
