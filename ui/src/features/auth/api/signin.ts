import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { rememberEmail, saveSession } from '@/lib/session'
import { sessionResponseSchema } from './session-schema'

// POST /v1/auth/signin → 201 {token, token_expiry, account_id}; 401 for bad credentials.

export interface SigninInput {
  email: string
  password: string
}

export function signin(input: SigninInput) {
  return apiRequest('/v1/auth/signin', { method: 'POST', body: input, schema: sessionResponseSchema })
}

export function useSignin() {
  return useMutation({
    mutationFn: signin,
    onSuccess: (session, input) => {
      saveSession(session)
      rememberEmail(input.email)
    },
    // The form says the e-mail or password is not correct.
    meta: { shownInline: [401] },
  })
}
