import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { rememberEmail, saveSession } from '@/lib/session'
import * as v from 'valibot'
import { sessionResponseSchema } from './session-schema'
import { challengeSchema } from './signin-mfa'

// POST /v1/auth/signin → 201 {token, token_expiry, account_id}; 401 for bad credentials;
// 202 {mfa_required, challenge, methods} for a user with a second factor (no session yet).

export interface SigninInput {
  email: string
  password: string
}

export function signin(input: SigninInput) {
  return apiRequest('/v1/auth/signin', {
    method: 'POST',
    body: input,
    schema: v.union([challengeSchema, sessionResponseSchema]),
  })
}

export function useSignin() {
  return useMutation({
    mutationFn: signin,
    onSuccess: (answer, input) => {
      rememberEmail(input.email)
      // A challenge (202) is kept by the form, with where to go once it is met.
      if (!('challenge' in answer)) saveSession(answer)
    },
    // The form says the e-mail or password is not correct.
    meta: { shownInline: [401] },
  })
}
