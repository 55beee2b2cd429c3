// Every TanStack Query key of the app, in one place: a feature invalidates
// another's data through these, never through a literal array.

export const queryKeys = {
  /** GET /v1/accounts/{id}: the account, its subscription and the user. */
  account: (accountId: string) => ['account', accountId] as const,
  /** GET /v1/accounts/{id}/billing: invoices, payment methods, billing address. */
  billing: (accountId: string) => ['billing', accountId] as const,
  /**
   * GET /v1/accounts/{id}/billing/timeline, page by page: under billing's
   * key, so that whatever invalidates billing refreshes the timeline too.
   */
  billingTimeline: (accountId: string) => ['billing', accountId, 'timeline'] as const,
  /** GET /v1/users/me/exports/{id}: one data export (issue 28). */
  dataExport: (exportId: string) => ['data-export', exportId] as const,
  /**
   * Everything of an account's team: members and seats, and invitations
   * below it (an invitation takes a seat, so both refresh together).
   */
  team: (accountId: string) => ['team', accountId] as const,
  /** GET /v1/accounts/{id}/members: the members and the seats. */
  members: (accountId: string) => ['team', accountId, 'members'] as const,
  /** GET /v1/accounts/{id}/invitations: the pending invitations. */
  invitations: (accountId: string) => ['team', accountId, 'invitations'] as const,
  /** GET /v1/accounts: the accounts the user belongs to (the switcher). */
  accounts: () => ['accounts'] as const,
  /** GET /v1/users/me/passkeys: the signed-in user's passkeys (issue 29). */
  passkeys: () => ['passkeys'] as const,
  /** GET /v1/users/me/mfa: the signed-in user's second factors (issue 29; passkeys count). */
  mfaStatus: () => ['mfa'] as const,
  /** GET /v1/users/me/deletion: the signed-in user's own scheduled deletion (issue 35). */
  userDeletion: () => ['user-deletion'] as const,
  /** GET /v1/pricing/{id}: the pricing table. */
  pricing: (accountId: string) => ['pricing', accountId] as const,
}
