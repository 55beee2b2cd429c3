import { useMutation, useQueryClient } from '@tanstack/react-query'
import { isApiError } from '@/lib/api-client'
import { accountKeys } from '@/lib/api/get-account'
import { updateBillingAddress, type BillingAddress } from '@/lib/api/update-billing-address'
import { billingKeys } from './get-billing'

// PATCH /v1/accounts/{id}/billing-address with the version that was loaded. A
// 409 (someone saved in between) is an outcome, not an error: the card offers
// to reload instead of the popup. 422 field errors reject for the form.

export type SaveAddressOutcome = 'saved' | 'conflict'

export function useSaveBillingAddress(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (address: BillingAddress): Promise<SaveAddressOutcome> => {
      try {
        await updateBillingAddress(accountId, address)
      } catch (error) {
        if (isApiError(error) && error.status === 409) return 'conflict'
        throw error
      }
      // The next save must carry the new version: wait for the re-read.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: billingKeys.detail(accountId) }),
        queryClient.invalidateQueries({ queryKey: accountKeys.detail(accountId) }),
      ])
      return 'saved'
    },
  })
}
