import * as v from 'valibot'

/** Answer of the calls that sign a user in: signin, activate-user, callback. */
export const sessionResponseSchema = v.object({
  token: v.pipe(v.string(), v.nonEmpty()),
  token_expiry: v.string(),
  /** "" for a user being deleted who belongs to no account (issue 35): signedInHome. */
  account_id: v.string(),
})

export type SessionResponse = v.InferOutput<typeof sessionResponseSchema>

/** The account's dashboard: where the browser goes after signing in (SPEC §4). */
export function dashboardHome(accountId: string) {
  return { to: '/dashboard/$accountId/testimonials', params: { accountId } } as const
}

/**
 * Where the browser goes after signing in: the account's dashboard, or for a
 * user being deleted who belongs to no account (account_id "", issue 35)
 * the page of their deletion.
 */
export function signedInHome(accountId: string) {
  return accountId ? dashboardHome(accountId) : ({ to: '/leaving' } as const)
}

/**
 * A path to return to after signing in (?redirect=, e.g. an invitation's
 * accept page), or null when it is not safe: only a same-origin path, one
 * that starts with "/" but not "//" or "/\" (which browsers read as another
 * host), so that a link cannot send a fresh session elsewhere.
 */
export function safeRedirect(path: string | undefined): string | null {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null
  // No control characters (a tab or newline inside "/\t/host" is dropped by URL parsing).
  return [...path].some((c) => c.charCodeAt(0) < 0x20) ? null : path
}
