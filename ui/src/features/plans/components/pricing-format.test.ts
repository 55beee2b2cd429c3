import { describe, expect, it } from 'vitest'
import type { Pricing } from '@/lib/api/get-pricing'
import { formatMoney, formatMonthly, formatVatRate, monthlyAmount, yearlyAmount } from './pricing-format'

const pricing: Pricing = {
  pricing_table: { starter_pricing: 180, pro_pricing: 468, team_pricing: 1188 },
  currency: 'EUR',
  vat_rate: 21,
  reverse_charge: false,
  vat_treatment: 'standard',
  checkout_origin: 'http://127.0.0.1:8080',
}

describe('monthlyAmount: yearly / 12, rounded', () => {
  it.each([
    [180, 15],
    [468, 39],
    [1188, 99],
    [100, 8],
    [186, 16], // 15.5 rounds up
    [179.99, 15],
    [0, 0],
  ])('%d → %d', (yearly, monthly) => expect(monthlyAmount(yearly)).toBe(monthly))
})

describe('yearlyAmount', () => {
  it('reads the plan from the pricing table', () => {
    expect(yearlyAmount(pricing, 'STARTER')).toBe(180)
    expect(yearlyAmount(pricing, 'PRO')).toBe(468)
    expect(yearlyAmount(pricing, 'TEAM')).toBe(1188)
  })
})

describe('formatMoney', () => {
  it('puts the symbol first; whole amounts without decimals', () => {
    expect(formatMoney(180, 'EUR', 'en')).toBe('€180')
    expect(formatMoney(1188, 'EUR', 'en')).toBe('€1,188')
    expect(formatMoney(1188, 'GBP', 'nl')).toBe('£\u00a01.188')
    expect(formatMoney(468, 'USD', 'en')).toBe('$468')
  })
  it('shows two decimals for other amounts', () => {
    expect(formatMoney(179.9, 'EUR', 'en')).toBe('€179.90')
    expect(formatMoney(179.99, 'EUR', 'nl')).toBe('€\u00a0179,99')
  })
  it('has no symbol for other currencies', () => expect(formatMoney(180, 'SEK', 'en')).toBe('180'))
})

describe('formatMonthly', () => {
  it('is the rounded monthly figure in whole units', () => {
    expect(formatMonthly(468, 'EUR', 'en')).toBe('€39')
    expect(formatMonthly(179.99, 'USD', 'en')).toBe('$15')
  })
})

describe('formatVatRate', () => {
  it.each([
    [21, 'en', '21'],
    [25.5, 'en', '25.5'],
    [25.5, 'nl', '25,5'],
    [25.5, 'fr', '25,5'],
    [0, 'en', '0'],
  ])('%d in %s → %s', (rate, language, text) => expect(formatVatRate(rate, language)).toBe(text))
})
