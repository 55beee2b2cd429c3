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

/** What the owner's switch sends: the policy, and the password that re-authenticates turning it off. */
export interface RequireMfaChange {
  on: boolean
  currentPassword?: string
}

/**
 * Sets the account's two-factor policy (the owner; 409 without their own second factor).
 * Turning it off re-authenticates: the current password (422 on current_password), or a
 * Google step-up for a user without one (403 reauthentication_required).
 */
export function useSetRequireMfa(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ on, currentPassword }: RequireMfaChange): Promise<undefined> =>
      apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}`, {
        method: 'PATCH',
        auth: true,
        body: on || currentPassword === undefined ? { require_mfa: on } : { require_mfa: on, current_password: currentPassword },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
    // The card says the owner must set up their own second factor first, and asks
    // for the password or the step-up itself.
    meta: { shownInline: [409, 422, 403] },
  })
}
