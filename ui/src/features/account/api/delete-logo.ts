import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { accountQueryOptions } from '@/lib/api/get-account'
import { queryKeys } from '@/lib/query-keys'

// DELETE /v1/accounts/{id}/upload-logo → 204: the public logo is removed and
// the account is back to the placeholder (delete and change, SPEC §4).

export function deleteLogo(accountId: string): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/upload-logo`, { method: 'DELETE', auth: true })
}

export function useDeleteLogo(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => deleteLogo(accountId),
    onSuccess: () =>
      queryClient.setQueryData(accountQueryOptions(accountId).queryKey, (old) =>
        old && { ...old, account: { ...old.account, img_url: '', logo_url: '', logo_error: '' } },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
