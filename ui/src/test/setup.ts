import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'

// Tests run in en with every namespace loaded synchronously.
const modules = import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/*.json', { eager: true })
const en = Object.fromEntries(
  Object.entries(modules).map(([path, module]) => [path.replace(/^.*\/([^/]+)\.json$/, '$1'), module.default]),
)

await i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en },
  ns: Object.keys(en),
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
})

afterEach(() => {
  cleanup()
  localStorage.clear()
  vi.unstubAllGlobals() // fetch stubs (test/mock-api.ts) never leak into the next test
})

// jsdom lacks ResizeObserver (Radix measures some controls with it).
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver

// jsdom lacks scrollIntoView and pointer capture (Radix Select uses them).
Element.prototype.scrollIntoView ??= function scrollIntoView() {}
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.releasePointerCapture ??= () => {}
