import { describe, expect, it } from 'vitest'
import { COUNTRIES, vatPlaceholder } from './constants'
import { billingAddressPayload } from './api/update-billing-address'
import { finishOnboarding, isOnboardingOpen, openOnboardingIfNeeded } from './onboarding-flag'

describe('vatPlaceholder', () => {
  it('takes the last two characters of the country value', () => {
    expect(vatPlaceholder('nl_BE')).toBe('BE12345678')
    expect(vatPlaceholder('de_CH')).toBe('CH12345678')
    expect(vatPlaceholder('en_GB')).toBe('GB12345678')
  })
  it('has the 21 countries of SPEC §3', () => expect(COUNTRIES).toHaveLength(21))
})

describe('billingAddressPayload', () => {
  it('leaves empty values (and BLANK) out', () => {
    expect(
      billingAddressPayload({
        organization_name: 'Acme',
        street_and_number: 'Main 1',
        street_additional: '',
        postal_code: '1000',
        city: 'Brussels',
        region: 'BLANK',
        country: 'nl_BE',
        vat_id: ' ',
        version: 3,
      }),
    ).toEqual({ organization_name: 'Acme', street_and_number: 'Main 1', postal_code: '1000', city: 'Brussels', country: 'nl_BE', version: 3 })
  })
})

describe('onboarding flag', () => {
  it('opens when the server asks, and stays closed once finished', () => {
    openOnboardingIfNeeded('a', false)
    expect(isOnboardingOpen('a')).toBe(false)
    openOnboardingIfNeeded('a', true)
    expect(isOnboardingOpen('a')).toBe(true)
    finishOnboarding('a')
    openOnboardingIfNeeded('a', true)
    expect(isOnboardingOpen('a')).toBe(false)
  })
})
