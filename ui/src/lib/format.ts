import { LOGO_PUBLIC_PREFIX } from './constants'

// Intl's formatters are slow to build (each looks the locale's data up) and
// quick to use: one per language and style, kept, rather than one per row of
// a timeline or an invoice list (issue 37 item 9).
const DATE_STYLES = {
  long: { dateStyle: 'long' },
  time: { hour: '2-digit', minute: '2-digit' },
  longTime: { dateStyle: 'long', timeStyle: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>
const dateFormats = new Map<string, Intl.DateTimeFormat>()
const euroFormats = new Map<string, Intl.NumberFormat>()

/** The language's DateTimeFormat of a style, en written day first as en-GB (built once). */
function dateFormat(language: string, style: keyof typeof DATE_STYLES): Intl.DateTimeFormat {
  const key = `${language}|${style}`
  let format = dateFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : language, DATE_STYLES[style])
    dateFormats.set(key, format)
  }
  return format
}

/** Dates display as day/month/two-digit year (SPEC §9), e.g. 05/03/26. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '-'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '-'
  const dd = String(date.getDate()).padStart(2, '0')
  const mm = String(date.getMonth() + 1).padStart(2, '0')
  const yy = String(date.getFullYear() % 100).padStart(2, '0')
  return `${dd}/${mm}/${yy}`
}

/**
 * A date as the UI language writes it in full (Intl dateStyle long): en
 * 5 March 2027 (day first, as every date here), nl 5 maart 2027, fr 5 mars
 * 2027; '-' when there is none.
 */
export function formatLongDate(iso: string | null | undefined, language: string): string {
  if (!iso) return '-'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '-'
  return dateFormat(language, 'long').format(date)
}

/**
 * SPEC §9's date with the time on the browser's clock, e.g. "05/03/26, 14:30"
 * (24-hour in en, nl and fr): for the moments where the day alone leaves a
 * customer guessing — the trial's last day, a deletion, an export's expiry —
 * and for the timeline's entries. '-' when there is none.
 */
export function formatDateTime(iso: string | null | undefined, language: string): string {
  const date = formatDate(iso)
  if (date === '-') return date
  return `${date}, ${dateFormat(language, 'time').format(new Date(iso!))}`
}

/**
 * A moment as the UI language writes it in full, with the time (issue 35: when
 * a user is erased): en 5 March 2027 at 10:00, nl 5 maart 2027 om 10:00; '-'
 * when there is none.
 */
export function formatLongDateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '-'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '-'
  return dateFormat(language, 'longTime').format(date)
}

/** File paths are shown from after the first 'public/' (SPEC §9); other paths as given. */
export function trimPublicPath(path: string): string {
  const at = path.indexOf(LOGO_PUBLIC_PREFIX)
  return at === -1 ? path : path.slice(at + LOGO_PUBLIC_PREFIX.length)
}

const CURRENCY_SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£' }

/** USD $, EUR €, GBP £, any other currency no symbol (SPEC §9). */
export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency.trim().toUpperCase()] ?? ''
}

const LOCALE_SYMBOLS: Record<string, string> = {
  en_GB: '£', da_DK: 'kr', sv_SE: 'kr', nb_NO: 'kr', hu_HU: 'Ft', de_CH: 'CHF', pl_PL: 'zł',
}

/** The symbol of a country locale (SPEC §9): en_GB £, da_DK/sv_SE/nb_NO kr, hu_HU Ft, de_CH CHF, pl_PL zł, else €. */
export function localeSymbol(locale: string): string {
  return LOCALE_SYMBOLS[locale.trim()] ?? '€'
}

/**
 * An amount as the UI language writes money (Intl.NumberFormat: en €566.28,
 * nl € 566,28, fr 566,28 €), with SPEC §9's symbol: the currency's (USD $,
 * EUR €, GBP £); for another currency the billing country's (`country`,
 * e.g. sv_SE kr) when known, else none. `whole`: no decimals (plan prices).
 */
export function formatAmount(
  amount: number,
  currency: string,
  language: string,
  { country, whole = false }: { country?: string; whole?: boolean } = {},
): string {
  const symbol = currencySymbol(currency) || (country ? localeSymbol(country) : '')
  const digits = whole ? 0 : 2
  // Format as euros for the language's placement of symbol and sign, then put our symbol there.
  const key = `${language}|${digits}`
  let euros = euroFormats.get(key)
  if (!euros) {
    euros = new Intl.NumberFormat(language, { style: 'currency', currency: 'EUR', minimumFractionDigits: digits, maximumFractionDigits: digits })
    euroFormats.set(key, euros)
  }
  const parts = euros.formatToParts(amount)
  const out: string[] = []
  parts.forEach((part, i) => {
    if (part.type === 'currency') {
      out.push(symbol)
      return
    }
    // The space between the number and a symbol that is not there goes too.
    if (part.type === 'literal' && !symbol && (parts[i - 1]?.type === 'currency' || parts[i + 1]?.type === 'currency')) return
    out.push(part.value)
  })
  return out.join('').trim()
}
