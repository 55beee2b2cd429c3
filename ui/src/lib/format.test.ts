import { afterEach, describe, expect, it } from 'vitest'
import { currencySymbol, formatAmount, formatDate, formatDateTime, formatLongDate, localeSymbol, trimPublicPath } from './format'

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

describe('localeSymbol (SPEC §9)', () => {
  it.each([
    ['en_GB', '£'],
    ['da_DK', 'kr'],
    ['sv_SE', 'kr'],
    ['nb_NO', 'kr'],
    ['hu_HU', 'Ft'],
    ['de_CH', 'CHF'],
    ['pl_PL', 'zł'],
    ['nl_BE', '€'],
    ['', '€'],
  ])('%j → %j', (locale, symbol) => expect(localeSymbol(locale)).toBe(symbol))
})

// Non-breaking spaces as Intl writes them, shown as plain spaces here.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

describe('formatAmount: Intl placement per language, SPEC §9 symbols', () => {
  it.each([
    [566.28, 'EUR', 'en', '€566.28'],
    [566.28, 'EUR', 'nl', '€ 566,28'],
    [566.28, 'EUR', 'fr', '566,28 €'],
    [1188, 'EUR', 'fr', '1 188,00 €'],
    [0.01, 'GBP', 'en', '£0.01'],
    [-12.5, 'USD', 'en', '-$12.50'],
    [180, 'SEK', 'nl', '180,00'],
  ])('%d %s %s → %j', (amount, currency, language, text) => expect(plain(formatAmount(amount, currency, language))).toBe(text))
  it('falls back to the billing country’s symbol for a currency without one', () =>
    expect(plain(formatAmount(180, 'SEK', 'fr', { country: 'sv_SE' }))).toBe('180,00 kr'))
  it('whole amounts without decimals when asked', () =>
    expect(plain(formatAmount(39, 'EUR', 'nl', { whole: true }))).toBe('€ 39'))
})

describe('formatLongDate: Intl dateStyle long in the UI language, day first in en', () => {
  it.each([
    ['en', '5 March 2027'],
    ['nl', '5 maart 2027'],
    ['fr', '5 mars 2027'],
  ])('%s', (language, text) => expect(formatLongDate('2027-03-05T12:00:00Z', language)).toBe(text))

  it.each(['', 'not a date', null])('%j → -', (iso) => expect(formatLongDate(iso, 'en')).toBe('-'))
})

describe('formatDateTime: SPEC §9 date and the time, where the day alone leaves a customer guessing (issue 37)', () => {
  // Local times: the browser's clock is the customer's.
  it.each([
    ['en', '05/03/26, 14:30'],
    ['nl', '05/03/26, 14:30'],
    ['fr', '05/03/26, 14:30'],
  ])('%s', (language, text) => expect(formatDateTime('2026-03-05T14:30:00', language)).toBe(text))

  it.each(['', 'not a date', null])('%j → -', (iso) => expect(formatDateTime(iso, 'en')).toBe('-'))
})

describe('Intl formatters: built once per language and style, not once per row (issue 37 item 9)', () => {
  const { DateTimeFormat, NumberFormat } = Intl
  afterEach(() => {
    Intl.DateTimeFormat = DateTimeFormat
    Intl.NumberFormat = NumberFormat
  })
  /** Counts the formatters built from now on. */
  function countBuilt() {
    const built = { dates: 0, numbers: 0 }
    Intl.DateTimeFormat = class extends DateTimeFormat {
      constructor(...args: ConstructorParameters<typeof DateTimeFormat>) {
        super(...args)
        built.dates++
      }
    } as typeof Intl.DateTimeFormat
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...args: ConstructorParameters<typeof NumberFormat>) {
        super(...args)
        built.numbers++
      }
    } as typeof Intl.NumberFormat
    return built
  }

  it('a timeline of 20 entries and 20 amounts builds one of each, per language', () => {
    const built = countBuilt()
    for (let i = 0; i < 20; i++) {
      expect(formatDateTime(`2026-03-${String(i + 1).padStart(2, '0')}T14:30:00`, 'de')).toBe(`${String(i + 1).padStart(2, '0')}/03/26, 14:30`)
      expect(plain(formatAmount(10 + i, 'EUR', 'de'))).toBe(`${10 + i},00 €`)
    }
    expect(built).toEqual({ dates: 1, numbers: 1 })
    expect(formatLongDate('2027-03-05T12:00:00Z', 'it')).toBe('5 marzo 2027')
    expect(formatLongDate('2027-03-06T12:00:00Z', 'it')).toBe('6 marzo 2027')
    expect(plain(formatAmount(39, 'EUR', 'de', { whole: true }))).toBe('39 €')
    expect(built).toEqual({ dates: 2, numbers: 2 })
  })
})
