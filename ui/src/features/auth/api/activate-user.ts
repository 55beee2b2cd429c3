import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { storedBrowserKey } from './browser-key'

// PUT /v1/auth/activate-user {token, browser_key} → 201 session when this is
// the browser that signed up, else 200 {} (the address is confirmed, and the
// user signs in). The page decides whether to keep the session.

const activationResponseSchema = v.object({
  token: v.optional(v.string(), ''),
  token_expiry: v.optional(v.string(), ''),
  account_id: v.optional(v.string(), ''),
})

export type ActivationResult = v.InferOutput<typeof activationResponseSchema>

export function activateUser(token: string) {
  const browserKey = storedBrowserKey()
  return apiRequest('/v1/auth/activate-user', {
    method: 'PUT',
    body: browserKey ? { token, browser_key: browserKey } : { token },
    schema: activationResponseSchema,
  })
}

export function useActivateUser() {
  return useMutation({
    mutationFn: activateUser,
    // The page itself shows the invalid / expired link state.
    meta: { silent: true },
  })
}
