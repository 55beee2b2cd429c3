import * as v from 'valibot'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { INVITABLE_ROLES } from '@/lib/roles'
import { rememberAccount } from '@/lib/session'

// A team invitation's accept page (issue 26): GET /v1/invitations/{token}
// (public: the token is the credential) → {account_name, inviter, email,
// role, expires_at}, 404 when unknown, used, revoked or expired; and
// POST /v1/invitations/{token}/accept (signed in as the invited address) →
// {account_id}; 403 invitation_email_mismatch for another address, 409
// seat_limit when the team is full.

const invitationSchema = v.object({
  account_name: v.string(),
  inviter: v.optional(v.string(), ''),
  email: v.string(),
  role: v.picklist(INVITABLE_ROLES),
  expires_at: v.string(),
})

export type PublicInvitation = v.InferOutput<typeof invitationSchema>

function invitationPath(token: string): string {
  return `/v1/invitations/${encodeURIComponent(token)}`
}

export function invitationQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['invitation', token] as const,
    queryFn: ({ signal }) => apiRequest(invitationPath(token), { signal, schema: invitationSchema }),
    // A 404 is the answer (no longer valid), not a hiccup to retry.
    retry: false,
  })
}

/** Accepts as the signed-in user; the joined account becomes the one `/` opens. */
export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      apiRequest(`${invitationPath(token)}/accept`, {
        method: 'POST',
        auth: true,
        schema: v.object({ account_id: v.string() }),
      }),
    onSuccess: ({ account_id }) => {
      rememberAccount(account_id)
      return queryClient.invalidateQueries({ queryKey: queryKeys.accounts() })
    },
    // The page explains the mismatch, a full team and an invitation gone.
    meta: { shownInline: [403, 404, 409] },
  })
}
