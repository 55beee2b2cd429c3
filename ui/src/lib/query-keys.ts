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
  /** GET /v1/pricing/{id}: the pricing table. */
  pricing: (accountId: string) => ['pricing', accountId] as const,
}
