import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { signupBrowserKey } from './browser-key'

// POST /v1/auth/signup → 201 {email}; browser_key binds the activation link to this browser.

export interface SignupInput {
  firstname: string
  lastname: string
  email: string
  password: string
  opt_in_marketing: boolean
  opt_in_terms_of_use: boolean
  preferred_language: string
  root_domain: string
}

const signupResponseSchema = v.object({ email: v.string() })

export function signup(input: SignupInput) {
  return apiRequest('/v1/auth/signup', {
    method: 'POST',
    body: { ...input, browser_key: signupBrowserKey() },
    schema: signupResponseSchema,
  })
}

export function useSignup() {
  return useMutation({ mutationFn: signup })
}
