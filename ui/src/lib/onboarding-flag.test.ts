import { describe, expect, it } from 'vitest'
import { finishOnboarding, isOnboardingOpen, openOnboardingIfNeeded } from './onboarding-flag'

describe('the onboarding wizard flag', () => {
  it('opens for the owner when the server asks, and not again once done', () => {
    openOnboardingIfNeeded('a', true, 'owner')
    expect(isOnboardingOpen('a')).toBe(true)
    finishOnboarding('a')
    openOnboardingIfNeeded('a', true, 'owner')
    expect(isOnboardingOpen('a')).toBe(false)
  })

  it.each(['admin', 'member'] as const)('never for a %s (naming the account and its billing address are not theirs)', (role) => {
    openOnboardingIfNeeded('b', true, role)
    expect(isOnboardingOpen('b')).toBe(false)
  })
})
