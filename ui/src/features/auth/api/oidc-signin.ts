import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { authUrlSchema } from './oidc-signup'
import { rememberOidcState } from '@/lib/oidc-state'

// POST /v1/auth/oidc-signin → 201 {auth_url}

export interface OidcSigninInput {
  preferred_language: string
  root_domain: string
}

export function oidcSignin(input: OidcSigninInput) {
  return apiRequest('/v1/auth/oidc-signin', { method: 'POST', body: input, schema: authUrlSchema })
}

export function useOidcSignin() {
  return useMutation({
    mutationFn: oidcSignin,
    onSuccess: ({ auth_url }) => {
      rememberOidcState(auth_url)
      window.location.assign(auth_url)
    },
  })
}
