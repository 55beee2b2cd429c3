import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// DELETE /v1/accounts/{id}/billing/payment-methods {mandate_id} → 204; 409 for
// the last one, 404 when it is not the account's. Either way the list is re-read.

export function removePaymentMethod(accountId: string, mandateId: string): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/billing/payment-methods`, {
    method: 'DELETE',
    auth: true,
    body: { mandate_id: mandateId },
  })
}

export function useRemovePaymentMethod(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (mandateId: string) => removePaymentMethod(accountId, mandateId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.billing(accountId) }),
  })
}
