import * as v from 'valibot'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// DELETE /v1/accounts/{id}/subscription/checkout → 200 {status}. The customer
// backed out of the provider's checkout (its cancel link brings them back with
// ?checkout=cancelled) or chose "Cancel payment" on the processing overlay:
// the open checkout ends at once. The server asks the provider first, so a
// checkout paid meanwhile comes back as "paid" (and is applied), one whose
// delayed payment is settling as "pending" (it stays).

export const cancelCheckoutSchema = v.object({
  status: v.picklist(['cancelled', 'paid', 'pending', 'failed', 'none']),
})

export type CancelCheckoutStatus = v.InferOutput<typeof cancelCheckoutSchema>['status']

export function cancelCheckout(accountId: string): Promise<v.InferOutput<typeof cancelCheckoutSchema>> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/subscription/checkout`, {
    method: 'DELETE',
    auth: true,
    schema: cancelCheckoutSchema,
  })
}

/** Ends the account's open checkout and re-reads the account. */
export function useCancelCheckout(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => cancelCheckout(accountId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
