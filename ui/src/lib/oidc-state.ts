// Login CSRF: the state of a Google sign-in is kept in this tab's
// sessionStorage when the flow starts, and the callback goes on only with
// that same state. A callback link made by someone else (who started the
// flow in their own browser, to sign the victim into the attacker's
// account) finds no state here, and is refused before the server is asked.

const KEY = 'oidc_state'

/** Remembers the state of the provider URL the browser is about to open. */
export function rememberOidcState(authUrl: string): void {
  const state = new URL(authUrl).searchParams.get('state')
  if (state) sessionStorage.setItem(KEY, state)
}

/** Whether state is the one this tab started; the remembered one is used up. */
export function takeOidcState(state: string): boolean {
  const started = sessionStorage.getItem(KEY)
  sessionStorage.removeItem(KEY)
  return started !== null && started === state
}

const INVITATION_KEY = 'oidc_invitation'

/**
 * Remembers the invitation a Google sign-up was started from (or forgets an
 * older one), so that the callback opens the joined account, or, for a user
 * Google signs in instead, goes back to the invitation to accept it.
 */
export function rememberOidcInvitation(token: string | undefined): void {
  if (token) sessionStorage.setItem(INVITATION_KEY, token)
  else sessionStorage.removeItem(INVITATION_KEY)
}

/** The invitation this tab's Google flow was started from, used up; '' for none. */
export function takeOidcInvitation(): string {
  const token = sessionStorage.getItem(INVITATION_KEY) ?? ''
  sessionStorage.removeItem(INVITATION_KEY)
  return token
}

const RETURN_KEY = 'oidc_return'

/**
 * Remembers the page a Google sign-in is to come back to (a mail's link
 * opened while signed out, issue 37), or forgets an older one: the trip to
 * Google loses the sign-in page's ?redirect=. Only a path checked same-origin
 * by the caller (safeRedirect) is given.
 */
export function rememberOidcReturn(path: string | null): void {
  if (path) sessionStorage.setItem(RETURN_KEY, path)
  else sessionStorage.removeItem(RETURN_KEY)
}

/** The page this tab's Google sign-in is to come back to, used up; '' for none. */
export function takeOidcReturn(): string {
  const path = sessionStorage.getItem(RETURN_KEY) ?? ''
  sessionStorage.removeItem(RETURN_KEY)
  return path
}
