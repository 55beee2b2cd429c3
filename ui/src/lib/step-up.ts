import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { browserLocation } from '@/lib/checkout'
import * as v from 'valibot'
import { rememberOidcState } from '@/lib/oidc-state'

// POST /v1/auth/oidc-reauth {root_domain} (signed in) → 201 {auth_url}: a
// step-up. A user without a password signs in with Google again before a
// sensitive change; the callback (scope reauth) brings the browser back to
// the page it left (kept in this tab's sessionStorage).

const RETURN_KEY = 'oidc_return_to'

const authUrlSchema = v.object({ auth_url: v.pipe(v.string(), v.url()) })

export function startStepUp(returnTo: string) {
  return apiRequest('/v1/auth/oidc-reauth', {
    method: 'POST',
    auth: true,
    body: { root_domain: window.location.origin },
    schema: authUrlSchema,
  }).then(({ auth_url }) => {
    rememberOidcState(auth_url)
    sessionStorage.setItem(RETURN_KEY, returnTo)
    browserLocation.assign(auth_url)
  })
}

export function useStartStepUp() {
  return useMutation({ mutationFn: startStepUp })
}

/** The in-app path the step-up started from (used up); "/" when unknown. */
export function takeStepUpReturn(): string {
  const to = sessionStorage.getItem(RETURN_KEY)
  sessionStorage.removeItem(RETURN_KEY)
  // Only a path of this app: never an address elsewhere.
  return to && to.startsWith('/') && !to.startsWith('//') ? to : '/'
}
