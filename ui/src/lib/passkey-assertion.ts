import { useMutation } from '@tanstack/react-query'
import { apiRequest } from './api-client'
import { getPasskey, passkeyOptionsSchema, type PasskeyOptions } from './webauthn'

/**
 * The browser's part of a passkey assertion: given the options of a
 * ceremony (a passwordless sign-in, a second factor, a step-up: the api's
 * {ceremony_id, public_key}), asks for a passkey and answers
 * {ceremony_id, credential} to post back. It fails with a PasskeyError
 * (reason cancelled, exists, unsupported or failed) when the browser fails
 * or the user cancels; the screen says so itself (no popup).
 */
export function usePasskeyAssertion() {
  return useMutation({ mutationFn: (options: PasskeyOptions) => getPasskey(options), meta: { shownInlineNames: ['PasskeyError'] } })
}

/** Options of a passkey as the second factor of a sign-in challenge (POST /v1/auth/passkey/options {challenge}). */
export function challengePasskeyOptions(challenge: string) {
  return apiRequest('/v1/auth/passkey/options', { method: 'POST', body: { challenge }, schema: passkeyOptionsSchema })
}

/** Options of a passkey for a step-up of the signed-in user (POST /v1/users/me/mfa/verify/options). */
export function stepUpPasskeyOptions() {
  return apiRequest('/v1/users/me/mfa/verify/options', { method: 'POST', auth: true, schema: passkeyOptionsSchema })
}
