import { describe, expect, it } from 'vitest'
import { currencySymbol, formatDate, trimPublicPath } from './format'

describe('currencySymbol (SPEC §9)', () => {
  it.each([
    ['USD', '$'],
    ['EUR', '€'],
    ['GBP', '£'],
    ['eur', '€'],
    ['CHF', ''],
    ['', ''],
  ])('%j → %j', (currency, symbol) => expect(currencySymbol(currency)).toBe(symbol))
})

describe('formatDate: day/month/two-digit year (SPEC §9)', () => {
  it.each([
    ['2026-03-05T12:00:00Z', '05/03/26'],
    ['2009-11-30T12:00:00Z', '30/11/09'],
    ['not a date', '-'],
    ['', '-'],
    [null, '-'],
  ])('%j → %j', (iso, text) => expect(formatDate(iso)).toBe(text))
})

describe('trimPublicPath: paths shown from after public/ (SPEC §9)', () => {
  it.each([
    ['public/logos/a/1.png', 'logos/a/1.png'],
    ['https://cdn.example.com/kudos/public/logos/a/1.png', 'logos/a/1.png'],
    ['public/x/public/y.png', 'x/public/y.png'],
    ['public/', ''],
    ['tmp/logos/a/1.png', 'tmp/logos/a/1.png'],
    ['logo.png', 'logo.png'],
    ['', ''],
  ])('%j → %j', (path, trimmed) => expect(trimPublicPath(path)).toBe(trimmed))
})
