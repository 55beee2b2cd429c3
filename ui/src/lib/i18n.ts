import i18n, { type BackendModule, type ReadCallback } from 'i18next'
import { initReactI18next } from 'react-i18next'

// Translations live in src/locales/<lang>/<namespace>.json. Each file is its
// own lazy chunk, so only the bundles a screen needs are downloaded.

export const LANGUAGES = ['en', 'nl', 'fr'] as const
export type Language = (typeof LANGUAGES)[number]
export const FALLBACK_LANGUAGE: Language = 'en'
export const LANGUAGE_KEY = 'language'

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json')

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders[`../locales/${language}/${namespace}.json`]
    if (!load) {
      callback(null, {})
      return
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    )
  },
}

/** Stored choice first, then the browser's language, then en. */
export function detectLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY)
  if (isLanguage(stored)) return stored
  for (const candidate of navigator.languages ?? [navigator.language]) {
    const base = candidate?.slice(0, 2).toLowerCase()
    if (isLanguage(base)) return base
  }
  return FALLBACK_LANGUAGE
}

export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language
  return isLanguage(lang) ? lang : FALLBACK_LANGUAGE
}

/** Changes the UI language and keeps the choice in localStorage `language`. */
export async function setLanguage(language: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, language)
  if (currentLanguage() !== language || i18n.language !== language) {
    await i18n.changeLanguage(language)
  }
}

export function initI18n(): Promise<unknown> {
  i18n.on('languageChanged', (lng) => {
    if (isLanguage(lng)) {
      localStorage.setItem(LANGUAGE_KEY, lng)
      document.documentElement.lang = lng
    }
  })
  return i18n
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: detectLanguage(),
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
      // Ask for the first texts now, not from a timer after the current
      // task: the entry's evaluation would hold that timer back, and the
      // texts' request with it, behind the route chunks (issue 37 item 9).
      initAsync: false,
    })
}

export { i18n }
