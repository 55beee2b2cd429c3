// The first signed-in screen's reads, started while its code downloads
// (issue 37 item 9). On a phone's network a dashboard page waited for its
// JavaScript, then its route chunks, and only then asked the api for the
// account: every one of those waits sat before the first real paint.
// src/boot.ts, main.tsx's first import, starts the GETs the page's loaders
// will make before the rest of the app is evaluated; apiRequest takes each
// answer once, when a loader asks for exactly that path with the same
// token. The table is checked against the loaders' own requests in
// early-requests.test.ts.
import { getToken, hasValidSession } from './session'

/** An early answer older than this is not used: the page asking for it is no longer the first. */
export const EARLY_MAX_AGE_MS = 15_000

/** A read started at boot: the bearer it was sent with, when, and its answer. */
interface EarlyRequest {
  token: string
  startedAt: number
  response: Promise<Response>
}

/** The reads started at boot and not yet taken, by api path. */
let started = new Map<string, EarlyRequest>()

const ACCOUNT_PAGE = /^\/dashboard\/([0-9a-fA-F-]{36})(?:\/([^?#]*))?$/

/**
 * The api paths the first screen at pathname reads, in the form its loaders
 * request them: every account page reads the account; the team page its
 * members, invitations and the team's timeline; the billing page (and its
 * payment details tab, where it leads) the billing details. Anything else
 * reads nothing early.
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

/**
 * Starts the first screen's reads for a visitor with a valid session
 * (boot.ts, once per page load; what an earlier call started is dropped).
 * Never throws: an early read that fails or is refused only means the
 * loader asks again.
 */
export function startEarlyRequests(): void {
  started = new Map()
  try {
    const token = getToken()
    if (!token || !hasValidSession()) return
    for (const path of earlyRequests(window.location.pathname)) {
      const response = fetch(path, {
        headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
        credentials: 'same-origin',
      })
      response.catch(() => started.delete(path))
      started.set(path, { token, startedAt: performance.now(), response })
    }
  } catch {
    // No storage (private mode), no fetch: the loaders read as they always did.
  }
}

/**
 * The answer to the early read of path sent with token, taken once; null when
 * there is none, it went with another token (a sign-in since), or it is older
 * than EARLY_MAX_AGE_MS.
 */
export function takeEarlyResponse(path: string, token: string): Promise<Response> | null {
  const early = started.get(path)
  if (!early) return null
  started.delete(path)
  if (early.token !== token || performance.now() - early.startedAt > EARLY_MAX_AGE_MS) return null
  return early.response
}
