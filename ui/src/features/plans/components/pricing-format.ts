import type { PaidPlan } from '@/lib/constants'
import type { Pricing } from '@/lib/api/get-pricing'
import { formatAmount } from '@/lib/format'

// Pure helpers behind the price block of a plan card (SPEC §9).

/** The monthly figure: the yearly amount divided by 12, rounded to whole units. */
export function monthlyAmount(yearly: number): number {
  return Math.round(yearly / 12)
}

/** The yearly net amount of a plan from the pricing table. */
export function yearlyAmount(pricing: Pricing, plan: PaidPlan): number {
  switch (plan) {
    case 'STARTER':
      return pricing.pricing_table.starter_pricing
    case 'PRO':
      return pricing.pricing_table.pro_pricing
    case 'TEAM':
      return pricing.pricing_table.team_pricing
  }
}

/**
 * A price as the UI language writes money: whole amounts without decimals,
 * others with two (en: €1,188 · €179.99; nl: € 1.188; fr: 1 188 €).
 */
export function formatMoney(amount: number, currency: string, language: string): string {
  return formatAmount(amount, currency, language, { whole: Number.isInteger(amount) })
}

/** The monthly price shown large on a card (whole units). */
export function formatMonthly(yearly: number, currency: string, language: string): string {
  return formatMoney(monthlyAmount(yearly), currency, language)
}

/** A VAT rate in percent as the language writes it: 21 → "21", 25.5 → "25.5" (en) / "25,5" (nl, fr). */
export function formatVatRate(rate: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(rate)
}
