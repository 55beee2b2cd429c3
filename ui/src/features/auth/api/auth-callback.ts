import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { ApiError, apiRequest } from '@/lib/api-client'
import { rememberEmail, saveSession } from '@/lib/session'
import { takeOidcState } from '@/lib/oidc-state'

// PUT /v1/auth/callback?state=&code=&redirect_url= → 201 {scope, email, token, token_expiry, account_id},
// or 200 {scope: reauth, email} for a step-up (the session stays).

const callbackResponseSchema = v.object({
  scope: v.picklist(['signup', 'signin', 'reauth']),
  email: v.optional(v.string(), ''),
  token: v.optional(v.string(), ''),
  token_expiry: v.optional(v.string(), ''),
  account_id: v.optional(v.string(), ''),
})

export interface CallbackInput {
  code: string
  state: string
}

export function completeOidcCallback({ code, state }: CallbackInput) {
  if (!takeOidcState(state)) {
    return Promise.reject(new ApiError(401, 'unauthorized', 'This sign-in was not started in this browser'))
  }
  const query = new URLSearchParams({
    state,
    code,
    redirect_url: `${window.location.origin}/auth/callback`,
  })
  return apiRequest(`/v1/auth/callback?${query.toString()}`, {
    method: 'PUT',
    schema: callbackResponseSchema,
  })
}

export function useOidcCallback() {
  return useMutation({
    mutationFn: completeOidcCallback,
    onSuccess: (result) => {
      if (result.email) rememberEmail(result.email)
      if (result.scope === 'signin' && result.token) {
        saveSession({ token: result.token, token_expiry: result.token_expiry, account_id: result.account_id })
      }
    },
    // The page itself shows what went wrong.
    meta: { silent: true },
  })
}
