import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import i18next from 'i18next'
import { describe, expect, it } from 'vitest'

// Issue 37 item 8: every count is said with i18next plurals in en, nl and fr
// ("1 place utilisée sur 2", never "1 places", "1 users" or "1 codes").
const root = join(process.cwd(), 'src', 'locales')
const LANGS = ['en', 'nl', 'fr'] as const
const PLURAL = /_(zero|one|two|few|many|other)$/

function load(lang: string) {
  const namespaces = readdirSync(join(root, lang)).filter((file) => file.endsWith('.json'))
  return Object.fromEntries(
    namespaces.map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(root, lang, file), 'utf8')) as object]),
  )
}

function entries(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]]
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => entries(value, prefix ? `${prefix}.${key}` : key))
}

async function inLanguage(lang: (typeof LANGS)[number]) {
  const instance = i18next.createInstance()
  await instance.init({ lng: lang, resources: { [lang]: load(lang) }, interpolation: { escapeValue: false } })
  return instance.t
}

describe('counts use plurals', () => {
  it.each(LANGS)('%s: every text with {{count}} is a plural form, with its _one and _other', (lang) => {
    for (const [ns, tree] of Object.entries(load(lang))) {
      const all = entries(tree)
      const keys = new Set(all.map(([key]) => key))
      for (const [key] of all.filter(([, text]) => text.includes('{{count}}'))) {
        expect(`${ns}:${key}`).toMatch(PLURAL)
        const base = key.replace(PLURAL, '')
        expect(keys.has(`${base}_one`) && keys.has(`${base}_other`), `${ns}:${base}_one/_other`).toBe(true)
      }
    }
  })

  it.each([
    ['fr', 1, 2, '1 place utilisée sur 2'],
    ['fr', 3, 10, '3 places utilisées sur 10'],
    ['en', 1, 1, '1 of 1 seat used'],
    ['en', 4, 10, '4 of 10 seats used'],
    ['nl', 1, 1, '1 van 1 plaats gebruikt'],
    ['nl', 2, 10, '2 van 10 plaatsen gebruikt'],
  ] as const)('%s seats: %i of %i → %s', async (lang, used, limit, expected) => {
    const t = await inLanguage(lang)
    expect(t('team:seats', { count: used, limit: t('team:seats_total', { count: limit }) })).toBe(expected)
  })

  it.each([
    ['en', 1, '1 unused recovery code left.'],
    ['nl', 1, 'Nog 1 ongebruikte herstelcode.'],
    ['fr', 1, 'Il reste 1 code de récupération inutilisé.'],
    ['fr', 7, 'Il reste 7 codes de récupération inutilisés.'],
  ] as const)('%s recovery codes: %i → %s', async (lang, count, expected) => {
    const t = await inLanguage(lang)
    expect(t('mfa:card.codes_left', { count })).toBe(expected)
  })

  it.each(LANGS)('%s: a full plan of one seat is not "all 1 seats", a Starter plan not "1 users"', async (lang) => {
    const t = await inLanguage(lang)
    expect(t('team:full', { count: 1 })).not.toMatch(/\b1\b/)
    expect(t('plans:seats.too_small', { count: 1, plan: 'Starter', limit: 1, used: 2 })).not.toMatch(/1 (users|gebruikers|utilisateurs)/)
  })
})
