import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// POST /v1/accounts/{id}/subscription/restart → 200 {}: auto-renewal on again.

export function restartAutoRenewal(accountId: string): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/subscription/restart`, {
    method: 'POST',
    auth: true,
  })
}

export function useRestartAutoRenewal(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => restartAutoRenewal(accountId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
