// Onboarding wizard flag (SPEC §4), kept in localStorage per account:
// 'open' is set at account load when subscription.show_onboarding is true,
// 'done' once the wizard was finished, so it does not come back while the
// server still reports show_onboarding.

const key = (accountId: string) => `onboarding_${accountId}`

export function openOnboardingIfNeeded(accountId: string, showOnboarding: boolean): void {
  if (showOnboarding && localStorage.getItem(key(accountId)) !== 'done') {
    localStorage.setItem(key(accountId), 'open')
  }
}

export function isOnboardingOpen(accountId: string): boolean {
  return localStorage.getItem(key(accountId)) === 'open'
}

export function finishOnboarding(accountId: string): void {
  localStorage.setItem(key(accountId), 'done')
}
