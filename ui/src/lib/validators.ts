import * as v from 'valibot'

// SPEC §5 validation rules. Messages are i18n keys of the `common` namespace
// (their en texts are the exact SPEC wording); forms translate them.

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const PASSWORD_SYMBOLS = '!@#$%^&*'

export const msg = {
  emailRequired: 'validation.email_required',
  emailInvalid: 'validation.email_invalid',
  fieldRequired: 'validation.field_required',
  passwordRequired: 'validation.password_required',
  passwordTooShort: 'validation.password_too_short',
  passwordUppercase: 'validation.password_uppercase',
  passwordDigit: 'validation.password_digit',
  passwordSymbol: 'validation.password_symbol',
  passwordCharacters: 'validation.password_characters',
  passwordsDoNotMatch: 'validation.passwords_do_not_match',
  acceptTerms: 'validation.accept_terms',
  nameTooShort: 'validation.name_too_short',
  vatInvalid: 'validation.vat_invalid',
  countryRequired: 'validation.country_required',
  descriptionRequired: 'validation.description_required',
} as const

export const emailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(msg.emailRequired),
  v.regex(EMAIL_PATTERN, msg.emailInvalid),
)

export const passwordSchema = v.pipe(
  v.string(),
  v.nonEmpty(msg.passwordRequired),
  v.minLength(8, msg.passwordTooShort),
  v.regex(/[A-Z]/, msg.passwordUppercase),
  v.regex(/[0-9]/, msg.passwordDigit),
  v.regex(/[!@#$%^&*]/, msg.passwordSymbol),
  v.regex(/^[A-Za-z0-9!@#$%^&*]*$/, msg.passwordCharacters),
)

export const requiredText = v.pipe(v.string(), v.trim(), v.nonEmpty(msg.fieldRequired))

/** Account and organization names: required, at least 3 characters. */
export const nameMin3Schema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(msg.fieldRequired),
  v.minLength(3, msg.nameTooShort),
)

export const termsSchema = v.pipe(v.boolean(), v.value(true, msg.acceptTerms))

/** Two uppercase letters and 8 to 12 uppercase letters or digits; empty is allowed. */
export const VAT_PATTERN = /^[A-Z]{2}[A-Z0-9]{8,12}$/

/**
 * A VAT id as people type it ("BE 0123.456.789", "nl123456789b01", with
 * dashes) written as SPEC's pattern and VIES read it (issue 37): spaces,
 * dots and dashes dropped, upper-cased. The api normalises the same way
 * (kudos.NormalizeVATID).
 */
export function normalizeVatId(value: string): string {
  return value.replace(/[\s.-]/g, '').toUpperCase()
}

/** A VAT id: normalised (normalizeVatId), then SPEC's pattern; empty is allowed. */
export const vatIdSchema = v.pipe(
  v.string(),
  v.transform(normalizeVatId),
  v.check((value) => value === '' || VAT_PATTERN.test(value), msg.vatInvalid),
)

/** Password with a repeat field that must be identical. */
export const passwordPairSchema = v.pipe(
  v.object({ password: passwordSchema, repeat_password: v.string() }),
  v.forward(
    v.partialCheck(
      [['password'], ['repeat_password']],
      (input) => input.password === input.repeat_password,
      msg.passwordsDoNotMatch,
    ),
    ['repeat_password'],
  ),
)

/** First message a schema gives for a value, or null when it is valid. */
export function firstIssue(schema: v.GenericSchema, value: unknown): string | null {
  const result = v.safeParse(schema, value, { abortPipeEarly: true })
  return result.success ? null : (result.issues[0]?.message ?? null)
}

/** i18n key (common namespace) of a server field error code. */
export function fieldCodeMessage(code: string): string {
  switch (code) {
    case 'required':
      return msg.fieldRequired
    case 'invalid_email':
      return msg.emailInvalid
    case 'passwords_do_not_match':
      return msg.passwordsDoNotMatch
    case 'must_accept_terms':
      return msg.acceptTerms
    case 'invalid_vat_id':
      return msg.vatInvalid
    case 'invalid_country':
      return 'validation.country_invalid'
    case 'invalid_password':
      return 'validation.password_invalid'
    case 'too_short':
      return 'validation.too_short'
    case 'too_long':
      return 'validation.too_long'
    case 'wrong_password':
      return 'validation.wrong_password'
    case 'too_large':
      return 'validation.too_large'
    default:
      return 'validation.invalid_value'
  }
}
