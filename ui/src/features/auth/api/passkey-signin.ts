import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { saveSession } from '@/lib/session'
import { getPasskey, passkeyOptionsSchema } from '@/lib/webauthn'
import { sessionResponseSchema } from './session-schema'

// A passwordless sign-in with a passkey (issue 29): POST
// /v1/auth/passkey/options → {ceremony_id, public_key}, the browser's
// navigator.credentials.get, then POST /v1/auth/passkey {ceremony_id,
// credential} → 201 {token, token_expiry, account_id}; 401 when the passkey
// is not accepted (whatever the reason).

export function passkeySignin() {
  return apiRequest('/v1/auth/passkey/options', { method: 'POST', schema: passkeyOptionsSchema })
    .then(getPasskey)
    .then((answer) => apiRequest('/v1/auth/passkey', { method: 'POST', body: answer, schema: sessionResponseSchema }))
}

export function usePasskeySignin() {
  return useMutation({
    mutationFn: passkeySignin,
    onSuccess: (session) => saveSession(session),
    // The button says a refused or cancelled passkey itself.
    meta: { shownInline: [401], shownInlineNames: ['PasskeyError'] },
  })
}
