import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// PATCH /v1/accounts/{id} {name}: used by account settings and onboarding.

export function updateAccountName(accountId: string, name: string): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}`, {
    method: 'PATCH',
    auth: true,
    body: { name },
  })
}

export function useUpdateAccountName(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => updateAccountName(accountId, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
