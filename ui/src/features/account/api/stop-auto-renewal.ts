import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// DELETE /v1/accounts/{id}/subscription → 200 {}: auto-renewal off; the plan
// stops at the end of the paid year.

export function stopAutoRenewal(accountId: string): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/subscription`, { method: 'DELETE', auth: true })
}

export function useStopAutoRenewal(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => stopAutoRenewal(accountId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
