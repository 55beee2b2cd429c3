// The taking side of the first screen's early reads (src/early-requests.ts):
// apiRequest uses an answer boot.ts already asked for instead of sending the
// same GET again.
import type { EarlyRequest } from '@/early-requests'

/** An early answer older than this is not used: the page asking for it is no longer the first. */
export const EARLY_MAX_AGE_MS = 15_000

/**
 * The answer to the early read of path sent with token, taken once; null when
 * there is none, it went with another token (a sign-in since), or it is older
 * than EARLY_MAX_AGE_MS.
 */
export function takeEarlyResponse(path: string, token: string, win: Window = window): Promise<Response> | null {
  const started: Map<string, EarlyRequest> | undefined = win.__kudosEarlyRequests
  const early = started?.get(path)
  if (!started || !early) return null
  started.delete(path)
  if (early.token !== token || win.performance.now() - early.startedAt > EARLY_MAX_AGE_MS) return null
  return early.response
}
