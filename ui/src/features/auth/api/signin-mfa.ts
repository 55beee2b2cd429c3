import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { saveSession } from '@/lib/session'
import type { FactorInput } from '@/components/factor-form'
import { sessionResponseSchema } from './session-schema'

// A sign-in of a user with a second factor answers 202 {mfa_required,
// challenge, methods}: no session yet. The challenge (5 minutes, 5 tries)
// is kept in sessionStorage for the /signin/verify screen, which meets it
// with POST /v1/auth/signin/mfa → 201 as a sign-in.

export const challengeSchema = v.object({
  mfa_required: v.literal(true),
  challenge: v.pipe(v.string(), v.nonEmpty()),
  methods: v.array(v.string()),
})
export type Challenge = v.InferOutput<typeof challengeSchema>

const CHALLENGE_KEY = 'mfa_challenge'

/** A pending sign-in challenge, and where to go once it is met. */
export interface PendingChallenge extends Challenge {
  redirect?: string
}

export function saveChallenge(challenge: PendingChallenge): void {
  sessionStorage.setItem(CHALLENGE_KEY, JSON.stringify(challenge))
}

export function pendingChallenge(): PendingChallenge | null {
  try {
    const parsed = v.safeParse(
      v.object({ ...challengeSchema.entries, redirect: v.optional(v.string()) }),
      JSON.parse(sessionStorage.getItem(CHALLENGE_KEY) ?? 'null'),
    )
    return parsed.success ? parsed.output : null
  } catch {
    return null
  }
}

export function clearChallenge(): void {
  sessionStorage.removeItem(CHALLENGE_KEY)
}

export type SigninMfaInput = { challenge: string } & FactorInput

export function useSigninMfa() {
  return useMutation({
    mutationFn: (input: SigninMfaInput) =>
      apiRequest('/v1/auth/signin/mfa', { method: 'POST', body: input, schema: sessionResponseSchema }),
    onSuccess: (session) => {
      clearChallenge()
      saveSession(session)
    },
    // The screen says the code did not work.
    meta: { shownInline: [401, 422] },
  })
}
