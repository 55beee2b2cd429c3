// The first signed-in screen's reads, started before the app's code has
// downloaded (issue 37 item 9). On a phone's network a dashboard page waited
// for its JavaScript, then its route chunks, and only then asked the api for
// the account: every one of those waits sat before the first real paint.
// src/boot.ts, a few hundred bytes that index.html loads ahead of the app,
// starts the GETs the page's loaders will make; apiRequest takes each answer
// once (lib/early-response.ts), when a loader asks for exactly that path with
// the same token.
//
// This module imports nothing, and nothing of the app imports it (only types),
// so the boot entry stays one tiny file of its own. Its table is checked
// against the loaders' own requests in early-requests.test.ts.

/** A read started at boot: the bearer it was sent with, when, and its answer. */
export interface EarlyRequest {
  token: string
  startedAt: number
  response: Promise<Response>
}

declare global {
  interface Window {
    /** The reads boot.ts started, by api path (lib/early-response.ts takes them). */
    __kudosEarlyRequests?: Map<string, EarlyRequest>
  }
}

const ACCOUNT_PAGE = /^\/dashboard\/([0-9a-fA-F-]{36})(?:\/([^?#]*))?$/

/**
 * The api paths the first screen at pathname reads, in the form its loaders
 * request them: every account page reads the account; the team page its
 * members, invitations and the team's timeline; the billing page (and its
 * payment details tab, where it leads) the billing details. Anything else reads nothing early.
 */
export function earlyRequests(pathname: string): string[] {
  const match = ACCOUNT_PAGE.exec(pathname.replace(/\/+$/, ''))
  if (!match) return []
  const account = `/v1/accounts/${match[1]}`
  const page = match[2] ?? ''
  if (page === 'team') {
    // The invitations and the timeline are the owner's and admins' (a member's
    // early read of them is refused and never used).
    return [account, `${account}/members`, `${account}/invitations`, `${account}/billing/timeline?limit=20&scope=team`]
  }
  if (page === 'billing' || page === 'billing/payment-details') return [account, `${account}/billing`]
  return [account]
}

/** The stored bearer when the session is still valid (as lib/session.ts reads it), else null. */
function validToken(storage: Storage, now: number): string | null {
  const token = storage.getItem('auth_token')
  const expiry = Date.parse(storage.getItem('auth_token_expiry') ?? '')
  if (!token || !Number.isFinite(expiry) || expiry <= now) return null
  return token
}

/**
 * Starts the first screen's reads for a signed-in visitor (boot.ts calls it
 * once). Never throws: a failed or refused early read only means the loader
 * asks again. A request that fails is dropped, so the loader's own fetch
 * reports the error the usual way.
 */
export function startEarlyRequests(win: Window & typeof globalThis = window): void {
  try {
    const token = validToken(win.localStorage, Date.now())
    if (!token) return
    const started = new Map<string, EarlyRequest>()
    for (const path of earlyRequests(win.location.pathname)) {
      const response = win.fetch(path, {
        headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
        credentials: 'same-origin',
      })
      response.catch(() => started.delete(path))
      started.set(path, { token, startedAt: win.performance.now(), response })
    }
    win.__kudosEarlyRequests = started
  } catch {
    // No storage (private mode), no fetch: the loaders read as they always did.
  }
}
