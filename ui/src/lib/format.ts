import { LOGO_PUBLIC_PREFIX } from './constants'

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
