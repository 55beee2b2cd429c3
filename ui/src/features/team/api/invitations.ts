import * as v from 'valibot'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { INVITABLE_ROLES, type InvitableRole } from '@/lib/roles'

// The pending invitations (owner and admins): GET /v1/accounts/{id}/invitations,
// POST …/invitations {email, role} → 201 (409 seat_limit when full, 409
// conflict with fields.email already_member / already_invited, 429 after 20
// an hour), POST …/invitations/{invId}/resend → 200 (a new link, 7 more
// days), DELETE …/invitations/{invId} → 204 (the link stops working).

const invitationSchema = v.object({
  id: v.string(),
  email: v.string(),
  role: v.picklist(INVITABLE_ROLES),
  expires_at: v.string(),
  created_at: v.optional(v.string(), ''),
  /** The inviter's name (their e-mail when they have none; empty once they are gone). */
  invited_by: v.optional(v.string(), ''),
})

const invitationsSchema = v.object({ invitations: v.array(invitationSchema) })

export type Invitation = v.InferOutput<typeof invitationSchema>

function invitationsPath(accountId: string): string {
  return `/v1/accounts/${encodeURIComponent(accountId)}/invitations`
}

export function invitationsQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: queryKeys.invitations(accountId),
    queryFn: ({ signal }) => apiRequest(invitationsPath(accountId), { auth: true, signal, schema: invitationsSchema }),
  })
}

/** Invites an address; the dialog shows the refusals (409, 422, 429) itself. */
export function useInvite(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { email: string; role: InvitableRole }) =>
      apiRequest(invitationsPath(accountId), { method: 'POST', auth: true, body: input, schema: invitationSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.team(accountId) }),
    meta: { shownInline: [409, 422, 429] },
  })
}

export function useResendInvitation(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiRequest(`${invitationsPath(accountId)}/${encodeURIComponent(invitationId)}/resend`, {
        method: 'POST',
        auth: true,
        schema: invitationSchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.team(accountId) }),
    // The row says why (a full team, too many resends).
    meta: { shownInline: [409, 429] },
  })
}

export function useRevokeInvitation(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (invitationId: string): Promise<undefined> =>
      apiRequest(`${invitationsPath(accountId)}/${encodeURIComponent(invitationId)}`, { method: 'DELETE', auth: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.team(accountId) }),
  })
}
