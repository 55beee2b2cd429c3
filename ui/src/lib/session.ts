// Client-side session (SPEC §3): the bearer token and its expiry live in
// localStorage under auth_token / auth_token_expiry. The last account id is
// kept too so that `/` can send a signed-in user straight to their dashboard.

export const TOKEN_KEY = 'auth_token'
export const EXPIRY_KEY = 'auth_token_expiry'
export const ACCOUNT_KEY = 'account_id'
/** Last e-mail address the user signed in or registered with (for the resend-activation dialog). */
export const EMAIL_KEY = 'auth_email'

export interface Session {
  token: string
  token_expiry: string
  account_id: string
}

export function saveSession(session: Session): void {
  localStorage.setItem(TOKEN_KEY, session.token)
  localStorage.setItem(EXPIRY_KEY, session.token_expiry)
  localStorage.setItem(ACCOUNT_KEY, session.account_id)
}

/** Makes accountId the one `/` opens (the account switcher, an accepted invitation). */
export function rememberAccount(accountId: string): void {
  localStorage.setItem(ACCOUNT_KEY, accountId)
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY)
  localStorage.removeItem(EXPIRY_KEY)
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY)
}

export function getStoredAccountId(): string | null {
  return localStorage.getItem(ACCOUNT_KEY)
}

/**
 * A session is expired when no expiry is stored, the expiry cannot be read,
 * or now is past it (SPEC §3). A missing token counts as no session.
 */
export function isSessionExpired(
  expiry: string | null,
  now: number = Date.now(),
): boolean {
  if (!expiry) return true
  const at = Date.parse(expiry)
  if (Number.isNaN(at)) return true
  return now >= at
}

export function hasValidSession(now: number = Date.now()): boolean {
  return Boolean(getToken()) && !isSessionExpired(localStorage.getItem(EXPIRY_KEY), now)
}

export function rememberEmail(email: string): void {
  localStorage.setItem(EMAIL_KEY, email)
}

export function rememberedEmail(): string {
  return localStorage.getItem(EMAIL_KEY) ?? ''
}

/**
 * The user a session token names (its JWT `sub`), read without verifying
 * it: only to tell whether two sessions are of the same user. null when it
 * cannot be read.
 */
export function tokenSubject(token: string | null): string | null {
  const payload = token?.split('.')[1]
  if (!payload) return null
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'))
    const sub = (JSON.parse(json) as { sub?: unknown }).sub
    return typeof sub === 'string' ? sub : null
  } catch {
    return null
  }
}
