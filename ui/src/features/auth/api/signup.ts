import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { signupBrowserKey } from './browser-key'

// POST /v1/auth/signup → 201 {email}; browser_key binds the activation link to
// this browser. With invitation_token (from a team invitation's link) the user
// joins the inviting account, activated at once, and is signed in:
// 201 {email, token, token_expiry, account_id}.

export interface SignupInput {
  firstname: string
  lastname: string
  email: string
  password: string
  opt_in_marketing: boolean
  opt_in_terms_of_use: boolean
  preferred_language: string
  root_domain: string
  invitation_token?: string
}

const signupResponseSchema = v.object({
  email: v.string(),
  token: v.optional(v.string(), ''),
  token_expiry: v.optional(v.string(), ''),
  account_id: v.optional(v.string(), ''),
})

export function signup(input: SignupInput) {
  return apiRequest('/v1/auth/signup', {
    method: 'POST',
    body: { ...input, browser_key: signupBrowserKey() },
    schema: signupResponseSchema,
  })
}

/**
 * Signs up; `invited`: the form explains the invitation's refusals itself
 * (404 no longer valid, 409 a full team or an address that has a user).
 */
export function useSignup(invited = false) {
  return useMutation({ mutationFn: signup, meta: invited ? { shownInline: [403, 404, 409] } : undefined })
}
