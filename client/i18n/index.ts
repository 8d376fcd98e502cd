import i18next from 'i18next'
import type { BackendModule, ReadCallback } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { LANGUAGES } from '../../config/defaults.ts'

/** A UI language (SPEC §9): en, de, fr, it. */
export type Language = (typeof LANGUAGES)[number]
export { LANGUAGES }

/** Namespaces: one JSON file per namespace and language under locales/. */
export const NAMESPACES = ['common', 'login', 'home', 'power', 'charging', 'settings', 'users', 'permissions'] as const

/**
 * Loaded before the first render: the shell's texts only. A screen's namespaces load with its chunk
 * ({@link withNamespaces}) or, failing that, when a component asks for them (react-i18next suspends).
 */
const INITIAL_NAMESPACES = ['common']

const STORAGE_KEY = 'cockpit.language'

// Locale files are separate chunks: only the active language's namespaces in use are fetched;
// another language is fetched when the user switches to it.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json')

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders[`./locales/${language}/${namespace}.json`]
    if (!load) {
      callback(new Error(`no locale ${language}/${namespace}`), false)
      return
    }
    load().then(
      (mod) => callback(null, mod.default),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    )
  },
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/**
 * The language to start with: the stored choice, else the browser's (SPEC §9: English if it starts
 * with "en", otherwise German).
 */
export function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (isLanguage(stored)) return stored
  } catch {
    // storage blocked: fall through to the browser language
  }
  const browser = typeof navigator === 'undefined' ? 'en' : navigator.language || 'en'
  return browser.toLowerCase().startsWith('en') ? 'en' : 'de'
}

/**
 * Namespaces a route paints with before its screen's chunk is in: Power's frame (its heading and first
 * tile, client/features/power/power-frame.tsx) renders while the installation list loads.
 * index.html preloads them with the entry on that route (config/preload-boot.ts), so waiting for them
 * before the first render costs no round trip.
 */
export function firstPaintNamespaces(pathname: string): string[] {
  return /^\/facility\/\d+\/power\/?$/.test(pathname) ? ['power'] : []
}

/**
 * Load the language resources (common, and `extra` namespaces) and initialise i18next; resolves when
 * the UI can render.
 */
export async function initI18n(extra: readonly string[] = []): Promise<typeof i18next> {
  const lng = initialLanguage()
  await i18next
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng,
      // Every key exists in all four languages (scripts/check-locales.ts), so no fallback language is
      // loaded beside the active one (one language's bundles per page).
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: [...INITIAL_NAMESPACES, ...extra],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    })
  document.documentElement.lang = lng
  return i18next
}

/**
 * A lazy screen loader that fetches the screen's translation namespaces in parallel with its chunk,
 * so the screen does not suspend a second time for its texts (no request waterfall).
 * `load`: the dynamic import; `ns`: the namespaces the screen uses besides common.
 */
export function withNamespaces<T>(load: () => Promise<T>, ns: readonly string[]): () => Promise<T> {
  return () => Promise.all([load(), i18next.loadNamespaces([...ns])]).then(([mod]) => mod)
}

/** Switch the UI language, persist the choice, and update <html lang>. */
export async function setLanguage(lng: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, lng)
  } catch {
    // not persisted: the choice still applies to this tab
  }
  await i18next.changeLanguage(lng)
  document.documentElement.lang = lng
}

/** The active language, always one of LANGUAGES. */
export function currentLanguage(): Language {
  const lng = i18next.resolvedLanguage ?? i18next.language
  return isLanguage(lng) ? lng : 'en'
}

export { i18next }
