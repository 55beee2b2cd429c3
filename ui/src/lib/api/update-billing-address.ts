import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { accountKeys } from './get-account'

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

export function useUpdateBillingAddress(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (address: BillingAddress) => updateBillingAddress(accountId, address),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.detail(accountId) }),
        queryClient.invalidateQueries({ queryKey: ['billing', accountId] }),
      ]),
  })
}
