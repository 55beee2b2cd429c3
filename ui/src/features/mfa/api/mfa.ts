import * as v from 'valibot'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { FactorInput } from '@/components/factor-form'

// The caller's second factors (issue 29): GET /v1/users/me/mfa, the
// authenticator app's enrolment (POST …/mfa/totp, …/totp/confirm), its
// removal (DELETE …/mfa/totp), new recovery codes and the step-up
// (POST …/mfa/verify).

const statusSchema = v.object({
  totp: v.boolean(),
  recovery_codes_left: v.number(),
  passkeys: v.number(),
})
export type MfaStatus = v.InferOutput<typeof statusSchema>

const enrolmentSchema = v.object({ secret: v.string(), otpauth_url: v.string() })
export type TotpEnrolment = v.InferOutput<typeof enrolmentSchema>

const codesSchema = v.object({ recovery_codes: v.array(v.string()) })

export const mfaKeys = { status: queryKeys.mfaStatus() }

export function mfaStatusQueryOptions() {
  return queryOptions({
    queryKey: mfaKeys.status,
    queryFn: ({ signal }) => apiRequest('/v1/users/me/mfa', { auth: true, signal, schema: statusSchema }),
  })
}

/**
 * Starts (or restarts) the enrolment: a new secret and its otpauth:// URL.
 * A session signed in more than 10 minutes ago gives the current password
 * (422 on current_password without it; a Google user steps up: 403).
 */
export function useStartTotp() {
  return useMutation({
    mutationFn: (currentPassword?: string) =>
      apiRequest('/v1/users/me/mfa/totp', {
        method: 'POST',
        auth: true,
        body: currentPassword ? { current_password: currentPassword } : undefined,
        schema: enrolmentSchema,
      }),
    // The card asks for the password, or offers the Google step-up, itself.
    meta: { shownInline: [403, 422] },
  })
}

function useMfaMutation<T>(fn: (input: T) => Promise<string[] | undefined>, shownInline: number[]) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaKeys.status }),
    meta: { shownInline },
  })
}

/** Confirms the app with its first code; the answer is the recovery codes, shown once. */
export function useConfirmTotp() {
  return useMfaMutation(
    (code: string) =>
      apiRequest('/v1/users/me/mfa/totp/confirm', { method: 'POST', auth: true, body: { code }, schema: codesSchema }).then(
        (r) => r.recovery_codes,
      ),
    [422],
  )
}

/** Turns the app off (re-authenticated with the current password). */
export function useDisableTotp() {
  return useMfaMutation(
    (current_password: string) =>
      apiRequest('/v1/users/me/mfa/totp', { method: 'DELETE', auth: true, body: { current_password } }),
    // 409: an account's policy keeps the user's last second factor (said in the dialog).
    [409, 422],
  )
}

/** Replaces the recovery codes (re-authenticated); the answer is the new ones. */
export function useNewRecoveryCodes() {
  return useMfaMutation(
    (current_password: string) =>
      apiRequest('/v1/users/me/mfa/recovery-codes', {
        method: 'POST',
        auth: true,
        body: { current_password },
        schema: codesSchema,
      }).then((r) => r.recovery_codes),
    [422],
  )
}

/** The step-up of this session: a code lets it make sensitive changes for 5 minutes. */
export function verifySecondFactor(input: FactorInput): Promise<undefined> {
  return apiRequest('/v1/users/me/mfa/verify', { method: 'POST', auth: true, body: input })
}
