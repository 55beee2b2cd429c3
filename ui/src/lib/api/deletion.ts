import * as v from 'valibot'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// Deleting an account (its owner) or oneself, with a grace period during
// which it can be cancelled (issue 28): DELETE /v1/accounts/{id} and
// DELETE /v1/users/me {current_password} → 202 {deletion_at};
// POST …/deletion/cancel. The account read shows both dates.

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

/** Cancels a scheduled deletion. */
export function useCancelDeletion(target: DeletionTarget, accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (): Promise<undefined> => apiRequest(`${deletionPath(target)}/deletion/cancel`, { method: 'POST', auth: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
