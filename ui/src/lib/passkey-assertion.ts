import { useMutation } from '@tanstack/react-query'
import { getPasskey, type PasskeyOptions } from './webauthn'

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
