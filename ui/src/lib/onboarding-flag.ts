// Onboarding wizard flag (SPEC §4), kept in localStorage per account:
// 'open' is set at account load when subscription.show_onboarding is true,
// 'done' once the wizard was finished, so it does not come back while the
// server still reports show_onboarding.

import type { Role } from './roles'

const key = (accountId: string) => `onboarding_${accountId}`

/**
 * Opens the wizard at account load when the server asks for it. It is the
 * owner's (issue 26): it names the account and saves the billing address,
 * which a member who joined before the owner finished may not do.
 */
export function openOnboardingIfNeeded(accountId: string, showOnboarding: boolean, role: Role = 'owner'): void {
  if (showOnboarding && role === 'owner' && localStorage.getItem(key(accountId)) !== 'done') {
    localStorage.setItem(key(accountId), 'open')
  }
}

export function isOnboardingOpen(accountId: string): boolean {
  return localStorage.getItem(key(accountId)) === 'open'
}

export function finishOnboarding(accountId: string): void {
  localStorage.setItem(key(accountId), 'done')
}
