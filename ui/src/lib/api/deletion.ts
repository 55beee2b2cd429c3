import * as v from 'valibot'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// Deleting an account (its owner) or oneself, with a grace period during
// which it can be cancelled (issue 28): DELETE /v1/accounts/{id} and
// DELETE /v1/users/me {current_password} → 202 {deletion_at};
// POST …/deletion/cancel {current_password}. The account read shows both
// dates; GET /v1/users/me/deletion the user's for one who belongs to no account.

const scheduledSchema = v.object({ deletion_at: v.string() })

/** Which deletion: the account's (by its id) or the signed-in user's. */
export type DeletionTarget = { kind: 'account'; accountId: string } | { kind: 'user' }

function deletionPath(target: DeletionTarget): string {
  return target.kind === 'account' ? `/v1/accounts/${encodeURIComponent(target.accountId)}` : '/v1/users/me'
}

/** Schedules the deletion, re-authenticated; the account read shows it once done. */
export function useScheduleDeletion(target: DeletionTarget, accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (currentPassword: string) =>
      apiRequest(deletionPath(target), {
        method: 'DELETE',
        auth: true,
        body: currentPassword ? { current_password: currentPassword } : {},
        schema: scheduledSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
    // The dialog says these itself: a wrong password on its field, an owner what to do first.
    meta: { shownInline: [409, 422] },
  })
}

/** What a cancel sends: re-authentication, and for the account whether auto-renewal comes back on. */
export interface CancelDeletion {
  currentPassword: string
  autoRenewal?: boolean
}

// The user's cancel answers the account to open (one of their own when they
// belonged to none); the account's answers {}.
const cancelledSchema = v.object({ account_id: v.optional(v.string(), '') })

/**
 * Cancels a scheduled deletion, re-authenticated like scheduling it (issue
 * 35); the account's may turn the auto-renewal back on, which the plan tab
 * then shows. accountId is '' for a user who belongs to no account.
 */
export function useCancelDeletion(target: DeletionTarget, accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ currentPassword, autoRenewal }: CancelDeletion) =>
      apiRequest(`${deletionPath(target)}/deletion/cancel`, {
        method: 'POST',
        auth: true,
        body: {
          ...(currentPassword ? { current_password: currentPassword } : {}),
          ...(target.kind === 'account' ? { auto_renewal: Boolean(autoRenewal) } : {}),
        },
        schema: cancelledSchema,
      }),
    onSettled: () =>
      Promise.all([
        accountId ? queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }) : undefined,
        queryClient.invalidateQueries({ queryKey: queryKeys.userDeletion() }),
      ]),
    // The dialog says these itself: a wrong password on its field, a refused cancel what to do first.
    meta: { shownInline: [409, 422] },
  })
}

const userDeletionSchema = v.object({ deletion_at: v.nullable(v.string()), blocked_by: v.nullable(v.string()) })

/** GET /v1/users/me/deletion: when the signed-in user is erased, and the account that blocks it. */
export function useUserDeletion() {
  return useQuery({
    queryKey: queryKeys.userDeletion(),
    queryFn: () => apiRequest('/v1/users/me/deletion', { auth: true, schema: userDeletionSchema }),
  })
}
