/**
 * Route preloading from index.html (docs/decisions.md "Web: what loads first").
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
  /**
   * The route's own chunks are not preloaded with the HTML, only its texts: the page paints a frame
   * from the shell first and imports its chunk once that frame is painted (Power: power-frame.tsx,
   * facility-layout's import after the first paint). Preloaded beside the entry, its 20 KB took
   * bandwidth from the files of that first paint: LCP 1.92 → 1.76 s simulated on a quiet machine
   * (medians of 3).
   */
  chunksAfterPaint?: boolean
}

/** The routes measured by bench:web (Login, Power); others load as before. */
export const PRELOAD_ROUTES: readonly PreloadRoute[] = [
  { pattern: '^/login/?$', module: 'features/login/login-page.tsx', extra: [], ns: ['login'] },
  {
    pattern: '^/facility/\\d+/power/?$',
    module: 'features/power/power-page.tsx',
    extra: ['live/connection.ts'],
    ns: ['power', 'charging'],
    chunksAfterPaint: true,
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
   * Set in the prerendered login page only (config/vite.config.ts loginHead), which paints from its
   * HTML: its entry script and the entry's module preloads, taken out of the HTML so that nothing is
   * fetched before that paint. The boot script adds them, with the route's files, once the page has
   * painted (see {@link PRELOAD_BOOT_SCRIPT}).
   */
  boot?: { entry: string; preload: string[] }
}

/**
 * The inline boot script (ES5, no dependencies). Picks the language as client/i18n initialLanguage()
 * does (stored choice, else English for an `en*` browser, else German: SPEC §9) and adds the module
 * preloads; a failure only means the files load later, as without it.
 *
 * With `boot` in the map (the prerendered login page) it also adds the entry script, and all of it only
 * once the page has painted, i.e. a `first-contentful-paint` entry has been reported (the browser's
 * presentation of that frame) and the HTML is parsed (had the paint come first, two frames later, so
 * the rest of the markup is on screen). Why (docs/decisions.md "Web: the login page"): when a script arrived before
 * the first paint, which raced on every load, Lighthouse's simulation counted every script into the
 * paint and LCP went 0.8 → 1.8 s; the form's code now follows its first paint by a frame. Hidden pages
 * (no paint to wait for) load at once, browsers without paint timing two frames after parsing, all
 * of them after 3 s at the latest, and an error in here still adds the entry: the form must always run.
 *
 * After that paint the entry script comes first and then one preload per task: each tag costs the main
 * thread about 1 ms (the request starts synchronously), and the eleven of the login page in one task took
 * 9–15 ms, 35–60 ms on Lighthouse's 4× slower phone CPU, which counted as blocking time (Login's
 * score). index.html adds its preloads in one go while it parses, before anything is painted.
 */
export const PRELOAD_BOOT_SCRIPT =
  '(function(){var d,b,f=[],done=0;' +
  'function add(h){var k=document.createElement(\'link\');k.rel=\'modulepreload\';k.href=h;document.head.appendChild(k)}' +
  'function go(){if(done)return;done=1;f=f.filter(Boolean);' +
  'if(!b)return f.forEach(add);' +
  "var s=document.createElement('script');s.type='module';s.src=b.entry;document.head.appendChild(s);" +
  'var next=function(){try{add(f.shift())}catch(e){}if(f.length)setTimeout(next,0)};if(f.length)setTimeout(next,0)}' +
  "try{d=JSON.parse(document.getElementById('" +
  PRELOAD_MAP_ID +
  "').textContent);b=d.boot;var l=null;try{l=localStorage.getItem('cockpit.language')}catch(e){}" +
  "if(!l||!d.locales[l])l=/^en/i.test(navigator.language||'en')?'en':'de';" +
  'var t=d.locales[l],p=location.pathname;if(b)f=b.preload.slice();' +
  'd.initial.forEach(function(n){f.push(t[n])});' +
  'd.routes.forEach(function(r){if(new RegExp(r.pattern).test(p)){f=f.concat(r.chunks);r.ns.forEach(function(n){f.push(t[n])})}});' +
  "if(!b||document.visibilityState==='hidden')return go();" +
  'var painted=0,parsed=0,check=function(){if(painted&&parsed)go()};' +
  'setTimeout(go,3000);' +
  "if((PerformanceObserver.supportedEntryTypes||[]).indexOf('paint')<0)painted=1;" +
  "else new PerformanceObserver(function(x,o){if(x.getEntriesByName('first-contentful-paint').length){o.disconnect();painted=1;check()}}).observe({type:'paint',buffered:true});" +
  "if(document.readyState!=='loading')parsed=1;" +
  "else document.addEventListener('DOMContentLoaded',function(){var a=painted?requestAnimationFrame:function(c){c()};a(function(){a(function(){parsed=1;check()})})});" +
  'check()' +
  '}catch(e){go()}})()'
