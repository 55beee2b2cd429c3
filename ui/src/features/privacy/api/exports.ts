import * as v from 'valibot'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// Data exports (issue 28): POST /v1/users/me/export (one's own data) or
// POST /v1/accounts/{id}/export (the owner, the account's) answer 202 with
// the export's id; GET /v1/users/me/exports/{id} tells where it stands and,
// once ready, hands out a download link valid a few minutes.

const startedSchema = v.object({ export_id: v.string() })

export const exportSchema = v.object({
  export_id: v.string(),
  status: v.picklist(['preparing', 'ready', 'expired']),
  account_id: v.nullable(v.string()),
  created_at: v.string(),
  expires_at: v.nullable(v.string()),
  size_bytes: v.number(),
  download_url: v.optional(v.string()),
})

export type DataExport = v.InferOutput<typeof exportSchema>

/** How often a page polls an export that is being prepared. */
export const PREPARING_POLL_MS = 2000

export function exportQueryOptions(exportId: string) {
  return queryOptions({
    queryKey: queryKeys.dataExport(exportId),
    queryFn: ({ signal }) =>
      apiRequest(`/v1/users/me/exports/${encodeURIComponent(exportId)}`, { auth: true, signal, schema: exportSchema }),
    // Poll while it is built; a ready export's link is short-lived, so it is
    // fetched again when the page comes back into view.
    refetchInterval: (query) => (query.state.data?.status === 'preparing' ? PREPARING_POLL_MS : false),
    staleTime: 0,
  })
}

/** Asks for an export of one's own data, or of the account's when accountId is given. */
export function useRequestExport() {
  return useMutation({
    mutationFn: (accountId?: string) =>
      apiRequest(accountId ? `/v1/accounts/${encodeURIComponent(accountId)}/export` : '/v1/users/me/export', {
        method: 'POST',
        auth: true,
        schema: startedSchema,
      }),
  })
}
