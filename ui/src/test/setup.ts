import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, expect, vi } from 'vitest'
import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import { classConflicts } from '@/lib/utils'
import { dismissError } from '@/lib/error-store'

// findBy* and waitFor wait up to 60 s: on a machine shared with go test
// -race and three browsers a render can take seconds, and a lazily imported
// module is transformed on its first import (vitest transforms on demand):
// in clean make test runs at load ~25 that took over 20 s (a plan's payment
// details, the team page's dialogs). A slow render is not what these tests
// look for: what they assert stays the same, and testTimeout still bounds
// a test.
configure({ asyncUtilTimeout: 60000 })

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

afterEach(async () => {
  // A component whose classes fight (cn, lib/utils.ts) fails the test that drew it.
  expect(classConflicts.splice(0), 'conflicting Tailwind classes').toEqual([])
  cleanup()
  localStorage.clear()
  sessionStorage.clear()
  vi.unstubAllGlobals() // fetch stubs (test/mock-api.ts) never leak into the next test
  // Test files share their worker's modules (vitest.config.ts): the error
  // popup's store and the language start each test as new.
  dismissError()
  if (i18n.language !== 'en') await i18n.changeLanguage('en')
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
