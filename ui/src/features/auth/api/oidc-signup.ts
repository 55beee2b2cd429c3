import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { signupBrowserKey } from './browser-key'
import { rememberOidcInvitation, rememberOidcState } from '@/lib/oidc-state'

// POST /v1/auth/oidc-signup → 201 {auth_url}; the browser is then sent there.
// With invitation_token the Google sign-up joins the inviting account;
// browser_key binds the activation link to this browser (browser-key.ts).

export interface OidcSignupInput {
  opt_in_marketing: boolean
  opt_in_terms_of_use: boolean
  preferred_language: string
  root_domain: string
  invitation_token?: string
}

export const authUrlSchema = v.object({ auth_url: v.pipe(v.string(), v.url()) })

export function oidcSignup(input: OidcSignupInput) {
  return apiRequest('/v1/auth/oidc-signup', {
    method: 'POST',
    body: { ...input, browser_key: signupBrowserKey() },
    schema: authUrlSchema,
  })
}

export function useOidcSignup() {
  return useMutation({
    mutationFn: oidcSignup,
    onSuccess: ({ auth_url }, input) => {
      rememberOidcState(auth_url)
      rememberOidcInvitation(input.invitation_token)
      window.location.assign(auth_url)
    },
  })
}
