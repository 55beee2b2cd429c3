import { describe, expect, it } from 'vitest'
import i18n from 'i18next'
import {
  describeMandate,
  formatCardExpiry,
  formatInvoiceAmount,
  invoiceDescriptionText,
  maskIban,
  parseInvoiceDescription,
} from './billing-format'

const t = i18n.getFixedT('en', 'billing')

describe('parseInvoiceDescription (SPEC §4)', () => {
  it.each([
    ['UPGRADE_PRO', { kind: 'upgrade', plan: 'PRO' }],
    ['PAYMENTDUE_TEAM', { kind: 'payment_due', plan: 'TEAM' }],
    ['Renewal STARTER', { kind: 'renewal', plan: 'STARTER' }],
    ['Renewal of the Pro plan', { kind: 'renewal', plan: 'Pro' }],
    ['TEAM', { kind: 'plan', plan: 'TEAM' }],
    [' starter ', { kind: 'plan', plan: 'starter' }],
  ])('%j → %j', (description, parsed) => expect(parseInvoiceDescription(description)).toEqual(parsed))
})

describe('invoiceDescriptionText (translated)', () => {
  it.each([
    ['UPGRADE_PRO', 'Upgrade to Pro'],
    ['PAYMENTDUE_STARTER', 'Starter plan'],
    ['Renewal TEAM', 'Renewal of the Team plan'],
    ['PRO', 'Pro plan'],
    ['ENTERPRISE', 'Enterprise plan'],
    ['', ''],
  ])('%j → %j', (description, text) => expect(invoiceDescriptionText(description, t)).toBe(text))
})

describe('formatInvoiceAmount: currency symbol (SPEC §9) and two decimals', () => {
  it.each([
    [217.8, 'EUR', 'en', '€217.80'],
    [1188, 'USD', 'en', '$1,188.00'],
    [0.01, 'GBP', 'en', '£0.01'],
    [1188.5, 'EUR', 'nl', '€\u00a01.188,50'],
    [180, 'SEK', 'en', '180.00'],
    [-0.01, 'EUR', 'en', '-€0.01'],
  ])('%d %s (%s) → %j', (amount, currency, language, text) =>
    expect(formatInvoiceAmount(amount, currency, language)).toBe(text),
  )
})

describe('formatCardExpiry: YYYY-MM → MM/YY', () => {
  it.each([
    ['2027-03', '03/27'],
    ['2030-12', '12/30'],
    ['2027-13', ''],
    ['03/27', ''],
    ['', ''],
  ])('%j → %j', (value, text) => expect(formatCardExpiry(value)).toBe(text))
})

describe('maskIban (SPEC §5)', () => {
  it('shows the first 4 and last 4 characters', () => {
    expect(maskIban('NL91ABNA0417164300')).toBe('NL91 **** 4300')
    expect(maskIban('be68 5390 0754 7034')).toBe('BE68 **** 7034')
    expect(maskIban('1234567890123456')).toBe('1234 **** 3456')
  })

  it.each(['NL91ABNA041716', '123456789012345', ''])('%j (shorter than 16) → Invalid IBAN length', (iban) =>
    expect(() => maskIban(iban)).toThrow('Invalid IBAN length'),
  )
})

describe('describeMandate', () => {
  it('card: brand, last four digits, expiry MM/YY', () => {
    expect(
      describeMandate({ method: 'card', details: { cardLabel: 'Visa', cardNumber: '4242', cardExpiryDate: '2027-03' } }),
    ).toEqual({ kind: 'card', brand: 'Visa', last4: '4242', expiry: '03/27' })
    expect(describeMandate({ method: 'card', details: { cardNumber: '**** 1881' } })).toEqual({
      kind: 'card',
      brand: '',
      last4: '1881',
      expiry: '',
    })
  })

  it('direct debit: a full IBAN is masked, a short one is an invalid length', () => {
    expect(describeMandate({ method: 'directdebit', details: { consumerAccount: 'NL91ABNA0417164300' } })).toEqual({
      kind: 'directdebit',
      account: 'NL91 **** 4300',
    })
    expect(describeMandate({ method: 'directdebit', details: { consumerAccount: 'NL91ABNA04' } })).toEqual({
      kind: 'directdebit',
      account: null,
      error: 'Invalid IBAN length',
    })
    expect(describeMandate({ method: 'directdebit' })).toMatchObject({ account: null })
  })

  it('direct debit: an account the provider already masked is shown as given', () => {
    expect(describeMandate({ method: 'directdebit', details: { consumerAccount: '****3000' } })).toEqual({
      kind: 'directdebit',
      account: '****3000',
    })
  })
})
