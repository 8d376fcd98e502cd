import i18next from 'i18next'
import type { BackendModule, ReadCallback } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { LANGUAGES } from '../../config/defaults.ts'

/** A UI language (SPEC §9): en, de, fr, it. */
export type Language = (typeof LANGUAGES)[number]
export { LANGUAGES }

/** Namespaces: one JSON file per namespace and language under locales/. */
export const NAMESPACES = ['common', 'login', 'home', 'power', 'charging', 'settings', 'users', 'permissions'] as const

const STORAGE_KEY = 'cockpit.language'

// Locale files are separate chunks: only the active language is fetched (besides the English fallback).
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

/** Load the language resources and initialise i18next; resolves when the UI can render. */
export async function initI18n(): Promise<typeof i18next> {
  const lng = initialLanguage()
  await i18next
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      ns: [...NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    })
  document.documentElement.lang = lng
  return i18next
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
