import i18n from 'i18next'

// The setup loads en only; a test that checks another language loads its bundles here.
const modules = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true })

/** Switches the test's i18n to `language` with all its namespaces; call the result to switch back to en. */
export async function switchLanguage(language: 'en' | 'nl' | 'fr'): Promise<() => Promise<void>> {
  for (const [path, module] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path)
    if (match?.[1] === language && !i18n.hasResourceBundle(language, match[2])) {
      i18n.addResourceBundle(language, match[2], module.default)
    }
  }
  await i18n.changeLanguage(language)
  return async () => {
    await i18n.changeLanguage('en')
  }
}
