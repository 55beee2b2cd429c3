import type { TFunction } from 'i18next'
import { formatAmount } from '@/lib/format'

// Pure helpers behind the invoices table and the payment methods list
// (SPEC §4 descriptions, §5 IBAN display, §9 amounts and dates).

/** What an invoice bills, read from its description (SPEC §4). */
export type InvoiceDescriptionKind = 'upgrade' | 'payment_due' | 'renewal' | 'credit_note' | 'plan'

export interface InvoiceDescription {
  kind: InvoiceDescriptionKind
  /** The plan as written (e.g. PRO), or '' when none could be read. */
  plan: string
}

const PLAN_TOKEN = /\b(TRIAL|STARTER|PRO|TEAM)\b/i

/**
 * UPGRADE_{plan} → upgrade; PAYMENTDUE_{plan} → payment_due; CREDITNOTE_{plan}
 * → credit_note (a credit note of the plan's invoice); text starting
 * with Renewal (e.g. "Renewal PRO") → renewal; anything else is the plan name.
 */
export function parseInvoiceDescription(description: string): InvoiceDescription {
  const text = description.trim()
  const upper = text.toUpperCase()
  if (upper.startsWith('UPGRADE_')) return { kind: 'upgrade', plan: text.slice('UPGRADE_'.length).trim() }
  if (upper.startsWith('PAYMENTDUE_')) return { kind: 'payment_due', plan: text.slice('PAYMENTDUE_'.length).trim() }
  if (upper.startsWith('CREDITNOTE_')) return { kind: 'credit_note', plan: text.slice('CREDITNOTE_'.length).trim() }
  if (upper.startsWith('RENEWAL')) {
    const rest = text.slice('Renewal'.length)
    return { kind: 'renewal', plan: rest.match(PLAN_TOKEN)?.[1] ?? rest.replace(/^[\s:_-]+/, '').trim() }
  }
  return { kind: 'plan', plan: text }
}

const KNOWN_PLANS = ['TRIAL', 'STARTER', 'PRO', 'TEAM']

/** "Pro" for PRO (translated); an unknown plan is shown capitalised. */
export function planDisplayName(plan: string, t: TFunction): string {
  const code = plan.trim().toUpperCase()
  if (KNOWN_PLANS.includes(code)) return t(`common:plans.${code}`)
  const lower = plan.trim().toLowerCase()
  return lower.charAt(0).toUpperCase() + lower.slice(1)
}

/** The translated description: "Upgrade to Pro", "Pro plan", "Renewal of the Pro plan". */
export function invoiceDescriptionText(description: string, t: TFunction): string {
  const { kind, plan } = parseInvoiceDescription(description)
  if (!plan) return description
  return t(`billing:invoices.description.${kind}`, { plan: planDisplayName(plan, t) })
}

/**
 * Amount with two decimals as the language writes money (en €217.80, nl
 * € 217,80, fr 217,80 €); a currency without a SPEC §9 symbol takes the
 * billing country's (`country`), else none: 180.00 (SEK).
 */
export function formatInvoiceAmount(amount: number, currency: string, language: string, country?: string): string {
  return formatAmount(amount, currency, language, { country })
}

/** Card expiry "YYYY-MM" → "MM/YY"; anything else → ''. */
export function formatCardExpiry(value: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(value.trim())
  if (!match) return ''
  const month = Number(match[2])
  if (month < 1 || month > 12) return ''
  return `${match[2]}/${match[1].slice(2)}`
}

export const IBAN_MIN_LENGTH = 16
export const INVALID_IBAN_LENGTH = 'Invalid IBAN length'

/**
 * SPEC §5 IBAN display: spaces ignored; shorter than 16 characters is an error
 * ('Invalid IBAN length'); otherwise only the first 4 and last 4 are shown.
 */
export function maskIban(iban: string): string {
  const compact = iban.replace(/\s+/g, '').toUpperCase()
  if (compact.length < IBAN_MIN_LENGTH) throw new Error(INVALID_IBAN_LENGTH)
  return `${compact.slice(0, 4)} **** ${compact.slice(-4)}`
}

export interface MandateInput {
  method: string
  details?: { cardNumber?: string | null; cardExpiryDate?: string | null; cardLabel?: string | null; consumerAccount?: string | null }
}

/** What a payment method row shows. */
export type MandateView =
  | { kind: 'card'; brand: string; last4: string; expiry: string }
  | { kind: 'directdebit'; account: string }
  | { kind: 'directdebit'; account: null; error: typeof INVALID_IBAN_LENGTH }

/**
 * Card: brand, last four digits, expiry MM/YY. Direct debit: the account number
 * masked by maskIban; one the provider already masked (e.g. "****3000") is shown as given.
 */
export function describeMandate(mandate: MandateInput): MandateView {
  const details = mandate.details ?? {}
  if (mandate.method === 'card') {
    return {
      kind: 'card',
      brand: (details.cardLabel ?? '').trim(),
      last4: (details.cardNumber ?? '').replace(/\D/g, '').slice(-4),
      expiry: formatCardExpiry(details.cardExpiryDate ?? ''),
    }
  }
  const account = (details.consumerAccount ?? '').trim()
  if (account.includes('*') || account.includes('•')) return { kind: 'directdebit', account }
  try {
    return { kind: 'directdebit', account: maskIban(account) }
  } catch {
    return { kind: 'directdebit', account: null, error: INVALID_IBAN_LENGTH }
  }
}
