import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { InvitableRole } from '@/lib/roles'

// PATCH /v1/accounts/{id}/members/{userId} {role} (owner and admins; never the
// owner's role nor one's own) and DELETE …/members/{userId} → 204 (remove
// someone, or on oneself leave; never the owner).

function memberPath(accountId: string, userId: string): string {
  return `/v1/accounts/${encodeURIComponent(accountId)}/members/${encodeURIComponent(userId)}`
}

export function useChangeRole(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: InvitableRole }): Promise<undefined> =>
      apiRequest(memberPath(accountId, userId), { method: 'PATCH', auth: true, body: { role } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.members(accountId) }),
  })
}

/** Removes a member; on the caller's own user id it is leaving the account (the caller then navigates away). */
export function useRemoveMember(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userId: string): Promise<undefined> =>
      apiRequest(memberPath(accountId, userId), { method: 'DELETE', auth: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.team(accountId) }),
  })
}
