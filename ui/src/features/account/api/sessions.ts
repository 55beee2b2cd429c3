import * as v from 'valibot'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

// The caller's signed-in devices: GET /v1/accounts/{id}/sessions, and
// DELETE …/sessions/{sessionId} (one) or DELETE …/sessions (all but this one).

const sessionSchema = v.object({
  id: v.string(),
  created_at: v.string(),
  last_seen_at: v.string(),
  expires_at: v.string(),
  user_agent: v.string(),
  current: v.boolean(),
  // How it signed in (issue 29): null for sessions from before.
  sign_in_method: v.optional(v.nullable(v.string()), null),
  second_factor: v.optional(v.nullable(v.string()), null),
  // The browser and system named from user_agent, and the network it signed in from (issue 37): '' when unknown.
  browser: v.optional(v.string(), ''),
  system: v.optional(v.string(), ''),
  network: v.optional(v.string(), ''),
})
const sessionsSchema = v.object({ sessions: v.array(sessionSchema) })

export type SessionInfo = v.InferOutput<typeof sessionSchema>

export const sessionKeys = {
  list: (accountId: string) => ['sessions', accountId] as const,
}

function sessionsPath(accountId: string): string {
  return `/v1/accounts/${encodeURIComponent(accountId)}/sessions`
}

export function sessionsQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: sessionKeys.list(accountId),
    queryFn: ({ signal }) => apiRequest(sessionsPath(accountId), { auth: true, signal, schema: sessionsSchema }),
  })
}

/** Ends one session (sessionId) or, without one, every session but this one. */
export function useEndSessions(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (sessionId?: string): Promise<undefined> =>
      apiRequest(sessionId ? `${sessionsPath(accountId)}/${encodeURIComponent(sessionId)}` : sessionsPath(accountId), {
        method: 'DELETE',
        auth: true,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.list(accountId) }),
  })
}
