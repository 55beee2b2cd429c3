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
 * A path to return to after signing in (?redirect=: an invitation's accept
 * page, or the page a mail linked to, issue 37), or null when it is not safe: only a same-origin path, one
 * that starts with "/" but not "//" or "/\" (which browsers read as another
 * host), so that a link cannot send a fresh session elsewhere.
 */
export function safeRedirect(path: string | undefined): string | null {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null
  // No control characters (a tab or newline inside "/\t/host" is dropped by URL parsing).
  return [...path].some((c) => c.charCodeAt(0) < 0x20) ? null : path
}

/**
 * The sign-in page that comes back to `href` (a same-origin path, e.g. a
 * router location's href) afterwards: what a dashboard route or a 401 sends a
 * signed-out browser to, so that a mail's link survives the sign-in. The
 * start page and sign-in's own pages are not worth coming back to.
 */
export function signinReturningTo(href: string): { to: '/signin'; search: { redirect?: string } } {
  const back = safeRedirect(href)
  if (back === null || back === '/' || /^\/signin(?:[/?#_]|$)/.test(back)) return { to: '/signin', search: {} }
  return { to: '/signin', search: { redirect: back } }
}
