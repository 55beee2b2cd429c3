import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { authUrlSchema } from './oidc-signup'
import { rememberOidcReturn, rememberOidcState } from '@/lib/oidc-state'
import { safeRedirect } from './session-schema'

// POST /v1/auth/oidc-signin → 201 {auth_url}

export interface OidcSigninInput {
  preferred_language: string
  root_domain: string
}

export function oidcSignin(input: OidcSigninInput) {
  return apiRequest('/v1/auth/oidc-signin', { method: 'POST', body: input, schema: authUrlSchema })
}

/** Google sign-in; `redirect` is the page to come back to afterwards (kept only when same-origin). */
export function useOidcSignin(redirect?: string) {
  return useMutation({
    mutationFn: oidcSignin,
    onSuccess: ({ auth_url }) => {
      rememberOidcState(auth_url)
      rememberOidcReturn(safeRedirect(redirect))
      window.location.assign(auth_url)
    },
  })
}
