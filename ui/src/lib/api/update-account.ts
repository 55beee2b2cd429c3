import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// PATCH /v1/accounts/{id} {name}: used by account settings and onboarding;
// {require_mfa}: the owner's two-factor policy (issue 29).

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

/** Sets the account's two-factor policy (the owner; 409 without their own second factor). */
export function useSetRequireMfa(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (on: boolean): Promise<undefined> =>
      apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}`, {
        method: 'PATCH',
        auth: true,
        body: { require_mfa: on },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
    // The card says the owner must set up their own second factor first.
    meta: { shownInline: [409] },
  })
}
