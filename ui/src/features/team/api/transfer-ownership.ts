import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// POST /v1/accounts/{id}/transfer-ownership {user_id, current_password} → 200:
// another member becomes the owner and the caller an admin. The current
// password re-authenticates (422 fields.current_password when wrong; 429
// after too many guesses).

export function useTransferOwnership(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { user_id: string; current_password: string }): Promise<undefined> =>
      apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/transfer-ownership`, {
        method: 'POST',
        auth: true,
        body: input,
      }),
    // The caller's role changed too: the account read has it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.team(accountId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
      ]),
    meta: { shownInline: [422] },
  })
}
