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
