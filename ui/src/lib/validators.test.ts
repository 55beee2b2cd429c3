import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { billingAddressSchema } from '@/components/billing-address-form'
import en from '@/locales/en/common.json'
import {
  emailSchema,
  fieldCodeMessage,
  firstIssue,
  msg,
  nameMin3Schema,
  passwordPairSchema,
  passwordSchema,
  requiredText,
  termsSchema,
  vatIdSchema,
} from './validators'

const filledAddress = {
  organization_name: 'Acme BV',
  street_and_number: 'Main street 1',
  street_additional: '',
  postal_code: '1000',
  city: 'Brussels',
  region: 'Brussels',
  country: 'nl_BE',
}

const text = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en)

describe('SPEC §5 messages (en)', () => {
  it.each([
    [msg.emailRequired, '*email is required'],
    [msg.emailInvalid, '*please provide a valid email'],
    [msg.fieldRequired, '*field required'],
    [msg.passwordsDoNotMatch, '*passwords do not match'],
    [msg.acceptTerms, '*please accept Terms of Use to continue'],
  ])('%s reads %s', (key, expected) => {
    expect(text(key)).toBe(expected)
  })

  it('has a clear text for every password rule', () => {
    for (const key of [msg.passwordRequired, msg.passwordTooShort, msg.passwordUppercase, msg.passwordDigit, msg.passwordSymbol, msg.passwordCharacters]) {
      expect(text(key)).toMatch(/^\*password /)
    }
  })
})

describe('email', () => {
  it('is required', () => expect(firstIssue(emailSchema, '')).toBe(msg.emailRequired))
  it('is required when only spaces', () => expect(firstIssue(emailSchema, '   ')).toBe(msg.emailRequired))
  it.each(['plain', 'a@b', 'a b@c.de', '@c.de'])('rejects %s', (value) => {
    expect(firstIssue(emailSchema, value)).toBe(msg.emailInvalid)
  })
  it('accepts a basic address', () => expect(firstIssue(emailSchema, 'jane@example.com')).toBeNull())
})

describe('password', () => {
  it.each([
    ['', msg.passwordRequired],
    ['Ab1!', msg.passwordTooShort],
    ['abcdefg1!', msg.passwordUppercase],
    ['Abcdefgh!', msg.passwordDigit],
    ['Abcdefgh1', msg.passwordSymbol],
    ['Abcdefg1! ', msg.passwordCharacters],
    ['Abcdéfg1!', msg.passwordCharacters],
  ])('%j → %s', (value, expected) => {
    expect(firstIssue(passwordSchema, value)).toBe(expected)
  })
  it('accepts a strong password', () => expect(firstIssue(passwordSchema, 'Secret12!')).toBeNull())
})

describe('other rules', () => {
  it('names are required', () => {
    expect(firstIssue(requiredText, '')).toBe(msg.fieldRequired)
    expect(firstIssue(requiredText, 'Jane')).toBeNull()
  })
  it('terms must be accepted', () => {
    expect(firstIssue(termsSchema, false)).toBe(msg.acceptTerms)
    expect(firstIssue(termsSchema, true)).toBeNull()
  })
  it('account name needs 3 characters', () => {
    expect(firstIssue(nameMin3Schema, 'ab')).toBe(msg.nameTooShort)
    expect(firstIssue(nameMin3Schema, 'abc')).toBeNull()
  })
  it('repeat password must match', () => {
    const result = v.safeParse(passwordPairSchema, { password: 'Secret12!', repeat_password: 'Secret12?' })
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toBe(msg.passwordsDoNotMatch)
    expect(v.safeParse(passwordPairSchema, { password: 'Secret12!', repeat_password: 'Secret12!' }).success).toBe(true)
  })
  it('VAT id: empty, or 2 letters + 8 to 12 letters/digits', () => {
    expect(firstIssue(vatIdSchema, '')).toBeNull()
    expect(firstIssue(vatIdSchema, 'BE12345678')).toBeNull()
    expect(firstIssue(vatIdSchema, 'NL123456789B01')).toBeNull()
    expect(firstIssue(vatIdSchema, 'BE1234567')).toBe(msg.vatInvalid)
    expect(firstIssue(vatIdSchema, 'BE1234567890123')).toBe(msg.vatInvalid)
    expect(firstIssue(vatIdSchema, '1E12345678')).toBe(msg.vatInvalid)
  })
  it('VAT id as people type it: spaces, dots and dashes dropped, upper-cased, then the pattern (issue 37)', () => {
    for (const [typed, normalised] of [
      ['BE 0123.456.789', 'BE0123456789'],
      ['nl123456789b01', 'NL123456789B01'],
      ['NL-123-456-789-B01', 'NL123456789B01'],
      [' fr 12 345678901 ', 'FR12345678901'],
    ]) {
      expect(firstIssue(vatIdSchema, typed)).toBeNull()
      expect(v.parse(vatIdSchema, typed)).toBe(normalised)
      const address = v.parse(billingAddressSchema, { ...filledAddress, vat_id: typed })
      expect(address.vat_id).toBe(normalised)
    }
    expect(firstIssue(vatIdSchema, 'NL 123.456')).toBe(msg.vatInvalid)
  })
  it('maps server field codes to messages', () => {
    expect(fieldCodeMessage('required')).toBe(msg.fieldRequired)
    expect(fieldCodeMessage('invalid_email')).toBe(msg.emailInvalid)
    expect(fieldCodeMessage('must_accept_terms')).toBe(msg.acceptTerms)
    expect(fieldCodeMessage('invalid_vat_id')).toBe(msg.vatInvalid)
    expect(fieldCodeMessage('passwords_do_not_match')).toBe(msg.passwordsDoNotMatch)
    for (const code of ['invalid_password', 'too_short', 'too_long', 'invalid_value', 'invalid_country', 'whatever']) {
      expect(text(fieldCodeMessage(code))).toEqual(expect.any(String))
    }
  })
})
