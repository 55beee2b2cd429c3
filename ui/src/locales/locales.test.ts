import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Every key in en must exist in nl and fr (and no language may have extras).
const root = join(process.cwd(), 'src', 'locales')
const LANGS = ['en', 'nl', 'fr']

function keys(node: unknown, prefix = ''): string[] {
  if (node === null || typeof node !== 'object') return [prefix]
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
    keys(value, prefix ? `${prefix}.${key}` : key),
  )
}

function load(lang: string, ns: string): unknown {
  return JSON.parse(readFileSync(join(root, lang, `${ns}.json`), 'utf8'))
}

const namespaces = readdirSync(join(root, 'en'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''))

describe('locales', () => {
  it('has common and the feature namespaces, with kebab-case names', () => {
    expect(namespaces).toContain('common')
    for (const ns of namespaces) expect(ns).toMatch(/^[a-z]+(-[a-z]+)*$/)
  })

  it.each(LANGS.slice(1))('%s has the same namespace files as en', (lang) => {
    const files = readdirSync(join(root, lang)).filter((file) => file.endsWith('.json')).sort()
    expect(files).toEqual(namespaces.map((ns) => `${ns}.json`).sort())
  })

  for (const ns of namespaces) {
    it.each(LANGS.slice(1))(`${ns}: %s has exactly the keys of en`, (lang) => {
      const expected = keys(load('en', ns)).sort()
      const actual = keys(load(lang, ns)).sort()
      expect(actual.filter((key) => !expected.includes(key))).toEqual([])
      expect(expected.filter((key) => !actual.includes(key))).toEqual([])
    })

    it.each(LANGS)(`${ns}: %s has no empty texts`, (lang) => {
      const walk = (node: unknown): string[] =>
        typeof node === 'string' ? [node] : Object.values(node as Record<string, unknown>).flatMap(walk)
      for (const text of walk(load(lang, ns))) expect(text.trim()).not.toBe('')
    })
  }
})
