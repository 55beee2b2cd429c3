import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, isApiError } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// PATCH /v1/accounts/{id}/billing-address: empty values are left out of the
// payload; `version` guards against stale edits (409).

export interface BillingAddress {
  organization_name: string
  street_and_number: string
  street_additional?: string
  postal_code: string
  city: string
  region: string
  country: string
  vat_id?: string
  version?: number
}

/** Drops empty strings (and the literal BLANK) and undefined values. */
export function billingAddressPayload(address: BillingAddress): Partial<BillingAddress> {
  const payload: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(address)) {
    if (value === undefined || value === null) continue
    if (typeof value === 'string') {
      const trimmed = value.trim()
      if (trimmed === '' || trimmed === 'BLANK') continue
      payload[key] = trimmed
    } else {
      payload[key] = value
    }
  }
  return payload as Partial<BillingAddress>
}

export function updateBillingAddress(accountId: string, address: BillingAddress): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/billing-address`, {
    method: 'PATCH',
    auth: true,
    body: billingAddressPayload(address),
  })
}

/** What a save ended in: saved, or a 409 (someone saved in between; the form offers to reload). */
export type SaveAddressOutcome = 'saved' | 'conflict'

/**
 * The one billing-address mutation (billing card, billing-details modal,
 * onboarding). A 409 is an outcome, not an error: no popup. 422 field errors
 * reject for the form. After a save it waits for the account and billing
 * re-reads, so the next save carries the new version.
 */
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
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.billing(accountId) }),
        // The VAT rate follows the VAT id's status (reverse charge).
        queryClient.invalidateQueries({ queryKey: queryKeys.pricing(accountId) }),
      ])
      return 'saved'
    },
  })
}
