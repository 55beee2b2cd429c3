import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// PATCH /v1/accounts/{id}/user with exactly one field (SPEC §7); a new
// e-mail or password also carries the current password (ARCHITECTURE §4).

export type UserPatch =
  | { firstname: string }
  | { lastname: string }
  | { email: string; current_password?: string }
  | { password: string; current_password?: string }
  | { opt_in_notifications: boolean }
  | { opt_in_marketing: boolean }
  | { preferred_language: string }

export function updateUser(accountId: string, patch: UserPatch): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/user`, {
    method: 'PATCH',
    auth: true,
    body: patch,
  })
}

export function useUpdateUser(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (patch: UserPatch) => updateUser(accountId, patch),
    // An e-mail change deactivates the user until the new address is confirmed:
    // the caller refreshes the account once its confirm dialog was read.
    onSuccess: (_data, patch) =>
      'email' in patch ? undefined : queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
