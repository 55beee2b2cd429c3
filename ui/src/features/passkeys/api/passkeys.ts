import * as v from 'valibot'
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { msg } from '@/lib/validators'
import { createPasskey, passkeyOptionsSchema } from '@/lib/webauthn'

// A user's passkeys (issue 29): POST /v1/users/me/passkeys/options
// {current_password} → {ceremony_id, public_key}, then POST
// /v1/users/me/passkeys {ceremony_id, name, credential} → 201 the passkey;
// GET …/passkeys → {items}; PATCH …/passkeys/{id} {name}; DELETE
// …/passkeys/{id} {current_password}. The passwordless sign-in is the auth
// feature's; the assertion hook is @/lib/passkey-assertion.

const passkeySchema = v.object({
  id: v.string(),
  name: v.string(),
  created_at: v.string(),
  last_used_at: v.nullable(v.string()),
})
const passkeyListSchema = v.object({ items: v.array(passkeySchema) })
// A registration's answer: the first second factor comes with recovery codes, shown once.
const addedPasskeySchema = v.object({ ...passkeySchema.entries, recovery_codes: v.optional(v.array(v.string())) })

export type Passkey = v.InferOutput<typeof passkeySchema>

/** The longest name of a passkey (the server's rule). */
export const PASSKEY_NAME_MAX = 60

/** A passkey's name: required, at most PASSKEY_NAME_MAX characters. */
export const passkeyNameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(msg.fieldRequired),
  v.maxLength(PASSKEY_NAME_MAX, 'validation.too_long'),
)

export function passkeysQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.passkeys(),
    queryFn: ({ signal }) => apiRequest('/v1/users/me/passkeys', { auth: true, signal, schema: passkeyListSchema }),
  })
}

function passkeyPath(id: string) {
  return `/v1/users/me/passkeys/${encodeURIComponent(id)}`
}

/** The current password, when the user has one (a Google user steps up instead). */
function reauthBody(currentPassword: string) {
  return currentPassword ? { current_password: currentPassword } : {}
}

/** A passkey added or removed changes the list and the user's second factors. */
function invalidatePasskeys(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.mfaStatus() })
  return queryClient.invalidateQueries({ queryKey: queryKeys.passkeys() })
}

/**
 * Adds a passkey: the options (re-authenticated), the browser's ceremony
 * (a PasskeyError when it fails or is cancelled), then the registration.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ name, currentPassword }: { name: string; currentPassword: string }) => {
      const options = await apiRequest('/v1/users/me/passkeys/options', {
        method: 'POST',
        auth: true,
        body: reauthBody(currentPassword),
        schema: passkeyOptionsSchema,
      })
      const answer = await createPasskey(options)
      return apiRequest('/v1/users/me/passkeys', { method: 'POST', auth: true, body: { ...answer, name }, schema: addedPasskeySchema })
    },
    onSettled: () => invalidatePasskeys(queryClient),
    // The dialog says these itself: a wrong password or name on its field, a step-up.
    meta: { shownInline: [403, 409, 422], shownInlineNames: ['PasskeyError'] },
  })
}

export function useRenamePasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiRequest(passkeyPath(id), { method: 'PATCH', auth: true, body: { name }, schema: passkeySchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.passkeys() }),
    meta: { shownInline: [404, 422] },
  })
}

export function useDeletePasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, currentPassword }: { id: string; currentPassword: string }): Promise<undefined> =>
      apiRequest(passkeyPath(id), { method: 'DELETE', auth: true, body: reauthBody(currentPassword) }),
    onSettled: () => invalidatePasskeys(queryClient),
    meta: { shownInline: [403, 404, 409, 422] },
  })
}
