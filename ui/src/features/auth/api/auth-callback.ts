import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { ApiError, apiRequest } from '@/lib/api-client'
import { rememberEmail, saveSession } from '@/lib/session'
import { takeOidcInvitation, takeOidcReturn, takeOidcState } from '@/lib/oidc-state'
import { safeRedirect } from './session-schema'
import { saveChallenge } from './signin-mfa'

// PUT /v1/auth/callback?state=&code=&redirect_url= → 201 {scope, email, token, token_expiry, account_id},
// or 200 {scope: reauth, email} for a step-up (the session stays), or 202
// {scope, email, mfa_required, challenge, methods} when a second factor is due.

const callbackResponseSchema = v.object({
  scope: v.picklist(['signup', 'signin', 'reauth']),
  email: v.optional(v.string(), ''),
  token: v.optional(v.string(), ''),
  token_expiry: v.optional(v.string(), ''),
  account_id: v.optional(v.string(), ''),
  // 202: a user with a second factor; no session until the challenge is met.
  mfa_required: v.optional(v.boolean(), false),
  challenge: v.optional(v.string(), ''),
  methods: v.optional(v.array(v.string()), []),
})

export interface CallbackInput {
  code: string
  state: string
}

/**
 * The callback's answer, the invitation the flow was started from ('' for
 * none) and the page a sign-in is to come back to ('' for none): a sign-up
 * from an invitation is signed in at once (the invitation proved the
 * address), a Google user who already had an account goes back to the
 * invitation to accept it, and a sign-in from a mail's link goes back to it.
 */
export async function completeOidcCallback({ code, state }: CallbackInput) {
  const invitation = takeOidcInvitation()
  const back = safeRedirect(takeOidcReturn()) ?? ''
  if (!takeOidcState(state)) {
    throw new ApiError(401, 'unauthorized', 'This sign-in was not started in this browser')
  }
  const query = new URLSearchParams({
    state,
    code,
    redirect_url: `${window.location.origin}/auth/callback`,
  })
  const result = await apiRequest(`/v1/auth/callback?${query.toString()}`, {
    method: 'PUT',
    schema: callbackResponseSchema,
  })
  return { ...result, invitation, back }
}

/** Whether the callback signed the user in: a sign-in, or a sign-up from an invitation. */
export function signedInBy(result: { scope: string; token: string; invitation: string }): boolean {
  return result.token !== '' && (result.scope === 'signin' || result.invitation !== '')
}

export function useOidcCallback() {
  return useMutation({
    mutationFn: completeOidcCallback,
    onSuccess: (result) => {
      if (result.email) rememberEmail(result.email)
      if (result.mfa_required && result.challenge) {
        saveChallenge({ mfa_required: true, challenge: result.challenge, methods: result.methods, redirect: result.back || undefined })
      } else if (signedInBy(result)) {
        saveSession({ token: result.token, token_expiry: result.token_expiry, account_id: result.account_id })
      }
    },
    // The page itself shows what went wrong.
    meta: { silent: true },
  })
}
